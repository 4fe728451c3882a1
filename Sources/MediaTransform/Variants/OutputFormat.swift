/// An image format a variant can be written in (the values of a tier's `variants.formats`).
///
/// `gif` is never declared: it is written only for an animated GIF source, or an animated source for a client that
/// accepts none of WebP, AVIF and JPEG XL, on a tier with `animation` (``AnimationBudget``).
public enum OutputFormat: String, Sendable, Hashable, CaseIterable, Codable {
    case jpeg, webp, avif, png, jxl, gif

    /// The media type sent as `Content-Type`.
    public var mimeType: String {
        switch self {
        case .jpeg: "image/jpeg"
        case .webp: "image/webp"
        case .avif: "image/avif"
        case .png: "image/png"
        case .jxl: "image/jxl"
        case .gif: "image/gif"
        }
    }
}

/// How a variant's size is fitted to the requested box (`fit` query parameter).
public enum Fit: String, Sendable, Hashable, CaseIterable, Codable {
    /// The whole image, scaled to fit inside the box, aspect ratio kept (the default).
    case inside
    /// Scaled to cover the box, then cropped to it around the centre.
    case cover
}

/// Where a `cover` crop is taken (`gravity` query parameter), as libvips' `interesting` option of `vips_thumbnail`.
public enum Gravity: String, Sendable, Hashable, CaseIterable, Codable {
    /// Around the centre (the default).
    case centre
    /// Around the region most likely to draw the eye: skin tones, saturated colour, edges (libvips `attention`).
    case attention
    /// Around the region of highest Shannon entropy (libvips `entropy`).
    case entropy
}

/// The output format a variant request selects before its source is known: a format, or a rule that the
/// source decides (``VariantSpec/format``).
public enum FormatChoice: Sendable, Hashable {
    /// This format.
    case format(OutputFormat)
    /// No `fmt` parameter: the source's own format when the tier declares it, else as ``legacy``.
    case source
    /// `fmt=auto` with an `Accept` that names neither AVIF nor WebP (or a tier declaring neither): JPEG, or
    /// PNG when the source has an alpha channel (and PNG is declared).
    case legacy
    /// `fmt=auto` where the legacy format ranks first among the formats the client accepts, and the client also
    /// accepts this one (WebP), ranked after it for photos: JPEG for an opaque still, as ``legacy``; this format for a
    /// source with alpha (where the legacy format is PNG, several times larger) and for an animated one kept animated
    /// (where it is GIF).
    case legacyOr(OutputFormat)

    /// The key text: `jpeg`, `webp`, `avif`, `png`, `source`, `legacy`, `legacy-webp`.
    public var keyText: String {
        switch self {
        case .format(let format): format.rawValue
        case .source: "source"
        case .legacy: "legacy"
        case .legacyOr(let format): "legacy-" + format.rawValue
        }
    }
}

/// A variant request after validation against the tier's declaration, in output pixels (`dpr` folded
/// in): what the cache keys a variant on and what the transform is given.
public struct VariantSpec: Sendable, Hashable {
    /// Output width bound in pixels (`w` × `dpr`).
    public var width: Int
    /// Output height bound in pixels (`h` × `dpr`), or `nil` (height follows the aspect ratio).
    public var height: Int?
    /// `inside` or `cover` (`cover` only with a height; without one it is normalised to `inside`).
    public var fit: Fit
    /// Encoder quality 1–100 (the request's `q`, else the tier's `quality`).
    public var quality: Int
    /// The output format rule.
    public var format: FormatChoice
    /// Where a `cover` crop is taken; always `centre` for `inside` (there is no crop to place).
    public var gravity: Gravity
    /// The tier's quality per output format, when the request gave no `q` and the tier declares one per format
    /// (``quality`` is then the quality of formats it does not list); `nil`: ``quality`` for every format.
    public var qualities: [OutputFormat: Int]?
    /// AVIF encoder effort, 0 (fastest) to 9 (the tier's `variants.avifEffort`); not part of the key.
    public var avifEffort: Int = VariantDeclaration.defaultAVIFEffort
    /// `true` for `?info=1` (``info``): the answer is the source's ``SourceInfo`` as JSON, not an image.
    public var isInfo = false
    /// The tier's animation budget: an animated source within it keeps its frames (`fit=inside` only); keyed as
    /// `,anim`, so a tier that starts or stops keeping frames never serves the other kind; `nil`: a still.
    public var animation: AnimationBudget?

