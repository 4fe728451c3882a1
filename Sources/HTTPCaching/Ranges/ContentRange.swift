/// `Content-Range` field values for `bytes` (RFC 9110 §14.4).
public enum ContentRange {
    /// `bytes <first>-<last>/<complete-length>` for a `206` carrying `range` of a representation of
    /// `completeLength` bytes, e.g. `bytes 0-99/1000`.
    public static func value(_ range: ByteRange, completeLength: Int) -> String {
        "bytes \(range.first)-\(range.last)/\(completeLength)"
    }

    /// `bytes */<complete-length>` (unsatisfied-range) for a `416` about a representation of
    /// `completeLength` bytes, e.g. `bytes */1000` (RFC 9110 §15.5.17).
    public static func unsatisfied(completeLength: Int) -> String {
        "bytes */\(completeLength)"
    }
}
