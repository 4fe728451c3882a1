/// The query parameters that select a variant, in the order error texts list them.
enum VariantParameter: String, Sendable, CaseIterable {
    case w, h, fit, dpr, q, fmt, gravity, profile, info

    /// The parameter whose name is exactly `name` (case-sensitive, never percent-decoded).
    init?(name: ArraySlice<UInt8>) {
        guard name.count <= 7, let found = VariantParameter(rawValue: String(decoding: name, as: UTF8.self)) else {
            return nil
        }
        self = found
    }
}