    /// The budget within which this variant keeps an animated source's frames: ``animation`` for a `fit=inside`
    /// image (libvips crops a strip of frames as one image, so a `cover` crop is of the first frame); `nil` for
    /// `cover`, ``info`` or a tier without `animation`. ``AnimationStep`` reads it, and the key says `,anim` when set.
    public var frameBudget: AnimationBudget? { fit == .inside && !isInfo ? animation : nil }

    /// `?info=1`: the source's ``SourceInfo``, its thumbnail decoded into a ``ThumbHash/maxSide`` box; keyed `info=1`
    /// (``SourceInfo/version``).
    public static var info: VariantSpec {
        var spec = VariantSpec(width: ThumbHash.maxSide, height: ThumbHash.maxSide, quality: 100, format: .source)
        spec.isInfo = true
        return spec
    }

    public init(width: Int, height: Int? = nil, fit: Fit = .inside, quality: Int, format: FormatChoice,
                gravity: Gravity = .centre) {
        self.width = width
        self.height = height
        self.fit = height == nil ? .inside : fit
        self.quality = quality
        self.format = format
        self.gravity = self.fit == .cover ? gravity : .centre
    }

    /// The normalised parameters with the format rule, for cache keys: `w=144,fit=inside,fmt=source,q=80`,
    /// `w=288,h=288,fit=cover,fmt=webp,q=80`, `w=144,fit=inside,fmt=png` (no `q`: PNG is lossless).
    public var keyText: String {
        if isInfo { return Self.infoText }
        return text(format: format.keyText) + (frameBudget != nil ? ",anim" : "")
    }

    /// The key and audit `transform` text of ``info``: `info=1`.
    public static var infoText: String { "info=\(SourceInfo.version)" }

    /// The normalised parameters once the output format is known, as audit records carry them
    /// (`transform`): `w=144,fit=inside,fmt=jpeg,q=80`.
    public func normalised(format resolved: OutputFormat) -> String {
        isInfo ? Self.infoText : text(format: resolved.rawValue)
    }

    /// The encoder quality for `format`: its entry in ``qualities``, else ``quality``.
    public func quality(for format: OutputFormat) -> Int { qualities?[format] ?? quality }

    /// The quality part of a key for the format text `format`: the format's quality when it is a format; for a rule
    /// (`source`, `legacy`) with per-format qualities, each listed one (`jpeg80/webp79/avif63/jxl77`), since the
    /// format is known only once the source is.
    private func qualityText(format: String) -> String {
        if let named = OutputFormat(rawValue: format) { return String(quality(for: named)) }
        guard let qualities else { return String(quality) }
        return OutputFormat.allCases.compactMap { own in qualities[own].map { own.rawValue + String($0) } }
            .joined(separator: "/") + "/other\(quality)"
    }

    /// `q` is left out for PNG, which is lossless, and GIF (palettised, no quality setting): every `q` gives the same bytes, so one key. `gravity` only when
    /// not `centre` (the default), so a `cover` crop's key is what it was before `gravity` existed.
    private func text(format: String) -> String {
        var out = "w=\(width)"
        if let height { out += ",h=\(height)" }
        out += ",fit=\(fit.rawValue)"
        if gravity != .centre { out += ",gravity=\(gravity.rawValue)" }
        out += ",fmt=\(format)"
        if format != OutputFormat.png.rawValue && format != OutputFormat.gif.rawValue {
            out += ",q=" + qualityText(format: format)
        }
        return out
    }
}
