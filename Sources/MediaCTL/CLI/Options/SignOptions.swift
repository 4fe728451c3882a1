/// The options of `mediactl sign`.
public struct SignOptions: Sendable, Hashable {
    /// Longest `--expires-in`: 86,400 seconds (the largest `signedURLs.maxLifetime`).
    public static let maxExpiresIn = 86_400

    /// `--keys FILE`: the keys file (`KID SECRET` lines, mode 0600).
    public var keysFile: String
    /// `--kid KID`: the key to sign with.
    public var keyID: String
    /// `--subject SUB`: the subject, 1–128 of `[A-Za-z0-9._-]`.
    public var subject: String
    /// `--expires-in SECONDS`: 1–86,400.
    public var expiresIn: Int
    /// `--base-url URL`: printed before the target (`https://media.example.com`), or `nil`: the target only.
    public var baseURL: String?
    /// `PATH`: the request target to sign, starting with `/`, with an optional query (`/receipts/r.png?w=144`).
    public var target: String

    public init(keysFile: String, keyID: String, subject: String, expiresIn: Int, baseURL: String? = nil, target: String) {
        self.keysFile = keysFile
        self.keyID = keyID
        self.subject = subject
        self.expiresIn = expiresIn
        self.baseURL = baseURL
        self.target = target
    }

    init(_ parsed: ParsedArguments) throws(UsageError) {
        var values: [String: String] = [:]
        for (name, shown) in [("keys", "--keys FILE"), ("kid", "--kid KID"), ("subject", "--subject SUB"),
                              ("expires-in", "--expires-in SECONDS")] {
            guard let value = parsed.value(name) else { throw parsed.error(.missingArgument, "sign requires \(shown)") }
            values[name] = value
        }
        let text = values["expires-in"]!
        guard text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let seconds = Int(text), (1...Self.maxExpiresIn).contains(seconds)
        else {
            throw parsed.error(.invalidValue, "invalid --expires-in '\(text)': expected a whole number of seconds from 1 to \(Self.maxExpiresIn)")
        }
        let target = parsed.positionals[0]
        guard target.hasPrefix("/") else { throw parsed.error(.invalidValue, "invalid PATH '\(target)': must start with '/'") }
        var base: String?
        if let text = parsed.value("base-url") {
            guard let server = WarmOptions.serverBase(text) else {
                throw parsed.error(.invalidValue, "invalid --base-url '\(text)': expected http://HOST[:PORT] or https://HOST[:PORT]")
            }
            base = server
        }
        self.init(keysFile: values["keys"]!, keyID: values["kid"]!, subject: values["subject"]!, expiresIn: seconds,
                  baseURL: base, target: target)
    }
}
