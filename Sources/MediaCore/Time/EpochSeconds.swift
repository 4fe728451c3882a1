/// A point in time as whole seconds since 1970-01-01T00:00:00Z (HTTP dates have second precision,
/// RFC 9110 §5.6.7).
public typealias EpochSeconds = Int64
