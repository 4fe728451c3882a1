import HTTPCaching
import MediaCore
import MediaPolicy
import MediaSigning
import MediaTransform

/// Steps 1–2 of the request flow, the pipeline's first stage: a request becomes a ``RequestContext`` (route,
/// tier, origin fields, partition, derived image selected) or a ``Refusal`` with its problem response.
///
/// A value over its inputs: the policy snapshot and purge epoch read once when the request arrives, the clock, the
/// target limits and the per-process keys (``RequestKeys``). It touches no store and no origin, so every refusal
/// is decided before anything is read or fetched. It runs once per request: the synchronous path hands what it
/// admitted to the async path (``AdmittedRequest``).
struct Admission: Sendable {
    /// A request refused before any lookup, with its problem response.
    struct Refusal: Error {
        var response: ServiceResponse
    }

    /// The policies in force: routes, runtimes (tiers and stores), CORS, signing secrets, verified signatures.
    var snapshot: PolicySnapshot
    /// ``MediaService/purgeEpoch`` when the request arrived.
    var epoch: Int
    /// Seconds since the epoch (signature expiry).
    var clock: @Sendable () -> Double
    /// Bounds on the request target (``RequestTarget/Configuration``).
    var limits: RequestTarget.Configuration
    /// Partition digests and keyed digests.
    var keys: any RequestKeys

