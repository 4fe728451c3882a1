#if canImport(Glibc)
    import Glibc
#endif

/// The bytes an access-log line is queued as: the answering thread copies the numbers and the UTF-8 of the
/// strings of one request straight into the queue's raw buffer (``AccessLogBuffer``), so no Swift string (and no
/// reference count) is shared with the writer thread: the strings the service shares between requests (route
/// and tier names, the prepared `Cache-Status` text of a hit) are never retained or released by another core,
/// and the request's target is freed on the thread that allocated it.
///
/// Layout (native byte order, never stored): 7 × `Int64` (milliseconds, id, status, bytes, duration, origin
/// status or −1, origin microseconds or −1), then 8 strings (method, target, route, tier, cache status, variant,
/// partition, request id), each a `UInt32` length (`UInt32.max`: `nil`) and its UTF-8 bytes.
enum AccessLogRecordCodec {
    /// The fields of one line, borrowed from the request and the service's outcome.
    struct Fields {
        var milliseconds: Int64
        var status: Int
        var bytes: Int
        var durationMicroseconds: Int64
        var originStatus: Int?
        var originMicroseconds: Int64?
    }

    /// Bytes ``encode(_:id:strings:into:)`` writes.
    @inline(__always)
    static func size(_ strings: (String?, String?, String?, String?, String?, String?, String?, String?)) -> Int {
        @inline(__always) func length(_ text: String?) -> Int { 4 + (text?.utf8.count ?? 0) }
        return 56 + length(strings.0) + length(strings.1) + length(strings.2) + length(strings.3) + length(strings.4)
            + length(strings.5) + length(strings.6) + length(strings.7)
    }

    /// Writes one record at `out` (which has ``size(_:)`` bytes of room); `strings` are method, target, route,
    /// tier, cache status, variant, partition, request id.
    static func encode(_ fields: Fields, id: UInt64, strings: (String?, String?, String?, String?, String?, String?, String?, String?),
                       into out: UnsafeMutableRawPointer) {
        var cursor = out
        @inline(__always) func integer(_ value: Int64) {
            cursor.storeBytes(of: value, as: Int64.self)
            cursor += 8
        }
        @inline(__always) func string(_ text: String?) {
            guard let text else {
                cursor.storeBytes(of: UInt32.max, as: UInt32.self)
                cursor += 4
                return
            }
            let count = text.utf8.count
            cursor.storeBytes(of: UInt32(truncatingIfNeeded: count), as: UInt32.self)
            cursor += 4
            let target = cursor
            func copy(_ bytes: UnsafeBufferPointer<UInt8>) {
                if let source = bytes.baseAddress, count > 0 { _ = memcpy(target, source, count) }
            }
            if text.utf8.withContiguousStorageIfAvailable(copy) == nil {
                var text = text
                text.withUTF8(copy)
            }
            cursor += count
        }
        integer(fields.milliseconds)
        integer(Int64(truncatingIfNeeded: id))
        integer(Int64(fields.status))
        integer(Int64(fields.bytes))
        integer(fields.durationMicroseconds)
        integer(fields.originStatus.map(Int64.init) ?? -1)
        integer(fields.originMicroseconds ?? -1)
        string(strings.0)
        string(strings.1)
        string(strings.2)
        string(strings.3)
        string(strings.4)
        string(strings.5)
        string(strings.6)
        string(strings.7)
    }

    /// One queued record, read in place: its strings are views of the queue's bytes, valid during the call.
    struct Record {
        var milliseconds: Int64, id: Int64, status: Int64, bytes: Int64, durationMicroseconds: Int64
        /// −1 when none.
        var originStatus: Int64, originMicroseconds: Int64
        var method: UnsafeBufferPointer<UInt8>?, target: UnsafeBufferPointer<UInt8>?, route: UnsafeBufferPointer<UInt8>?
        var tier: UnsafeBufferPointer<UInt8>?, cacheStatus: UnsafeBufferPointer<UInt8>?
        var variant: UnsafeBufferPointer<UInt8>?, partition: UnsafeBufferPointer<UInt8>?
        /// The request id (``MediaService/RequestID``), or `nil`.
        var requestID: UnsafeBufferPointer<UInt8>?
    }

    /// Calls `body` with every record in `bytes`, in order (no string is built).
    static func forEach(in bytes: UnsafeRawBufferPointer, _ body: (Record) -> Void) {
        guard let base = bytes.baseAddress else { return }
        var offset = 0
        func integer() -> Int64 {
            let value = bytes.loadUnaligned(fromByteOffset: offset, as: Int64.self)
            offset += 8
            return value
        }
        func string() -> UnsafeBufferPointer<UInt8>? {
            let count = bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
            offset += 4
            guard count != UInt32.max else { return nil }
            let text = UnsafeBufferPointer(start: (base + offset).assumingMemoryBound(to: UInt8.self), count: Int(count))
            offset += Int(count)
            return text
        }
        while offset < bytes.count {
            let milliseconds = integer(), id = integer(), status = integer(), size = integer(), duration = integer()
            let originStatus = integer(), originMicroseconds = integer()
            let method = string(), target = string(), route = string(), tier = string(), cacheStatus = string()
            let variant = string(), partition = string(), requestID = string()
            body(Record(milliseconds: milliseconds, id: id, status: status, bytes: size, durationMicroseconds: duration,
                        originStatus: originStatus, originMicroseconds: originMicroseconds, method: method, target: target,
                        route: route, tier: tier, cacheStatus: cacheStatus, variant: variant, partition: partition,
                        requestID: requestID))
        }
    }
}

/// A fixed raw byte buffer of queued records, owned by ``AccessLog``: the queue's buffer is only touched under
/// the queue lock, the spare one only under the output lock, and they change places under both, hence the
/// unchecked `Sendable`.
final class AccessLogBuffer: @unchecked Sendable {
    let base: UnsafeMutableRawPointer
    let capacity: Int
    var used = 0
    var count = 0

    init(capacity: Int) {
        self.capacity = capacity
        base = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 8)
    }

    deinit { base.deallocate() }

    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: used) }

    func reset() {
        used = 0
        count = 0
    }
}
