import HTTPCaching
import MediaCore
import MediaCrypto
import MediaPolicy
import MediaSigning
import Synchronization

extension MediaService {
    /// A request refused before any lookup, with its problem response.
    struct Refusal: Error {
        var response: ServiceResponse
    }

    /// Steps 1–2 of the request flow: route (path normalised, traversal refused), method, body,
    /// credentials per tier (RFC 6750 bearer tokens), partition.
    /// - Parameter resolved: the router's match for `request.target` when the caller already has it
    ///   (``fastHit(_:resolved:)`` resolves a target it sees first); `nil` resolves here.
    ///   A match made under policies a reload has since replaced is resolved again, unless its route is unchanged.
    ///   The request runs under the policy snapshot in force now (read once here): its route, tier and stores.
    func admit(_ request: ServiceRequest, resolved: RouteMatch? = nil) -> Result<RequestContext, Refusal> {
        // The epoch first: a reload swaps the snapshot before it bumps the epoch, so a request that reads the
        // new epoch also reads the new snapshot, and one that reads the old epoch stores nothing.
        let epoch = purgeEpoch.load(ordering: .acquiring)
        let snapshot = hitRoutes.snapshot
        // A query naming exp, sub, kid or sig claims a signature: it is verified before anything else.
        let signatureParameters = SignatureVerifier.parameters(ofSigned: Self.rawQuery(of: request.target))
        var match: RouteMatch
        if let resolved, snapshot.owns(resolved) {
            match = resolved
        } else {
            do {
                match = try snapshot.router.resolve(request.target, configuration: configuration.targetLimits)
            } catch {
                if signatureParameters != nil, error.code != .noRoute {
                    // A path the router refuses is one it would have to change: a signature never covers it.
                    return .failure(Self.signatureRefusal(SignatureRefusal(.malformed, Self.nonCanonicalPath),
                                                          outcome: ServiceOutcome()))
                }
                return .failure(Refusal(response: Responder.problem(error.httpStatus, code: error.code.description,
                                                                    detail: error.context, outcome: ServiceOutcome())))
            }
        }
        guard let route = snapshot.policies.route(named: match.route.name), let runtime = snapshot.runtimes[route.tier] else {
            return .failure(Refusal(response: Responder.problem(404, code: "no-route", detail: "no route matches",
                                                                outcome: ServiceOutcome())))
        }
        let tier = runtime.tier
        let outcome = ServiceOutcome(route: route.name, tier: tier.name)
        let cors = snapshot.cors[route.name]
        if let cors, CORSResponder.isPreflight(request) {
            return .failure(Refusal(response: CORSResponder.preflight(request, cors: cors, outcome: outcome)))
        }
        let isRead = request.method == "GET" || request.method == "HEAD"
        if !isRead && route.methods != .all {
            var response = Responder.problem(405, code: "method-not-allowed",
                                             detail: "route \(route.name) answers GET and HEAD only", outcome: outcome)
            response.fields.set("Allow", "GET, HEAD")
            return .failure(Refusal(response: response))
        }
        if isRead && (!request.body.isEmpty || request.fields.contains("transfer-encoding")
                      || (request.fields["content-length"].map { $0 != "0" } ?? false)) {
            return .failure(Refusal(response: Responder.problem(400, code: "body-not-allowed",
                                                                detail: "a \(request.method) request carries no body",
                                                                outcome: outcome)))
        }
        var signature: VerifiedSignature?
        var signedPartition: String?
        if tier.signedURLs != nil || signatureParameters != nil {
            switch admitSignature(request, parameters: signatureParameters, match: match, tier: tier, snapshot: snapshot,
                                  outcome: outcome) {
            case .failure(let refusal): return .failure(refusal)
            case .success(let admitted?):
                signature = admitted.signature
                match = admitted.match
                signedPartition = admitted.partition
            case .success(nil): break
            }
        }
        var hasCredential = false
        var partition: String?
        if let signature {
            // The subject is the partition (a namespace apart from credentials); the client's credentials are not used.
            hasCredential = true
            partition = signedPartition
        } else {
            switch credentialPartition(request, tier: tier, outcome: outcome) {
            case .failure(let refusal): return .failure(refusal)
            case .success(let found): (hasCredential, partition) = found
            }
        }
        if tier.partition == .credential && hasCredential && partition == nil {
            return .failure(Refusal(response: Responder.problem(503, code: "stopping", detail: "the service is stopping",
                                                                outcome: outcome)))
        }
        let forwardsAuthorization = tier.credentials == .bearerRequired || tier.credentials == .forward
        var originFields: HTTPFields
        if let signature {
            originFields = Self.signedOriginFields(request.fields, route: route, tier: tier, signature: signature,
                                                   secrets: snapshot.secrets)
        } else if tier.validatesImages {
            originFields = HeaderHygiene.originRequestFields(from: request.fields, forwardAuthorization: forwardsAuthorization,
                                                             forwarding: tier.forwardRequestHeaders, carriesBody: !isRead)
            // Only mediactl names a subject: a client's own subject field never reaches the origin.
            if let header = route.subjectHeader { originFields.remove(header) }
        } else {
            originFields = MediaService.passThroughFields(request.fields, forwardAuthorization: forwardsAuthorization)
            if let header = route.subjectHeader { originFields.remove(header) }
        }
        if tier.validatesImages, isRead {
            // The cache answers client conditionals itself (RFC 9111 §4.3.2) and sends its own validators.
            for name in MediaService.clientConditionals { originFields.remove(name) }
            // Validation and storage need the image's own bytes (RFC 9110 §12.5.3): the client's
            // Accept-Encoding is not the cache's; a coding applied anyway is decoded by the transport
            // (OriginRequest.decodesContentCoding), bounded by maxObjectBytes.
            originFields.set("Accept-Encoding", "identity")
        }
        // With cors, mediactl answers CORS itself: the origin never sees Origin (so its answer cannot vary on it).
        if cors != nil { originFields.remove("origin") }
        var upstreamURL = match.upstreamURL
        var variant: VariantSelection?
        if isRead, runtime.variantDeclaration != nil {
            switch selectVariant(match, runtime: runtime, accept: request.fields["accept"]) {
            case .success(let selected?):
                variant = selected.selection
                upstreamURL = selected.sourceURL
            case .success(nil):
                break
            case .failure(let error):
                return .failure(Refusal(response: Responder.problem(400, code: error.code, detail: error.detail,
                                                                    outcome: outcome)))
            }
        }
        var context = RequestContext(
            method: request.method, route: route, runtime: runtime, upstreamURL: upstreamURL,
            isVersioned: tier.isVersioned(query: match.query), clientFields: request.fields, originFields: originFields,
            hasCredential: hasCredential, partition: partition, cachePolicy: request.cachePolicy,
            purgeEpoch: epoch)
        context.variant = variant
        context.interim = Self.interimForwarder(for: request, tier: tier)
        context.signature = signature
        context.cors = cors
        return .success(context)
    }

