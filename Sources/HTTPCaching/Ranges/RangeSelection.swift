import MediaCore
/// How a request with `Range` is answered from a complete representation (RFC 9110 §14.2, §13.1.5, §15.3.7,
/// §15.5.17).
public enum RangeSelection: Sendable, Hashable {
    /// The whole representation with its own status: no `Range`, a `Range` to ignore (not `GET`, status not
    /// `200`, invalid or another unit, `If-Range` not matching), several satisfiable ranges (this module
    /// never builds `multipart/byteranges`; §14.2 lets a server ignore `Range`), or the empty suffix of an
    /// empty representation.
    case full
    /// `206 Partial Content` carrying exactly this range, with `Content-Range: bytes first-last/length`.
    case partial(ByteRange)
    /// `416 Range Not Satisfiable` with `Content-Range: bytes */length`: no range-spec is satisfiable.
    case unsatisfiable

    /// The answer to a `method` request whose `Range` and `If-Range` field values are `range` and `ifRange`
    /// (combined values, `nil` when absent), for a complete representation of `length` bytes with status
    /// `status` and the given validators (see ``IfRange/permitsRange(_:entityTag:lastModified:date:)``).
    ///
    /// Only a `GET` of a `200` uses `Range` (RFC 9110 §14.2: `HEAD` and other methods ignore it; other
    /// statuses are not a representation to take a part of). `If-Range` is evaluated before the range,
    /// so a mismatch sends the whole representation even when the range could not be satisfied.
    /// - Complexity: O(1) without `range`; otherwise linear in the field values.
    public static func evaluate(method: HTTPMethod, range: String?, ifRange: String?, status: HTTPStatus, length: Int,
                                entityTag: EntityTag?, lastModified: EpochSeconds?, date: EpochSeconds?) -> RangeSelection {
        guard let range, method == .get, status == 200, let request = ByteRangeRequest(range) else { return .full }
        guard IfRange.permitsRange(ifRange, entityTag: entityTag, lastModified: lastModified, date: date) else { return .full }
        switch request.resolve(length: length) {
        case .unsatisfiable: return .unsatisfiable
        case .satisfiable(let ranges): return ranges.count == 1 ? .partial(ranges[0]) : .full
        }
    }

    /// ``evaluate(method:range:ifRange:status:length:entityTag:lastModified:date:)`` for a request's fields and a
    /// stored response: its status and `ETag`, `Last-Modified` and `Date` (the time it was received when it has
    /// no `Date`, RFC 9110 §6.6.1). Reads `Range` first and nothing else when it is absent.
    public static func evaluate(method: HTTPMethod, requestFields: HTTPFields, response: StoredResponse,
                                length: Int) -> RangeSelection {
        guard let range = requestFields[.range] else { return .full }
        return evaluate(method: method, range: range, ifRange: requestFields[.ifRange], status: response.status,
                        length: length, entityTag: response.parsed.entityTag, lastModified: response.parsed.lastModified,
                        date: response.parsed.date ?? response.responseTime)
    }
}
