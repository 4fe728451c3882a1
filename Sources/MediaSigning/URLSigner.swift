import MediaCrypto

/// Signs capability URLs for mediactl (docs/signed-urls.md): for Swift BFFs, with only the toolchain and
/// OpenSSL (through `MediaCrypto`).
///
/// ```swift
/// let signer = try URLSigner(keyID: "2026-12", secret: secretBytes)
/// let url = try signer.sign(path: "/receipts/r-7731.png", query: "w=144", subject: "user-1042",
///                           expires: now + 300)
/// // /receipts/r-7731.png?w=144&exp=…&sub=user-1042&kid=2026-12&sig=…
/// ```
///
/// The signature covers the key id, the expiry, the subject, the path and every other query parameter, so
/// the holder of the URL can change none of them (not even `w`).
public struct URLSigner: Sendable, CustomStringConvertible {
    /// `kid`.
    public let keyID: String
    private let key: SymmetricKey

    /// A signer with the secret `secret` (at least 32 bytes, the bytes a keys file's base64url decodes to).
    /// - Throws: ``SigningError`` `invalid-key-id`, `short-secret`.
    public init(keyID: String, secret: [UInt8]) throws(SigningError) {
        guard secret.count >= SigningKeyring.minimumSecretBytes else {
            throw SigningError(.shortSecret, "the secret has \(secret.count) bytes; at least \(SigningKeyring.minimumSecretBytes)")
        }
        try self.init(keyID: keyID, key: SymmetricKey(bytes: secret))
    }

    /// A signer with a key of a ``SigningKeyring`` or one made elsewhere.
    /// - Throws: ``SigningError`` `invalid-key-id`.
    public init(keyID: String, key: SymmetricKey) throws(SigningError) {
        guard SignedURLParameters.isKeyID(keyID) else {
            throw SigningError(.invalidKeyID, "the key id is not 1 to 32 of A-Z a-z 0-9 . _ -")
        }
        self.keyID = keyID
        self.key = key
    }

    /// The signed request target: `path`, `?`, `query` and `&` when there is one, then
    /// `exp=EXPIRES&sub=SUBJECT&kid=KID&sig=SIG`.
    /// - Parameters:
    ///   - path: the path as it will be sent, in canonical form (``CanonicalPath``), e.g. `/receipts/r-7731.png`.
    ///   - query: the other parameters as they will be sent (`w=144&fmt=webp`), or `nil`.
    ///   - subject: `sub`, 1–128 of `[A-Za-z0-9._-]`: the partition the URL opens.
    ///   - expires: `exp`, Unix seconds.
    /// - Throws: ``SigningError`` `invalid-path`, `invalid-query`, `invalid-subject`, `invalid-expiry`.
    public func sign(path: String, query: String? = nil, subject: String, expires: Int64) throws(SigningError) -> String {
        guard CanonicalPath.isCanonical(path) else {
            throw SigningError(.invalidPath, "the path must start with / and be in canonical form (docs/signed-urls.md, \"Paths\")")
        }
        var parameters: [Substring] = []
        if let query, !query.isEmpty {
            guard !query.contains("#") else { throw SigningError(.invalidQuery, "the query has a #") }
            parameters = query.split(separator: "&", omittingEmptySubsequences: false)
            for parameter in parameters {
                guard !parameter.isEmpty else { throw SigningError(.invalidQuery, "the query has an empty parameter") }
                let name = SigningString.split(parameter).name
                guard !SignatureVerifier.isSignatureParameter(name) else {
                    throw SigningError(.invalidQuery, "the query already has a parameter named \(name)")
                }
            }
        }
        guard SignedURLParameters.isSubject(subject) else {
            throw SigningError(.invalidSubject, "the subject is not 1 to 128 of A-Z a-z 0-9 . _ -")
        }
        guard expires >= 0 else { throw SigningError(.invalidExpiry, "the expiry is negative") }
        let expiresText = String(expires)
        let message = SigningString.bytes(keyID: keyID, expires: expiresText, subject: subject, path: path,
                                          parameters: parameters)
        let code: [UInt8]
        do {
            code = try HMACSHA256.authenticationCode(for: message, key: key)
        } catch {
            throw SigningError(.shortSecret, "the key was destroyed")
        }
        let head = parameters.isEmpty ? path + "?" : path + "?" + (query ?? "") + "&"
        return head + "exp=\(expiresText)&sub=\(subject)&kid=\(keyID)&sig=\(Base64URL.encode(code))"
    }

    public var description: String { "URLSigner(kid: \(keyID), <redacted>)" }
}
