/// A tier's signed capability URLs (tier key `signedURLs`, docs/signed-urls.md): where its keys are, how far
/// ahead a URL may expire, and whether an unsigned request is refused.
public struct SignedURLPolicy: Sendable, Hashable {
    /// `keys` as written in the policy file, e.g. `keys/receipts.keys` (for messages).
    public var keys: String
    /// ``keys`` resolved against the policy file's directory (absolute paths stay as they are), e.g.
    /// `Policies/keys/receipts.keys`: the file read by `policy check`, `serve` and every reload.
    public var keysPath: String
    /// The longest a URL may be valid ahead of now, seconds, 1–86,400 (30 s of clock skew are allowed on top).
    /// Default: 900.
    public var maxLifetime: Int
    /// `true`: an unsigned request is answered `401 signature-required`. `false` (only with `credentials`
    /// `bearer-required`): a bearer token is accepted too. Default: `true`.
    public var required: Bool

    /// Default `maxLifetime`: 900 seconds.
    public static let defaultMaxLifetime = 900
    /// Largest `maxLifetime`: 86,400 seconds (one day).
    public static let maximumLifetime = 86_400

    public init(keys: String, keysPath: String? = nil, maxLifetime: Int = SignedURLPolicy.defaultMaxLifetime,
                required: Bool = true) {
        self.keys = keys
        self.keysPath = keysPath ?? keys
        self.maxLifetime = maxLifetime
        self.required = required
    }
}
