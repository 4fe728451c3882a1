import HTTPServer
import MediaCore
import MediaServer
import HTTPCaching
import MediaPolicy
import MediaTransform
import MediaService

/// What `mediactl inspect` learned about one origin answer, rendered by ``text``.
struct Inspection {
    /// The fields shown, in this order.
    static let shownFields = ["Cache-Control", "ETag", "Last-Modified", "Expires", "Vary", "Age", "Date"]

    let url: String
    let response: OriginResponse
    let requestTime: EpochSeconds
    let responseTime: EpochSeconds
    let policies: PolicySet?
    let policyNote: String?
    /// Whether the request carried `Authorization` (`inspect --credential-file`): RFC 9111 §3.5 and the
    /// tier's credential rules then apply.
    var hasCredential = false

    /// The route whose origin is a prefix of ``url`` (the longest), and its tier.
    var match: (route: MediaPolicy.Route, tier: Tier)? {
        guard let policies else { return nil }
        let candidates = policies.routes.filter { url.hasPrefix($0.origin) }.sorted { $0.origin.count > $1.origin.count }
        guard let route = candidates.first, let tier = policies.tier(named: route.tier) else { return nil }
        return (route, tier)
    }

    var stored: StoredResponse {
        StoredResponse(status: response.status, fields: response.fields, requestTime: requestTime, responseTime: responseTime)
    }

    var text: String {
        let status = "\(response.status) \(response.status.reasonPhrase)"
        var lines = ["GET \(url)", "status: \(status), \(response.body.count) bytes", ""]
        lines.append("origin cache headers:")
        for name in Self.shownFields {
            lines.append("  " + pad(name + ":") + (response.fields[HTTPFieldName(name)] ?? "-"))
        }
        lines.append("")
        let stored = self.stored
        lines.append("freshness (RFC 9111 §4.2):")
        for role in [HTTPCaching.CacheRole.shared, HTTPCaching.CacheRole.private] {
            let lifetime = Freshness.lifetime(
                status: response.status, fields: response.fields, cacheControl: stored.parsed.cacheControl,
                responseTime: responseTime, role: role, configuration: match?.tier.freshness ?? Freshness.Configuration())
            lines.append("  " + pad("\(role.rawValue) cache:") + "\(lifetime.seconds) s (\(lifetime.source.rawValue))")
        }
        lines.append("  " + pad("current age:") + "\(stored.currentAge(now: responseTime)) s")
        lines.append("")
        lines += decisionLines(stored)
        return lines.joined(separator: "\n") + "\n"
    }

    private func decisionLines(_ stored: StoredResponse) -> [String] {
        var lines: [String] = []
        guard let (route, tier) = match else {
            let why = policyNote ?? "no route's origin is a prefix of the URL"
            lines.append(pad("route:", 18) + "none (\(why))")
            lines.append(pad("decision:", 18) + "- (no tier)")
            return lines
        }
        lines.append(pad("route:", 18) + "\(route.name) (mount \(route.mount), origin \(route.origin))")
        lines.append(
            pad("tier:", 18) + "\(tier.name) (storage \(tier.storage.rawValue), cache \(tier.cache.rawValue), "
                + "credentials \(tier.credentials.rawValue), maxTTL \(tier.maxTTL) s"
                + (tier.defaultTTL.map { ", defaultTTL \($0) s" } ?? "") + (tier.heuristic ? "" : ", heuristic off") + ")")
        var format: String?
        var width: Int?
        var height: Int?
        if tier.validatesImages && response.status != 200 {
            lines.append(pad("body:", 18) + "not validated (status \(response.status))")
            lines.append(pad("decision:", 18) + "none (the service answers \(Self.serviceAnswer(forOriginStatus: response.status)))")
            return lines
        }
        if tier.validatesImages {
            do throws(ImageValidationError) {
                let info = try ImageValidator(configuration: .init(maxPixels: tier.maxPixels)).validate(response.body)
                format = info.format.mimeType
                width = info.width
                height = info.height
                lines.append(pad("body:", 18) + "\(info.format.mimeType) \(info.width)x\(info.height), \(info.byteCount) bytes")
            } catch {
                lines.append(pad("body:", 18) + "refused: \(error.code): \(error.context)")
                lines.append(pad("decision:", 18) + "none (the service answers 502, \(error.code))")
                return lines
            }
        } else {
            lines.append(pad("body:", 18) + "\(response.body.count) bytes (not validated)")
        }
        let role: HTTPCaching.CacheRole = tier.cache == .private ? .private : .shared
        var fields = response.fields
        if let format { fields.set(.contentType, format) }
        let verdict = Storability.evaluate(
            method: "GET", requestFields: hasCredential ? ["Authorization": "Bearer <redacted>"] : HTTPFields(),
            status: response.status, responseFields: fields, role: role, targets: route.targetedCacheControl ?? tier.targetedFields)
        let storability: StorageProposal.Storability
        if let reason = verdict.reason {
            storability = .notStorable(StorageReason(reason.code))
            lines.append(pad("RFC 9111 §3:", 18) + "not storable in a \(role.rawValue) cache (\(reason.code))")
        } else {
            let ttl = Int(stored.remainingFreshness(now: responseTime, role: role, configuration: tier.freshness))
            storability = .storable(ttl: ttl)
            lines.append(pad("RFC 9111 §3:", 18) + "storable in a \(role.rawValue) cache, \(ttl) s of freshness left")
        }
        let query = url.firstIndex(of: "?").map { String(url[url.index(after: $0)...]) }
        let proposal = StorageProposal(
            tier: tier, route: route,
            request: .init(hasCredential: hasCredential, hasVersionParameter: tier.isVersioned(query: query)),
            // As the service proposes it: image tiers drop the origin's cookie before storage.
            response: .init(status: response.status, fields: fields,
                            setsCookie: !tier.validatesImages && StoredFields.filter(fields, role: role).contains(.setCookie)),
            body: .init(byteCount: response.body.count, format: format, pixelWidth: width, pixelHeight: height),
            storability: storability)
        let decision = StorageHookChain().decide(proposal)
        lines.append(
            pad("decision:", 18) + "\(decision.storage.rawValue), ttl \(decision.ttl) s (reason \(decision.reason.rawValue))")
        for step in decision.trail { lines.append("  " + step.description) }
        lines.append(contentsOf: derivedLines(tier, decision: decision, stored: stored, sourceWidth: width))
        return lines
    }

