import MediaCore
/// The `If-Range` precondition (RFC 9110 §13.1.5): whether a `Range` request may be answered with part of
/// the selected representation, or must get all of it.
public enum IfRange {
    /// Whether the `Range` field applies, given the request's `If-Range` value and the selected (stored)
    /// representation's validators (RFC 9110 §13.1.5, evaluated as a cache compares a validator with its
    /// stored entry, §8.8.2.2):
    ///
    /// - no `If-Range` (`value` `nil`): `true`;
    /// - an entity tag: `true` only when it and `entityTag` are both strong and their opaque tags are equal
    ///   (strong comparison, §8.8.3.2); a weak tag, or a representation without `ETag`, never matches;
    /// - an HTTP-date: `true` only when it is the same instant as `lastModified` and that `Last-Modified` is
    ///   a strong validator, i.e. `date` (the stored `Date`, or the time the response was received when it
    ///   had none) is at least one second after it (§8.8.2.2);
    /// - anything else (a malformed value): `false`.
    ///
    /// When this is `false` the whole representation is sent (`200`), never a `416`.
    /// - Parameters:
    ///   - value: the request's combined `If-Range` field value, or `nil` when absent.
    ///   - entityTag: the representation's `ETag` (as served), or `nil`.
    ///   - lastModified: its `Last-Modified` in seconds since the epoch, or `nil`.
    ///   - date: its `Date` in seconds since the epoch, or `nil`.
    public static func permitsRange(_ value: String?, entityTag: EntityTag?, lastModified: EpochSeconds?,
                                    date: EpochSeconds?) -> Bool {
        guard let value else { return true }
        let text = HTTPFieldList.trimOWS(value[...])
        if text.hasPrefix("\"") || text.hasPrefix("W/") {
            guard let presented = EntityTag(text), let entityTag else { return false }
            return presented.strongMatches(entityTag)
        }
        guard let presented = HTTPDate.parse(String(text)), let lastModified, let date else { return false }
        return presented == lastModified && date >= lastModified + 1
    }
}
