/// Writes a record's canonical JSON through a pointer into memory its caller sized beforehand
/// (``AuditRecord/appendCanonical(seq:time:entry:prev:to:reservingHash:)``): one copy per field, no capacity or
/// uniqueness check per append, and the line is appended to its buffer once.
struct CanonicalWriter {
    /// Bytes a record's JSON can take besides its strings' bytes: every key and punctuation, five numbers of at most
    /// 20 digits, two times of at most 32 bytes and the `hash` field (74).
    static let boundBesidesStrings = 640

    private(set) var next: UnsafeMutablePointer<UInt8>

    init(_ start: UnsafeMutablePointer<UInt8>) { next = start }

    /// A literal's UTF-8 bytes.
    @inline(__always)
    mutating func literal(_ text: StaticString) {
        next.update(from: text.utf8Start, count: text.utf8CodeUnitCount)
        next += text.utf8CodeUnitCount
    }

    @inline(__always)
    mutating func byte(_ value: UInt8) {
        next.pointee = value
        next += 1
    }

    /// `count` zero bytes (a gap the caller fills).
    mutating func gap(_ count: Int) {
        next.update(repeating: 0, count: count)
        next += count
    }

    /// The string's bytes, unquoted.
    mutating func raw(_ value: String) {
        var text = value
        text.withUTF8 { bytes in
            next.update(from: bytes.baseAddress!, count: bytes.count)
            next += bytes.count
        }
    }

    /// `"value"`, or `null`.
    mutating func string(_ value: String?) {
        guard let value else { return literal("null") }
        byte(UInt8(ascii: "\""))
        raw(value)
        byte(UInt8(ascii: "\""))
    }

    /// A member: `name` (the key with its quotes, colon and leading comma, e.g. `,"key":`), then `value` as
    /// ``string(_:)`` writes it (`null` when absent).
    @inline(__always)
    mutating func member(_ name: StaticString, _ value: String?) {
        literal(name)
        string(value)
    }

    /// A member present only when `value` is set (an optional field, omitted rather than `null`).
    @inline(__always)
    mutating func optionalMember(_ name: StaticString, _ value: String?) {
        if let value { member(name, value) }
    }

    /// A member whose value is ``number(_:)``'s (`null` when absent).
    @inline(__always)
    mutating func member(_ name: StaticString, _ value: Int?) {
        literal(name)
        number(value)
    }

    /// Decimal like `String(value)` (digits without leading zeros, `-` for a negative value), or `null`.
    mutating func number(_ value: Int?) {
        guard let value else { return literal("null") }
        if value < 0 { return raw(String(value)) }
        decimal(UInt64(value), digits: 1)
    }

    /// `value` in decimal, left-padded with zeros to `digits`.
    mutating func decimal(_ value: UInt64, digits: Int) {
        var count = 1
        var rest = value / 10
        while rest > 0 { count += 1; rest /= 10 }
        count = max(count, digits)
        rest = value
        for index in stride(from: count - 1, through: 0, by: -1) {
            next[index] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
        }
        next += count
    }

    /// Two decimal digits of `value` (0–99).
    @inline(__always)
    private mutating func two(_ value: Int64) {
        next[0] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: value / 10)
        next[1] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: value % 10)
        next += 2
    }

    /// ``AuditTime/rfc3339``'s bytes (years 0–9999 without building a `String`).
    mutating func time(_ time: AuditTime) {
        let f = time.fields
        guard (0...9999).contains(f.year) else { return raw(time.rfc3339) }
        two(f.year / 100)
        two(f.year % 100)
        byte(UInt8(ascii: "-"))
        two(f.month)
        byte(UInt8(ascii: "-"))
        two(f.day)
        byte(UInt8(ascii: "T"))
        two(f.hour)
        byte(UInt8(ascii: ":"))
        two(f.minute)
        byte(UInt8(ascii: ":"))
        two(f.second)
        byte(UInt8(ascii: "."))
        byte(UInt8(ascii: "0") + UInt8(f.millis / 100))
        two(f.millis % 100)
        byte(UInt8(ascii: "Z"))
    }
}
