import HTTPCaching
import MediaCore
import MediaPolicy
import MediaSigning

extension Admission {
    /// A signed request admitted by ``admitSignature(_:parameters:match:tier:outcome:)``: the verified
    /// signature and the route match without the four signature parameters.
    struct SignedAdmission {
        var signature: VerifiedSignature
        var match: RouteMatch
        /// The subject's partition, or `nil` when the subject key cannot be used (the service is stopping).
        var partition: String?
    }

    /// The raw query of a request target (after the first `?`), or `nil`.
    static func rawQuery(of target: String) -> Substring? {
        guard let mark = target.utf8.firstIndex(of: UInt8(ascii: "?")) else { return nil }
        return target[target.index(after: mark)...]
    }

    /// The path of a request target as sent, in origin form (docs/signed-urls.md, "The algorithm": PATH).
    static func rawPath(of target: String) -> String {
        var path = target
        if !target.hasPrefix("/"), let origin = try? RequestTarget.originForm(ofAbsolute: Array(target.utf8)) {
            path = String(decoding: origin, as: UTF8.self)
        }
        if let mark = path.firstIndex(of: "?") { path = String(path[..<mark]) }
        return path
    }

    /// The signed-URL step of admission, before credentials (docs/signed-urls.md): for a route whose tier has
    /// `signedURLs`, a request with any of `exp`, `sub`, `kid`, `sig` is verified (``MediaSigning/SignatureVerifier``:
    /// the path canonical, then the signature), and an unsigned one is refused `401 signature-required` when the
    /// tier requires signatures; on another tier a request with `sig` is refused `403 signature-invalid`.
    /// Nothing reaches the origin or the stores before this step.
    /// - Returns: `.success(nil)` for an unsigned request to admit as usual, the admitted signature, or the refusal.
    func admitSignature(_ request: ServiceRequest, parameters: [Substring]?, match: RouteMatch, tier: Tier,
                        outcome: ServiceOutcome) -> Result<SignedAdmission?, Refusal> {
        guard let signed = tier.signedURLs else {
            guard let parameters, parameters.contains(where: { SigningString.split($0).name == "sig" }) else { return .success(nil) }
            // Answered without route and tier, so the access log writes only a digest of the path (never the query).
            return .failure(Refusal(response: SignedAnswer.refusal(
                403, code: SignatureRefusal.Code.invalid.rawValue,
                detail: "route \(match.route.name) does not accept signed URLs", outcome: ServiceOutcome())))
        }
        let counters = snapshot.runtimes[tier.name]?.counters.signed
        guard let parameters else {
            guard signed.required else { return .success(nil) }
            counters?.count("signature-required")
            var response = SignedAnswer.refusal(401, code: "signature-required",
                                                detail: "tier \(tier.name) answers signed URLs only", outcome: outcome)
            response.fields.set(.wwwAuthenticate, "Mediactl-Signed-URL realm=\"\(tier.name)\"")
            return .failure(Refusal(response: response))
        }
        if let known = snapshot.signatures.entry(for: request.target), known.match.route == match.route {
            // Verified before under these keys: only the expiry can have changed.
            guard Double(known.signature.expires) > clock() else {
                counters?.count(SignatureRefusal.Code.expired.rawValue)
                return .failure(Self.signatureRefusal(SignatureRefusal(.expired, "the signed URL has expired"), outcome: outcome))
            }
            return .success(SignedAdmission(signature: known.signature, match: known.match, partition: known.partition))
        }
        let path = Self.rawPath(of: request.target)
        guard let verifier = snapshot.secrets.verifiers[tier.name] else {
            counters?.count(SignatureRefusal.Code.unknownKeyID.rawValue)
            return .failure(Self.signatureRefusal(SignatureRefusal(.unknownKeyID, "the tier has no keys"), outcome: outcome))
        }
        switch verifier.verify(path: path, parameters: parameters, now: clock()) {
        case .failure(let refusal):
            counters?.count(refusal.code.rawValue)
            return .failure(Self.signatureRefusal(refusal, outcome: outcome))
        case .success(let signature):
            // Counted `verified` when answered (``Responder/finished(_:_:_:cors:now:)``), not here: once per request, on
            // whichever path answers it.
            let reduced = match.replacingQuery(signature.query)
            let partition = keys.partition(forSubject: signature.subject)
            if let partition {
                snapshot.signatures.keep(SignatureCache.Entry(signature: signature, match: reduced, partition: partition),
                                         for: request.target)
            }
            return .success(SignedAdmission(signature: signature, match: reduced, partition: partition))
        }
    }

    /// The detail of a `signature-malformed` refusal for a path the router would change or refuse.
    static let nonCanonicalPath = CanonicalPath.refusal

    /// A `403` problem for `refusal`, with `Referrer-Policy: no-referrer`.
    static func signatureRefusal(_ refusal: SignatureRefusal, outcome: ServiceOutcome) -> Refusal {
        Refusal(response: SignedAnswer.refusal(403, code: refusal.code.rawValue, detail: refusal.detail, outcome: outcome))
    }

    /// The origin fields of a signed request on `route` of `tier`: the image-tier allow-list with no client
    /// credential, then the route's service token (`originAuthorization`) and the subject in `subjectHeader`; never
    /// `Referer` (the page that showed the image is the user's business, not the origin's).
    static func signedOriginFields(_ client: HTTPFields, route: MediaPolicy.Route, tier: Tier, signature: VerifiedSignature,
                                   secrets: PolicySecrets) -> HTTPFields {
        var fields = HeaderHygiene.originRequestFields(from: client, forwardAuthorization: false,
                                                       forwarding: tier.forwardRequestHeaders)
        fields.remove(.referer)
        if let token = secrets.originTokens[route.name] { fields.set(.authorization, token.authorizationValue) }
        if let header = route.subjectHeader { fields.set(HTTPFieldName(header), signature.subject) }
        return fields
    }
}
