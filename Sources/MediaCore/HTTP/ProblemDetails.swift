/// An RFC 9457 problem details object in mediactl's shape: `type`, `title`, `status`, `detail` and the `code`
/// extension member. Every problem+json body mediactl writes (the service, the HTTP server's own refusals, the
/// admin endpoints) is one of these.
public struct ProblemDetails: Sendable, Hashable, Codable {
    /// A URI naming the problem type: `https://mediactl.dev/problems/<code>`.
    public var type: String
    /// Short, human-readable summary of the type: the status's reason phrase (``HTTPStatus/reasonPhrase(for:)``),
    /// `Error` for a status without one.
    public var title: String
    /// The HTTP status.
    public var status: HTTPStatus
    /// What happened in this occurrence.
    public var detail: String
    /// The stable machine-readable code (an extension member), e.g. `over-pixel-limit`.
    public var code: String

    public init(status: HTTPStatus, code: String, detail: String) {
        self.type = "https://mediactl.dev/problems/" + code
        self.title = ProblemDetails.title(for: status)
        self.status = status
        self.detail = detail
        self.code = code
    }

    /// The JSON body: one object, keys sorted (`code`, `detail`, `status`, `title`, `type`), UTF-8, slashes not
    /// escaped: the bytes `JSONEncoder` writes with `.sortedKeys` and `.withoutEscapingSlashes`.
    public var json: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(96 + code.utf8.count * 2 + detail.utf8.count + title.utf8.count)
        out.append(contentsOf: #"{"code":"#.utf8)
        JSONString.append(code, to: &out, escapingSlashes: false)
        out.append(contentsOf: #","detail":"#.utf8)
        JSONString.append(detail, to: &out, escapingSlashes: false)
        out.append(contentsOf: #","status":"#.utf8)
        out.append(contentsOf: String(status.code).utf8)
        out.append(contentsOf: #","title":"#.utf8)
        JSONString.append(title, to: &out, escapingSlashes: false)
        out.append(contentsOf: #","type":"#.utf8)
        JSONString.append(type, to: &out, escapingSlashes: false)
        out.append(UInt8(ascii: "}"))
        return out
    }

    /// The title of `status`: its reason phrase, or `Error` when it has none.
    public static func title(for status: HTTPStatus) -> String {
        let phrase = status.reasonPhrase
        return phrase.isEmpty ? "Error" : phrase
    }
}
