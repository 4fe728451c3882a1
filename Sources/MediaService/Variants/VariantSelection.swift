import MediaTransform

/// The derived image a request selects: its validated parameters and whether `fmt=auto` chose the format
/// (then every answer carries `Vary: Accept`, RFC 9110 §12.5.5, so downstream caches keep the formats apart).
struct VariantSelection: Sendable, Hashable {
    var spec: VariantSpec
    var negotiated: Bool
}
