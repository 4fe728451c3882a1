import HTTPCaching
import MediaCore
import MediaCrypto
import MediaService

/// The admin token check shared by the admin endpoints (``AdminEndpoint``, ``ReloadEndpoint``): exactly one
/// `Authorization: Bearer <token>` field (RFC 6750) whose token equals the one of `serve.json`, compared in
/// constant time.
struct AdminToken: Sendable {
    private let token: [UInt8]

    init(_ token: String) {
        self.token = Array(token.utf8)
    }

    /// Whether `fields` carry the admin token.
    func accepts(_ fields: HTTPFields) -> Bool {
        let values = fields.values(for: .authorization)
        guard values.count == 1, let presented = try? BearerToken.parse(authorization: values[0]) else { return false }
        return ConstantTime.equals(Array(presented.token.utf8), token)
    }
}
