/// How mediactl authenticates to a route's origin on signed requests (route key `originAuthorization`,
/// docs/signed-urls.md): a signed URL carries no user token, so the service sends its own.
public struct OriginAuthorization: Sendable, Hashable {
    /// `bearerFile` as written, e.g. `secrets/receipts-origin.token` (for messages).
    public var bearerFile: String
    /// ``bearerFile`` resolved against the policy file's directory: a file of one RFC 6750 token, mode 0600,
    /// read by `policy check`, `serve` and every reload; sent as `Authorization: Bearer <token>`.
    public var bearerPath: String

    public init(bearerFile: String, bearerPath: String? = nil) {
        self.bearerFile = bearerFile
        self.bearerPath = bearerPath ?? bearerFile
    }
}
