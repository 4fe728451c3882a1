/// An ordered list of HTTP field lines (RFC 9110 §5): names are case-preserving and compared
/// case-insensitively, repeated lines are kept in order, and ``subscript(_:)`` gives the combined
/// field value (the lines joined with ", ", RFC 9110 §5.3).
///
/// `Set-Cookie` must not be combined (RFC 9110 §5.3); use ``values(for:)`` for it.
///
/// Names are ``HTTPFieldName``s: `fields[.cacheControl]`, or a string literal for a name without a static member.
/// The server's parser, the RFC 9111 core, the service and the curl transport all hold fields in this one type.
public struct HTTPFields: Sendable, Hashable, RandomAccessCollection, ExpressibleByDictionaryLiteral,
    ExpressibleByArrayLiteral, CustomStringConvertible
{
    /// One field line.
    public struct Field: Sendable, Hashable {
        /// The name as received, case preserved.
        public var name: String
        /// The field line value, leading and trailing whitespace removed.
        public var value: String

        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }

        /// A line named `name`; `value` is kept as given (not trimmed).
        public init(_ name: HTTPFieldName, _ value: String) {
            self.name = name.rawName
            self.value = value
        }

        /// The line's name as an ``HTTPFieldName``.
        public var fieldName: HTTPFieldName { HTTPFieldName(name) }
    }

    /// The field lines, in order.
    public private(set) var fields: [Field]

    /// Creates fields from `(name, value)` pairs, in order.
    public init(_ pairs: [(String, String)] = []) {
        fields = pairs.map { Field(name: $0.0, value: HTTPFields.trim($0.1)) }
    }

    /// Creates fields from field lines whose values are already trimmed (as ``fields`` of another
    /// `HTTPFields` are), in order, without re-trimming: for callers that assemble prepared lines.
    public init(lines: [Field]) {
        fields = lines
    }

    public init(dictionaryLiteral elements: (HTTPFieldName, String)...) {
        self.init(named: elements)
    }

    /// `[(.contentType, "image/png"), ("X-Custom", "1")]`: lines in order, values trimmed.
    public init(arrayLiteral elements: (HTTPFieldName, String)...) {
        self.init(named: elements)
    }

    /// Lines from `(name, value)` pairs, in order, values trimmed.
    private init(named pairs: [(HTTPFieldName, String)]) {
        fields = pairs.map { Field(name: $0.0.rawName, value: HTTPFields.trim($0.1)) }
    }

    /// Reserves room for `count` field lines (no effect on the lines; avoids regrowth while appending).
    public mutating func reserveCapacity(_ count: Int) {
        fields.reserveCapacity(count)
    }

    /// The number of field lines.
    public var count: Int { fields.count }
    public var isEmpty: Bool { fields.isEmpty }
    public var startIndex: Int { 0 }
    public var endIndex: Int { fields.count }
    /// The line at `position`, in order of arrival or insertion.
    public subscript(position: Int) -> Field { fields[position] }

    public func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }

    /// The combined value of every line named `name` (joined with ", "), or `nil` when absent.
    public subscript(name: HTTPFieldName) -> String? {
        var result: String?
        for field in fields where HTTPFields.namesEqual(field.name, name.rawName) {
            if let existing = result { result = existing + ", " + field.value } else { result = field.value }
        }
        return result
    }

    /// The value of each line named `name`, in order. Empty when absent.
    public func values(for name: HTTPFieldName) -> [String] {
        fields.lazy.filter { HTTPFields.namesEqual($0.name, name.rawName) }.map(\.value)
    }

    /// The value of the first line named `name` (not combined), or `nil` when absent; no array is built.
    public func firstValue(for name: HTTPFieldName) -> String? {
        for field in fields where HTTPFields.namesEqual(field.name, name.rawName) { return field.value }
        return nil
    }

    /// The members of the comma-separated list in every line named `name` (RFC 9110 §5.6.1):
    /// commas inside quoted strings do not split, elements are trimmed and empty ones dropped.
    public func listValues(for name: HTTPFieldName) -> [Substring] {
        var out: [Substring] = []
        for field in fields where HTTPFields.namesEqual(field.name, name.rawName) {
            out.append(contentsOf: HTTPFieldList.split(field.value[...]))
        }
        return out
    }

    /// Whether a line named `name` exists.
    public func contains(_ name: HTTPFieldName) -> Bool {
        fields.contains { HTTPFields.namesEqual($0.name, name.rawName) }
    }

    /// Appends a line; existing lines of that name stay.
    public mutating func append(_ name: HTTPFieldName, _ value: String) {
        fields.append(Field(name: name.rawName, value: HTTPFields.trim(value)))
    }

    /// Appends a prepared line as it is (its value not trimmed again): for parsers that trimmed it already.
    public mutating func append(_ field: Field) {
        fields.append(field)
    }

    /// Replaces every line named `name` with one line (where the first one was, else at the end).
    /// A `nil` value removes them.
    public mutating func set(_ name: HTTPFieldName, _ value: String?) {
        guard let value else {
            remove(name)
            return
        }
        if let first = fields.firstIndex(where: { HTTPFields.namesEqual($0.name, name.rawName) }) {
            fields[first] = Field(name: fields[first].name, value: HTTPFields.trim(value))
            var index = fields.count - 1
            while index > first {
                if HTTPFields.namesEqual(fields[index].name, name.rawName) { fields.remove(at: index) }
                index -= 1
            }
        } else {
            append(name, value)
        }
    }

    /// Removes every line named `name`.
    public mutating func remove(_ name: HTTPFieldName) {
        // No write (and no copy of shared storage) when there is nothing to remove.
        guard contains(name) else { return }
        fields.removeAll { HTTPFields.namesEqual($0.name, name.rawName) }
    }

    /// Removes every line whose name satisfies `predicate` (given the lower-cased name).
    public mutating func removeAll(where predicate: (String) -> Bool) {
        fields.removeAll { predicate($0.name.lowercased()) }
    }

    public var description: String {
        fields.map { "\($0.name): \($0.value)" }.joined(separator: "\n")
    }

    /// ASCII case-insensitive comparison of field names, without allocating: compares the two names' UTF-8
    /// buffers directly (native and small strings are contiguous), else walks their UTF-8 views.
    @inlinable @inline(__always)
    public static func namesEqual(_ lhs: String, _ rhs: String) -> Bool {
        // The length check is inlined at each call site: most comparisons end here.
        lhs.utf8.count == rhs.utf8.count && namesEqualSameLength(lhs, rhs)
    }

    /// ``namesEqual(_:_:)`` for two names of the same UTF-8 length.
    @usableFromInline
    static func namesEqualSameLength(_ lhs: String, _ rhs: String) -> Bool {
        let direct: Bool?? = lhs.utf8.withContiguousStorageIfAvailable { l in
            rhs.utf8.withContiguousStorageIfAvailable { r in bytesEqualIgnoringASCIICase(l, r) }
        }
        if let direct, let direct { return direct }
        var l = lhs.utf8.makeIterator(), r = rhs.utf8.makeIterator()
        while true {
            switch (l.next(), r.next()) {
            case (nil, nil): return true
            case let (a?, b?):
                if a == b { continue }
                if lowerASCII(a) != lowerASCII(b) { return false }
            default: return false
            }
        }
    }

    /// Whether two equally long byte buffers are equal ignoring ASCII case.
    @inline(__always)
    static func bytesEqualIgnoringASCIICase(_ l: UnsafeBufferPointer<UInt8>, _ r: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        while index < l.count {
            let a = l[index], b = r[index]
            if a != b && lowerASCII(a) != lowerASCII(b) { return false }
            index &+= 1
        }
        return true
    }

    /// `byte` with an ASCII capital letter lowercased.
    @inline(__always) public static func lowerASCII(_ byte: UInt8) -> UInt8 {
        byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
    }

    /// `value` without leading and trailing SP and HTAB (RFC 9110 §5.6.3 OWS); no copy when there is none.
    public static func trim(_ value: String) -> String {
        // Most values have no surrounding whitespace: two byte checks, no substring.
        let utf8 = value.utf8
        guard let first = utf8.first, let last = utf8.last else { return value }
        if first != 0x20, first != 0x09, last != 0x20, last != 0x09 { return value }
        let trimmed = HTTPFieldList.trimOWS(value[...])
        return trimmed.utf8.count == value.utf8.count ? value : String(trimmed)
    }
}
