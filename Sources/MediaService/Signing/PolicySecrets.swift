import MediaPolicy
import MediaSigning

/// The secrets a policy set names, read from their files: each signed tier's keys (``SigningKeyring``, as a
/// ``SignatureVerifier``) and each route's origin token (`originAuthorization.bearerFile`).
///
/// Read when a service starts and on every reload (so a key removed from its file stops verifying at the
/// reload), and by `mediactl policy check`. Every file must be readable by its owner only (``SecretFile``).
/// `description` shows no secret.
public struct PolicySecrets: Sendable, CustomStringConvertible {
    /// Tier name → the verifier of its signed URLs.
    let verifiers: [String: SignatureVerifier]
    /// Route name → the bearer token sent to its origin on signed requests.
    let originTokens: [String: BearerToken]

    /// No secrets (a set without `signedURLs` and `originAuthorization`).
    public static let none = PolicySecrets(verifiers: [:], originTokens: [:])

    init(verifiers: [String: SignatureVerifier], originTokens: [String: BearerToken]) {
        self.verifiers = verifiers
        self.originTokens = originTokens
    }

    /// Reads every secret file `policies` names, each once.
    /// - Throws: ``MediaPolicy/PolicyErrorList`` of ``MediaPolicy/PolicyError/Code/secretFile`` errors, one per bad
    ///   file, each `<file>: <problem>; allowed: <allowed>` (e.g. `Policies/keys/receipts.keys: has mode 0644:
    ///   readable or writable by group or others; allowed: a regular file only its owner can read or write (chmod 600)`).
    public static func load(for policies: PolicySet) throws(PolicyErrorList) -> PolicySecrets {
        var errors: [PolicyError] = []
        var keyrings: [String: SigningKeyring] = [:]
        var verifiers: [String: SignatureVerifier] = [:]
        for name in policies.tiers.keys.sorted() {
            guard let signed = policies.tiers[name]?.signedURLs else { continue }
            do throws(SecretFileError) {
                let keyring: SigningKeyring
                if let known = keyrings[signed.keysPath] { keyring = known } else { keyring = try SigningKeyring.load(signed.keysPath) }
                keyrings[signed.keysPath] = keyring
                verifiers[name] = SignatureVerifier(keyring: keyring, maxLifetime: Int64(signed.maxLifetime))
            } catch {
                if !errors.contains(where: { $0.file == error.file }) { errors.append(policyError(error)) }
            }
        }
        var tokens: [String: BearerToken] = [:]
        for route in policies.routes {
            guard let authorization = route.originAuthorization else { continue }
            do throws(SecretFileError) {
                tokens[route.name] = try originToken(at: authorization.bearerPath)
            } catch {
                if !errors.contains(where: { $0.file == error.file }) { errors.append(policyError(error)) }
            }
        }
        guard errors.isEmpty else { throw PolicyErrorList(errors) }
        return PolicySecrets(verifiers: verifiers, originTokens: tokens)
    }

    /// The token of an origin token file: one RFC 6750 `b64token` (or `Bearer <token>`) on one line; a final
    /// line break and surrounding blanks are ignored.
    /// - Throws: ``MediaSigning/SecretFileError``.
    public static func originToken(at path: String) throws(SecretFileError) -> BearerToken {
        let allowed = "one line holding an RFC 6750 bearer token (b64token), mode 0600"
        var text = String(decoding: try SecretFile.read(path), as: UTF8.self)
        while let last = text.last, last == "\n" || last == "\r\n" || last == "\r" || last == " " || last == "\t" { text.removeLast() }
        while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
        if text.lowercased().hasPrefix("bearer ") { text = String(text.dropFirst(7)) }
        guard !text.contains(where: { $0.isNewline }), let token = try? BearerToken(token: text) else {
            throw SecretFileError(.malformed, file: path, problem: "does not hold one bearer token", allowed: allowed)
        }
        return token
    }

    static func policyError(_ error: SecretFileError) -> PolicyError {
        PolicyError(.secretFile, file: error.file, keyPath: "", value: nil, problem: error.problem, allowed: error.allowed)
    }

    public var description: String {
        "PolicySecrets(tiers: \(verifiers.keys.sorted().joined(separator: ", ")); origin tokens: \(originTokens.keys.sorted().joined(separator: ", ")))"
    }
}
