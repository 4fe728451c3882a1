import HTTPCaching
import MediaCore
import MediaCrypto
import MediaTransform

/// Steps 4–5 of the request flow, the stage after ``CacheLookup``: one exchange with the origin. It fetches (the
/// fields ``MediaService/originFields(_:conditional:)`` built: the cache's validators in place of the client's
/// conditionals), then says what came back, as an ``Answer``: a `304` to merge into the stored responses, a response
/// to decide on (validated as an image on image tiers, its metadata stripped where the tier strips), a refusal, or an
/// origin failure.
///
/// It records nothing and stores nothing: ``Forwarding/exchange(_:candidates:conditional:reason:staleOnError:)``
/// audits refusals and hands a fetched response to the storage decision and its commit.
struct OriginExchange: Sendable {
    /// What one exchange came back with.
    enum Answer: Sendable {
        /// A `304` to a validation request (RFC 9111 §4.3.3).
        case notModified(OriginResponse)
        /// A response to decide on and serve.
        case fetched(Fetched)
        /// Refused before storage (over the size limit, a redirect, not an image, not strippable): audited `skip`
        /// with ``Refusal/code``, answered with ``Refusal/status``.
        case refused(Refusal)
        /// An origin status other than `200` on an image tier, with the origin's fields (stored only as a negative
        /// entry where the tier's `errorTTL` allows; a 4xx passes on as a problem).
        case statusRefused(HTTPStatus, HTTPFields)
        /// The origin could not be reached (`status` `nil`) or answered 5xx where a stored response may be served
        /// instead (image tiers, or `staleOnError`): `problem` answers when none is.
        case failed(status: HTTPStatus?, problem: ServiceResponse)
    }

    /// A response as received and as it is served.
    struct Fetched: Sendable {
        /// The origin's answer (its CORS fields dropped where mediactl answers CORS itself).
        var received: OriginResponse
        /// What is decided on, stored and served: ``received``, or its original without metadata.
        var served: OriginResponse
        /// The validated image on image tiers, else `nil`.
        var image: ImageInfo?
        /// The `ETag` of a stripped original (``StoredHead/servedETag``), or `nil`.
        var servedETag: String?
    }

    /// A refusal before storage: its status, its stable code (the `skip` record's reason) and its detail.
    struct Refusal: Error, Sendable {
        var status: HTTPStatus
        var code: String
        var detail: String
        /// The fields of the origin answer refused, `nil` when the exchange gave none (over the size limit, a
        /// redirect): what a negative entry's storage and freshness are judged on.
        var fields: HTTPFields? = nil
        /// The origin's status when its answer was refused (RFC 9211 `fwd-status`), `nil` when none came.
        var originStatus: HTTPStatus? = nil
    }

    var fetcher: any OriginFetching
    /// Seconds since the epoch: the request and response times of RFC 9111 §4.2.3.
    var clock: @Sendable () -> Double
    /// Where each exchange's duration is recorded by route (`mediactl_origin_fetch_duration_seconds`), or `nil`.
    var fetchTimes: OriginFetchTimes? = nil

    /// One exchange for `context`.
    /// - Parameters:
    ///   - fields: the request fields sent to the origin.
    ///   - conditional: the cache's validators when this is a validation, else `nil` (a `304` then is no answer
    ///     to merge: it is decided on like any response).
    ///   - staleOnError: whether a stored response will answer a generic tier's 5xx (RFC 5861 §4): the 5xx is then
    ///     an origin failure, not an answer to pass through.
    /// - Returns: the answer, and the request and response times (seconds since the epoch).
    func run(_ context: RequestContext, fields: HTTPFields, conditional: HTTPFields?, staleOnError: Bool) async
        -> (answer: Answer, requestTime: Double, responseTime: Double)
    {
        let tier = context.tier
        let requestTime = clock()
        var response: OriginResponse
        let started = OriginContact.monotonicMicroseconds()
        defer {
            fetchTimes?.observe(route: context.route.name,
                                seconds: Double(OriginContact.monotonicMicroseconds() - started) / 1_000_000)
        }
        do {
            response = try await OriginContact.measure(\.status) {
                try await fetcher.fetch(OriginRequest(
                    method: "GET", url: context.upstreamURL, fields: fields, timeout: tier.originTimeout,
                    maxBodyBytes: tier.maxObjectBytes, allowsRetry: !context.isGeneric,
                    decodesContentCoding: tier.validatesImages), interim: context.interim)
            }
        } catch let error as OriginError {
            let answer: Answer
            switch error.code {
            case .tooLarge:
                answer = .refused(Refusal(status: 502, code: "over-size-limit",
                                          detail: "the origin's answer exceeds maxObjectBytes (\(tier.maxObjectBytes) bytes)"))
            case .redirectRefused:
                answer = .refused(Refusal(status: 502, code: "redirect-refused",
                                          detail: "the origin redirected; redirects are never followed"))
            default:
                answer = .failed(status: nil, problem: Responder.originFailureProblem(error, tier: tier, outcome: context.outcome))
            }
            return (answer, requestTime, clock())
        } catch {
            let problem = Responder.problem(502, code: "origin-error", detail: "the origin could not be reached",
                                            outcome: context.outcome)
            return (.failed(status: nil, problem: problem), requestTime, clock())
        }
        let responseTime = clock()
        if context.cors != nil { response.fields = CORSResponder.originFieldsWithoutCORS(response.fields) }
        return (answer(response, context: context, conditional: conditional, staleOnError: staleOnError),
                requestTime, responseTime)
    }

