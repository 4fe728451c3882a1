import MediaTransform

/// The derived image a request selects: its validated parameters, whether `fmt=auto` chose the format (then every
/// answer carries `Vary: Accept`, RFC 9110 §12.5.5, so downstream caches keep the formats apart), and the client hints
/// its width was chosen from (then every answer carries `Vary` with their names, RFC 8942 §3.2).
struct VariantSelection: Sendable, Hashable {
    var spec: VariantSpec
    var negotiated: Bool
    /// `Sec-CH-Width`, and `Sec-CH-DPR` when the width hint was not usable; empty when the query chose the width.
    var hintFields: [String] = []

    /// Whether the answer depends on request fields beyond the target (`Accept`, client hints): such a variant is
    /// never answered by the synchronous hit path, which knows the target only.
    var dependsOnRequestFields: Bool { negotiated || !hintFields.isEmpty }
}
