import MediaPolicy

extension PolicySnapshot {
    /// ``PolicySecrets/load(for:)``, its problems as one `invalid-policy` error (one problem per line).
    static func secrets(for policies: PolicySet) throws(ServiceError) -> PolicySecrets {
        do {
            return try PolicySecrets.load(for: policies)
        } catch {
            throw ServiceError(.invalidPolicy, error.description)
        }
    }
}