    /// Credentials per tier (RFC 6750 bearer tokens): whether one reaches the origin, and its partition.
    func credentialPartition(_ request: ServiceRequest, tier: Tier, outcome: ServiceOutcome)
        -> Result<(hasCredential: Bool, partition: String?), Refusal>
    {
        var hasCredential = false
        var partition: String?
        let authorization = request.fields.values(for: "authorization")
        switch tier.credentials {
        case .strip:
            break
        case .refuse:
            // Credentials are `Authorization` and `Cookie` (MediaPolicy `Tier.CredentialPolicy`).
            if !authorization.isEmpty || request.fields.contains("cookie") {
                return .failure(Refusal(response: Responder.problem(
                    400, code: "credentials-refused", detail: "tier \(tier.name) refuses credentials", outcome: outcome)))
            }
        case .bearerRequired:
            let token: BearerToken?
            do {
                token = try BearerToken.from(request.fields)
            } catch {
                var response = Responder.problem(401, code: "invalid-token", detail: error.context, outcome: outcome)
                response.fields.set("WWW-Authenticate", "Bearer error=\"invalid_token\"")
                return .failure(Refusal(response: response))
            }
            guard let token else {
                var response = Responder.problem(401, code: "credentials-required",
                                                 detail: "tier \(tier.name) requires a bearer token", outcome: outcome)
                response.fields.set("WWW-Authenticate", "Bearer")
                return .failure(Refusal(response: response))
            }
            hasCredential = true
            if tier.partition == .credential { partition = try? keyer.partition(for: token).hex }
        case .forward:
            // An empty or blank credential is no credential: it never forms a partition.
            let presented = authorization.filter { value in value.contains { $0 != " " && $0 != "\t" } }
            hasCredential = !presented.isEmpty
            if tier.partition == .credential, hasCredential {
                // A bearer token keys the same partition as on bearer tiers, so a purge by credential
                // (logout) reaches it; other schemes get a keyed digest of the whole value.
                if let token = try? BearerToken.from(request.fields) {
                    partition = try? keyer.partition(for: token).hex
                } else {
                    partition = digest("authorization:" + presented.joined(separator: "\n"))
                }
            }
        }
        return .success((hasCredential, partition))
    }

    /// Conformance mode: the client's fields minus hop-by-hop ones (RFC 9110 §7.6.1: `Connection`, the
    /// fields it names, `Keep-Alive`, `Proxy-Connection`, `TE`, `Trailer`, `Transfer-Encoding`, `Upgrade`),
    /// `Proxy-*`, `Host` (the origin's is sent), `Content-Length` (recomputed from the body) and `Expect`
    /// (met by the service, which reads the whole body first).
    static func passThroughFields(_ client: HTTPFields, forwardAuthorization: Bool) -> HTTPFields {
        let named = Set(client.listValues(for: "connection").map { $0.lowercased() })
        // `Expect`: the service met the expectation itself (it reads the whole body before forwarding).
        let hopByHop = StoredFields.hopByHop.union(["trailer", "host", "content-length", "expect"])
        var out = client
        out.removeAll { name in
            hopByHop.contains(name) || named.contains(name) || name.hasPrefix("proxy-")
                || (!forwardAuthorization && name == "authorization")
        }
        return out
    }

    /// Request fields a cache answers itself instead of forwarding.
    static let clientConditionals = ["if-none-match", "if-modified-since", "if-match", "if-unmodified-since", "if-range", "range"]

    /// Hex HMAC-SHA256 of `value` under the per-process key: secondary keys of sensitive `Vary`
    /// fields and partitions of non-bearer credentials. Never the raw value.
    func digest(_ value: String) -> String {
        guard let code = try? HMACSHA256.authenticationCode(for: value, key: varyKey) else { return "destroyed" }
        return Hex.encode(code)
    }

    /// Hex HMAC-SHA256 (64 lower-case digits) of a request path for the access log of a partitioned or
    /// private tier, under the same per-process key as ``digest(_:)`` with the input
    /// `"mediactl-access-log-path-v1\n" + path` (domain-separated): equal paths give equal digests within
    /// one process, and digests cannot be linked across restarts. `"destroyed"` after ``stop()``.
    public func accessLogPathDigest(_ path: String) -> String {
        digest("mediactl-access-log-path-v1\n" + path)
    }
}
