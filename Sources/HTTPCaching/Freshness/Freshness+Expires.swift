import MediaCore
extension Freshness {
    /// The `Expires` field (§5.3): absent, a valid HTTP-date, or invalid (`0`, `-1`, empty, …),
    /// which means "already expired". Only the first line counts (§4.2.1: first occurrence).
    public enum ExpiresValue: Sendable, Hashable {
        /// No `Expires` field.
        case absent
        /// A valid HTTP-date, seconds since the epoch.
        case date(EpochSeconds)
        /// Present but not a valid HTTP-date: a time in the past.
        case invalid

        /// Reads the first `Expires` line of `fields`.
        public init(_ fields: HTTPFields) {
            guard let line = fields.firstValue(for: .expires) else { self = .absent; return }
            self = HTTPDate.parse(line).map { .date($0) } ?? .invalid
        }
    }
}
