/// Why a variant query was refused (answered 400 by the service).
///
/// `detail` always reads `<subject> is not allowed: <rule>`, where the subject is the offending query
/// items as written, joined with `&` (or a description of the whole query), and the rule names the
/// parameter and lists the allowed values:
/// - `w=145 is not allowed: w × dpr must be one of 72, 144, 288, 576, 1152`
/// - `w=100&dpr=2 is not allowed: w × dpr must be one of 72, 144, 288, 576, 1152`
/// - `foo=1 is not allowed: a parameter must be one of w, h, fit, dpr, q, fmt, gravity, profile, info, v`
/// - `w=144&w=288 is not allowed: w must appear at most once`
/// - `h=144 is not allowed: a variant needs w, with w × dpr one of 72, 144, 288, 576, 1152`
///
/// Items are shown with every byte outside printable ASCII (`!`…`~`) as `%XX`, and cut to 40 characters
/// followed by `…`, so a detail is one line of bounded length whatever the query holds.
public struct VariantError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Always ``notAllowed`` (`variant-not-allowed`).
    public var code: String
    /// The one-line explanation (above).
    public var detail: String

    /// The only code: `variant-not-allowed`.
    public static let notAllowed = "variant-not-allowed"

    public init(detail: String) {
        self.code = VariantError.notAllowed
        self.detail = detail
    }

    /// `<subject> is not allowed: <rule>`.
    init(subject: String, rule: String) {
        self.init(detail: "\(subject) is not allowed: \(rule)")
    }

    /// `variant-not-allowed: <detail>`.
    public var description: String { "\(code): \(detail)" }
}