    /// What `response` is for `context` (``run(_:fields:conditional:staleOnError:)`` after the fetch).
    func answer(_ response: OriginResponse, context: RequestContext, conditional: HTTPFields?, staleOnError: Bool) -> Answer {
        let tier = context.tier
        if response.status == 304, conditional != nil { return .notModified(response) }
        if (500...599).contains(response.status), !context.isGeneric || staleOnError {
            return .failed(status: response.status,
                           problem: Responder.problem(502, code: "origin-error", detail: "the origin answered \(response.status)",
                                                      outcome: context.outcome))
        }
        var image: ImageInfo?
        if tier.validatesImages {
            guard response.status == 200 else { return .statusRefused(response.status, response.fields) }
            do {
                image = try ImageValidator(configuration: .init(maxPixels: tier.maxPixels, maxBytes: tier.maxObjectBytes))
                    .validate(response.body)
            } catch {
                return .refused(Refusal(status: 502, code: error.code.rawValue,
                                        detail: "the origin's answer was refused: \(error.context)", fields: response.fields,
                                        originStatus: response.status))
            }
            // The tier's `contentTypes` is the allow-list: another format is refused, not served.
            if let format = image?.format.mimeType, !tier.accepts(mediaType: format) {
                return .refused(Refusal(status: 502, code: "not-an-image",
                                        detail: "the origin's answer was refused: \(format) is not one of tier \(tier.name)'s contentTypes",
                                        fields: response.fields, originStatus: response.status))
            }
        }
        var fetched = Fetched(received: response, served: response, image: image, servedETag: nil)
        if tier.metadata == .strip, image != nil {
            switch Self.stripMetadata(context, response) {
            case .success(let stripped):
                fetched.served = stripped.response
                fetched.servedETag = stripped.etag
            case .failure(var refusal):
                refusal.fields = response.fields
                refusal.originStatus = response.status
                return .refused(refusal)
            }
        }
        return .fetched(fetched)
    }
}

extension OriginExchange {
    /// An original whose metadata was removed, and the `ETag` it is served with.
    struct StrippedOriginal: Sendable {
        var response: OriginResponse
        /// A strong tag of the stripped bytes, or `nil` when nothing was removed (the origin's tag stands).
        var etag: String?
    }

    /// `metadata: strip` (docs/variants.md): removes EXIF, XMP, IPTC, comments and text chunks losslessly
    /// (``MediaTransform/MetadataStripper``; the pixel data stays byte-identical, `Orientation` is kept).
    /// The stored response keeps the origin's validators, for revalidation; clients get the stripped bytes'
    /// own `ETag`.
    /// - Returns: the stripped original; a refusal (`502`, audited `skip` by the caller) when the origin sent
    ///   `Cache-Control: no-transform` (`origin-forbids-transform`, RFC 9110 §7.7) or the metadata cannot be
    ///   removed losslessly (`metadata-not-strippable`).
    static func stripMetadata(_ context: RequestContext, _ response: OriginResponse) -> Result<StrippedOriginal, Refusal> {
        if CacheControl(response.fields[.cacheControl] ?? "").noTransform {
            return .failure(Refusal(status: 502, code: "origin-forbids-transform",
                                    detail: "the origin sent Cache-Control: no-transform, and tier \(context.tier.name) serves originals only without their metadata"))
        }
        let stripped: StrippedImage
        do {
            stripped = try MetadataStripper.strip(response.body)
        } catch {
            return .failure(Refusal(status: 502, code: error.code, detail: error.detail))
        }
        guard stripped.bytes != response.body else { return .success(StrippedOriginal(response: response, etag: nil)) }
        var out = response
        out.body = stripped.bytes
        return .success(StrippedOriginal(response: out,
                                         etag: "\"m-" + String(SHA256.hash(stripped.bytes).hex.prefix(32)) + "\""))
    }
}