    /// The tier's metadata rule and variants, and where a variant of this response would be kept.
    private func derivedLines(_ tier: Tier, decision: StorageDecision, stored: StoredResponse,
                              sourceWidth: Int?) -> [String] {
        let noTransform = stored.parsed.cacheControl.noTransform
        let varies = MediaService.variesBeyondVariantKey(stored, tier: tier)
        var lines: [String] = []
        if tier.metadata == .strip {
            lines.append(pad("metadata:", 18) + (noTransform
                ? "strip, but the origin sent no-transform: the service answers 502, origin-forbids-transform"
                : "strip (the original is served and stored without EXIF, XMP, IPTC or text; pixels unchanged)"))
        }
        guard let variants = tier.variants else {
            lines.append(pad("variants:", 18) + "none (the query is passed to the origin)")
            return lines
        }
        lines.append(pad("variants:", 18) + PolicyCheckCommand.variantSummary(variants))
        lines.append(pad("", 18) + "?w=N[&h=N][&fit=inside|cover[&gravity=centre|attention|entropy]][&dpr=N][&q=N][&fmt=\(variants.formats.joined(separator: "|"))|auto]; "
                     + (VipsRuntime.canSaveAVIF ? "AVIF available" : "AVIF unavailable here: avif falls back to webp"))
        if let sourceWidth { lines.append(pad("served widths:", 18) + Self.servedWidths(variants, sourceWidth: sourceWidth)) }
        let storage: String
        if noTransform && tier.metadata == .strip {
            storage = "none (the service answers 502, origin-forbids-transform)"
        } else if noTransform {
            storage = "none (no-transform: the original is served instead)"
        } else if varies {
            storage = "none (source-varies: the origin's Vary is not part of a variant's key)"
        } else {
            storage = "\(decision.storage.rawValue) at most, as its source (never wider, same partition, expires with it)"
        }
        lines.append(pad("variant storage:", 18) + storage)
        return lines
    }

    /// The width each declared step is served at for a source `sourceWidth` pixels wide (as stored, before any EXIF
    /// rotation), with `fit=inside`: `72 144 288 576 640 (1152 is wider than the source: 640, never enlarged)`. The
    /// answer names it in `Mediactl-Image-Width`.
    static func servedWidths(_ variants: Tier.Variants, sourceWidth: Int) -> String {
        let served = variants.widths.map { min($0, sourceWidth) }
        var seen: Set<Int> = []
        var text = served.filter { seen.insert($0).inserted }.map(String.init).joined(separator: " ")
        let wider = variants.widths.filter { $0 > sourceWidth }
        if !wider.isEmpty {
            text += " (" + wider.map(String.init).joined(separator: ", ") + (wider.count == 1 ? " is" : " are")
                + " wider than the source: \(sourceWidth), never enlarged)"
        }
        if variants.clientHints { text += "; client hints Sec-CH-Width, Sec-CH-DPR choose the step without dpr" }
        return text
    }

    /// What the service answers an image-tier request whose origin answered `status` (not 200),
    /// as `MediaService` decides it (`exchange`, `refuseOriginStatus`): `"<status>, <problem code>"`.
    static func serviceAnswer(forOriginStatus status: HTTPStatus) -> String {
        switch status {
        case 300...399: return "502, redirect-refused"
        case 400...499: return "\(status), origin-status-\(status)"
        case 500...599: return "502, origin-error"
        default: return "502, origin-status-\(status)"
        }
    }

    /// `label` padded with spaces to `width` columns (at least one space).
    private func pad(_ label: String, _ width: Int = 16) -> String {
        label + String(repeating: " ", count: max(1, width - label.count))
    }
}
