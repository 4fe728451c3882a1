import HTTPCaching
import MediaCrypto
import MediaTransform

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
