import Foundation
import MediaPolicy
import MediaService
import MediaSigning

/// What `mediactl inspect` says of a signed URL (docs/signed-urls.md): the verdict, key id, expiry, the subject's
/// partition, and the origin request the service would make. Never shows a secret, the signature or the subject.
struct SignedInspection {
    /// The verified request's origin URL and fields, or `nil` when refused.
    var origin: (url: String, authorization: String?, subjectHeader: (String, String)?)?
    /// The `signed URL:` section, each line ending without `\n`.
    var lines: [String]

    /// Inspects `url` (`http(s)://host[:port]PATH?QUERY` naming a signature parameter) under `policies` at `now`.
    /// - Returns: `nil` when no route's mount matches or its tier has no `signedURLs` (the URL is then an origin URL).
    /// - Throws: ``CommandError`` `invalid-file` (exit 2) for a keys or token file that is refused.
    static func inspect(_ url: String, parameters: [Substring], policies: PolicySet, stateDirectory: String, now: Double)
        throws(CommandError) -> SignedInspection?
    {
        let afterScheme = url.firstIndex(of: "/").map { url[$0...].dropFirst(2) } ?? Substring(url)
        let target = afterScheme.firstIndex(of: "/").map { String(afterScheme[$0...]) } ?? "/"
        let path = String(target.prefix { $0 != "?" })
        guard let (route, tier) = policies.route(forPath: path), let signed = tier.signedURLs else { return nil }
        var lines = ["signed URL:"]
        func line(_ label: String, _ value: String) { lines.append("  " + label + String(repeating: " ", count: max(1, 16 - label.count)) + value) }
        line("route:", "\(route.name) (mount \(route.mount)), tier \(tier.name)")
        let keyring: SigningKeyring
        do {
            keyring = try SigningKeyring.load(signed.keysPath)
        } catch {
            throw CommandError(.invalidFile, error.description, exitCode: .unusableInput)
        }
        let verifier = SignatureVerifier(keyring: keyring, maxLifetime: Int64(signed.maxLifetime))
        let result = verifier.verify(path: path, parameters: parameters, now: now)
        let signature: VerifiedSignature
        switch result {
        case .failure(let refusal):
            line("result:", "refused 403 \(refusal.code) (\(refusal.detail))")
            return SignedInspection(origin: nil, lines: lines)
        case .success(let verified):
            signature = verified
        }
        line("result:", "valid")
        line("key id:", signature.keyID)
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        line("expires:", formatter.string(from: Date(timeIntervalSince1970: Double(signature.expires)))
             + " (in \(signature.expires - Int64(now.rounded(.up))) s; maxLifetime \(signed.maxLifetime) s)")
        line("subject:", "\(signature.subject.count) characters (not shown)")
        let partition: String
        do {
            if let keyer = try SubjectKeyer.existing(stateDirectory: stateDirectory),
               let hex = keyer.partition(forSubject: signature.subject) {
                partition = hex + " (keyed digest of the subject, \(stateDirectory)/\(SubjectKeyer.relativePath))"
            } else {
                partition = "unknown (no \(SubjectKeyer.relativePath) in \(stateDirectory); give --state-dir)"
            }
        } catch {
            throw CommandError(.invalidFile, error.description, exitCode: .unusableInput)
        }
        line("partition:", partition)
        // The origin URL: the route's origin, the path after the mount, the query without derived-image parameters.
        let kept = (signature.query ?? "").split(separator: "&").filter { parameter in
            tier.variants == nil || !Tier.variantParameterNames.contains(String(SigningString.split(parameter).name))
        }
        let originURL = route.origin + path.dropFirst(route.mount.count) + (kept.isEmpty ? "" : "?" + kept.joined(separator: "&"))
        var authorization: String?
        if let bearer = route.originAuthorization {
            do {
                authorization = try PolicySecrets.originToken(at: bearer.bearerPath).authorizationValue
            } catch {
                throw CommandError(.invalidFile, error.description, exitCode: .unusableInput)
            }
        }
        let sent = [authorization.map { _ in "Authorization: Bearer <the route's origin token>" },
                    route.subjectHeader.map { "\($0): <the subject>" }].compactMap { $0 }
        line("origin request:", "GET \(originURL)" + (sent.isEmpty ? "" : " (" + sent.joined(separator: ", ") + ")"))
        return SignedInspection(origin: (originURL, authorization, route.subjectHeader.map { ($0, signature.subject) }),
                                lines: lines)
    }
}
