import HTTPCaching
import MediaCrypto
import MediaTransform

extension MediaService {
    /// An original whose metadata was removed, and the `ETag` it is served with.
    struct StrippedOriginal: Sendable {
        var response: OriginResponse
        /// A strong tag of the stripped bytes, or `nil` when nothing was removed (the origin's tag stands).
        var etag: String?
    }

    /// Why an original could not be served from a tier with `metadata: strip`.
    struct StripRefusal: Error {
        var exchange: Exchange
    }

    /// `metadata: strip` (docs/variants.md): removes EXIF, XMP, IPTC, comments and text chunks losslessly
    /// (``MediaTransform/MetadataStripper``; the pixel data stays byte-identical, `Orientation` is kept).
    /// The stored response keeps the origin's validators, for revalidation; clients get the stripped bytes'
    /// own `ETag`.
    /// - Returns: the stripped original; a refusal (`502`, audited `skip`) when the origin sent
    ///   `Cache-Control: no-transform` (`origin-forbids-transform`, RFC 9110 §7.7) or the metadata cannot be
    ///   removed losslessly (`metadata-not-strippable`).
    func stripMetadata(_ context: RequestContext, _ response: OriginResponse) -> Result<StrippedOriginal, StripRefusal> {
        if CacheControl(response.fields["cache-control"] ?? "").noTransform {
            return .failure(StripRefusal(exchange: refuse(
                context, status: 502, code: "origin-forbids-transform",
                detail: "the origin sent Cache-Control: no-transform, and tier \(context.tier.name) serves originals only without their metadata")))
        }
        let stripped: StrippedImage
        do {
            stripped = try MetadataStripper.strip(response.body)
        } catch {
            return .failure(StripRefusal(exchange: refuse(context, status: 502, code: error.code, detail: error.detail)))
        }
        guard stripped.bytes != response.body else { return .success(StrippedOriginal(response: response, etag: nil)) }
        var out = response
        out.body = stripped.bytes
        return .success(StrippedOriginal(response: out,
                                         etag: "\"m-" + String(SHA256.hash(stripped.bytes).hex.prefix(32)) + "\""))
    }
}
