import HTTPCaching
import MediaCore
import MediaPolicy

extension Admission {
    /// Credentials per tier (RFC 6750 bearer tokens): whether one reaches the origin, and its partition (`known`: a bearer
    /// token's partition the hit path computed already).
    func credentialPartition(_ request: ServiceRequest, tier: Tier, outcome: ServiceOutcome, known: String? = nil)
        -> Result<(hasCredential: Bool, partition: String?), Refusal>
    {
        var hasCredential = false
        var partition: String?
        let authorization = request.fields.values(for: .authorization)
        switch tier.credentials {
        case .strip:
            break
        case .refuse:
            // Credentials are `Authorization` and `Cookie` (MediaPolicy `Tier.CredentialPolicy`).
            if !authorization.isEmpty || request.fields.contains(.cookie) {
                return .failure(Refusal(response: Responder.problem(
                    400, code: "credentials-refused", detail: "tier \(tier.name) refuses credentials", outcome: outcome)))
            }
        case .bearerRequired:
            let token: BearerToken?
            do {
                token = try BearerToken.from(request.fields)
            } catch {
                var response = Responder.problem(401, code: "invalid-token", detail: error.context, outcome: outcome)
                response.fields.set(.wwwAuthenticate, "Bearer error=\"invalid_token\"")
                return .failure(Refusal(response: response))
            }
            guard let token else {
                var response = Responder.problem(401, code: "credentials-required",
                                                 detail: "tier \(tier.name) requires a bearer token", outcome: outcome)
                response.fields.set(.wwwAuthenticate, "Bearer")
                return .failure(Refusal(response: response))
            }
            hasCredential = true
            if tier.partition == .credential { partition = known ?? keys.partition(for: token) }
        case .forward:
            // An empty or blank credential is no credential: it never forms a partition.
            let presented = authorization.filter { value in value.contains { $0 != " " && $0 != "\t" } }
            hasCredential = !presented.isEmpty
            if tier.partition == .credential, hasCredential {
                // A bearer token keys the same partition as on bearer tiers, so a purge by credential
                // (logout) reaches it; other schemes get a keyed digest of the whole value.
                if let token = try? BearerToken.from(request.fields) {
                    partition = keys.partition(for: token)
                } else {
                    partition = keys.digest("authorization:" + presented.joined(separator: "\n"))
                }
            }
        }
        return .success((hasCredential, partition))
    }
}