    /// Route (path normalised, traversal refused), method, body, signature, credentials per tier (RFC 6750 bearer
    /// tokens), partition, origin fields, derived-image selection.
    /// - Parameter resolved: the router's match for `request.target` when the caller already has it
    ///   (``HitPath/answer(_:resolved:readsFiles:)`` resolves a target it sees first); `nil` resolves here.
    ///   A match made under policies a reload has since replaced is resolved again, unless its route is unchanged.
    /// - Parameter knownPartition: the partition of the request's bearer token when the hit path computed it already
    ///   (the same keyed digest ``credentialPartition(_:tier:outcome:known:)`` computes); `nil` computes it here.
    func admit(_ request: ServiceRequest, resolved: RouteMatch? = nil, knownPartition: String? = nil)
        -> Result<RequestContext, Refusal>
    {
        // A query naming exp, sub, kid or sig claims a signature: it is verified before anything else.
        let signatureParameters = SignatureVerifier.parameters(ofSigned: Self.rawQuery(of: request.target))
        var match: RouteMatch
        if let resolved, snapshot.owns(resolved) {
            match = resolved
        } else {
            do {
                match = try snapshot.router.resolve(request.target, configuration: limits)
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
        let isRead = request.method.isRead
        if !isRead && route.methods != .all {
            var response = Responder.problem(405, code: "method-not-allowed",
                                             detail: "route \(route.name) answers GET and HEAD only", outcome: outcome)
            response.fields.set(.allow, "GET, HEAD")
            return .failure(Refusal(response: response))
        }
        if isRead && (!request.body.isEmpty || request.fields.contains(.transferEncoding)
                      || (request.fields[.contentLength].map { $0 != "0" } ?? false)) {
            return .failure(Refusal(response: Responder.problem(400, code: "body-not-allowed",
                                                                detail: "a \(request.method) request carries no body",
                                                                outcome: outcome)))
        }
        var signature: VerifiedSignature?
        var signedPartition: String?
        if tier.signedURLs != nil || signatureParameters != nil {
            switch admitSignature(request, parameters: signatureParameters, match: match, tier: tier, outcome: outcome) {
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
        if signature != nil {
            // The subject is the partition (a namespace apart from credentials); the client's credentials are not used.
            hasCredential = true
            partition = signedPartition
        } else {
            switch credentialPartition(request, tier: tier, outcome: outcome, known: knownPartition) {
            case .failure(let refusal): return .failure(refusal)
            case .success(let found): (hasCredential, partition) = found
            }
        }
        if tier.partition == .credential && hasCredential && partition == nil {
            return .failure(Refusal(response: Responder.problem(503, code: "stopping", detail: "the service is stopping",
                                                                outcome: outcome)))
        }
        let originFields = Self.originFields(for: request, route: route, tier: tier, signature: signature,
                                             secrets: snapshot.secrets, hasCORS: cors != nil)
        // Tracking and cache-busting parameters the tier ignores are neither keyed nor fetched, and a variant's
        // parameters are split from its source's URL: one keying with purges (TargetKeying). A signature covers the
        // query as sent: it was verified first.
        let keying: TargetKeying
        let hints = runtime.variantDeclaration?.clientHints == true
            ? ClientHints(dpr: request.fields[HTTPFieldName(ClientHints.dprField)],
                          width: request.fields[HTTPFieldName(ClientHints.widthField)])
            : nil
        switch TargetKeying.key(match, runtime: runtime, selectsVariant: isRead, accept: request.fields[.accept],
                                hints: hints) {
        case .success(let keyed): keying = keyed
        case .failure(let error):
            return .failure(Refusal(response: Responder.problem(400, code: error.code, detail: error.detail,
                                                                outcome: outcome)))
        }
        match = keying.match
        var context = RequestContext(
            method: request.method, route: route, runtime: runtime, upstreamURL: keying.sourceURL,
            isVersioned: tier.isVersioned(query: match.query), clientFields: request.fields, originFields: originFields,
            hasCredential: hasCredential, partition: partition, cachePolicy: request.cachePolicy,
            purgeEpoch: epoch)
        context.variant = keying.variant
        context.interim = Self.interimForwarder(for: request, tier: tier)
        context.signature = signature
        context.cors = cors
        context.requestID = request.requestID
        return .success(context)
    }

    /// The fields of the origin request made for `request` (and the fields a stored response's secondary key is matched
    /// against, RFC 9111 §4.1): a signed request's (``signedOriginFields(_:route:tier:signature:secrets:)``), else the
    /// client's after ``HeaderHygiene`` (credentials forwarded only where the tier says so); for an image tier's read,
    /// without client conditionals and with `Accept-Encoding: identity`; without `Origin` where mediactl answers CORS.
    static func originFields(for request: ServiceRequest, route: MediaPolicy.Route, tier: Tier, signature: VerifiedSignature?,
                             secrets: PolicySecrets, hasCORS: Bool) -> HTTPFields {
        let isRead = request.method.isRead
        let forwardsAuthorization = tier.credentials == .bearerRequired || tier.credentials == .forward
        var originFields: HTTPFields
        if let signature {
            originFields = Self.signedOriginFields(request.fields, route: route, tier: tier, signature: signature,
                                                   secrets: secrets)
        } else if tier.validatesImages {
            originFields = HeaderHygiene.originRequestFields(from: request.fields, forwardAuthorization: forwardsAuthorization,
                                                             forwarding: tier.forwardRequestHeaders, carriesBody: !isRead)
            // Only mediactl names a subject: a client's own subject field never reaches the origin.
            if let header = route.subjectHeader { originFields.remove(HTTPFieldName(header)) }
        } else {
            originFields = Self.passThroughFields(request.fields, forwardAuthorization: forwardsAuthorization)
            if let header = route.subjectHeader { originFields.remove(HTTPFieldName(header)) }
        }
        if tier.validatesImages, isRead {
            // The cache answers client conditionals itself (RFC 9111 §4.3.2) and sends its own validators.
            for name in RequestContext.clientConditionals { originFields.remove(name) }
            // Validation and storage need the image's own bytes (RFC 9110 §12.5.3): the client's
            // Accept-Encoding is not the cache's; a coding applied anyway is decoded by the transport
            // (OriginRequest.decodesContentCoding), bounded by maxObjectBytes.
            originFields.set(.acceptEncoding, "identity")
        }
        // With cors, mediactl answers CORS itself: the origin never sees Origin (so its answer cannot vary on it).
        if hasCORS { originFields.remove(.origin) }
        return originFields
    }

    /// The handler that forwards the interim responses of a request's own origin exchange to its client
    /// (RFC 9110 §15.2), or `nil`:
    /// - only on generic tiers (conformance mode, `contentTypes: ["*/*"]`) with `forwardInterim: true` (off by
    ///   default: a front such as nginx before 1.29 takes a `103` for the final answer and loses the real one);
    ///   image tiers forward none (a BFF client expects the final image or problem only, and an image origin's
    ///   `Link` hints name the origin's URLs, not the cache's);
    /// - only `102`–`199`: `100 Continue` answers an expectation the service met itself (it reads the whole
    ///   request body first and never forwards `Expect`), and `101` never reaches it;
    /// - never stored: the interim response goes to the client as the origin sent it (hop-by-hop fields
    ///   removed by the transport) and takes no part in storage, `Cache-Status` or the final response.
    static func interimForwarder(for request: ServiceRequest, tier: Tier) -> OriginInterimResponse.Handler? {
        guard !tier.validatesImages, tier.forwardInterim, let forward = request.interimResponses else { return nil }
        return { response in
            guard (102...199).contains(response.status) else { return }
            forward(response)
        }
    }
}
