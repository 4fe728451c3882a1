import MediaCore
extension CacheControl {
    mutating func parse(_ value: String, _ state: inout ParseState) {
        if let done: Void = value.utf8.withContiguousStorageIfAvailable({ parse(bytes: $0, &state) }) {
            return done
        }
        let copy = Array(value.utf8)
        copy.withUnsafeBufferPointer { parse(bytes: $0, &state) }
    }

    /// The byte-level scanner: `name [ OWS "=" OWS ( token | quoted-string ) ]`, separated by commas.
    mutating func parse(bytes b: UnsafeBufferPointer<UInt8>, _ state: inout ParseState) {
        let n = b.count
        var i = 0
        while i < n {
            while i < n, b[i] == 0x20 || b[i] == 0x09 || b[i] == 0x2C { i += 1 }
            guard i < n else { return }
            let nameStart = i
            while i < n, b[i] != 0x3D, b[i] != 0x2C, b[i] != 0x20, b[i] != 0x09, b[i] != 0x22 { i += 1 }
            let nameEnd = i
            while i < n, b[i] == 0x20 || b[i] == 0x09 { i += 1 }
            var argument: Argument = .none
            if i < n, b[i] == 0x3D {
                i += 1
                while i < n, b[i] == 0x20 || b[i] == 0x09 { i += 1 }
                if i < n, b[i] == 0x22 {
                    i += 1
                    let start = i
                    var escaped = false, closed = false
                    while i < n {
                        if b[i] == 0x5C { escaped = true; i += 2; continue }
                        if b[i] == 0x22 { closed = true; break }
                        i += 1
                    }
                    let end = min(i, n)
                    if closed { i += 1 }
                    argument = closed ? .quoted(start, end, escaped) : .invalid
                } else {
                    let start = i
                    while i < n, b[i] != 0x2C, b[i] != 0x20, b[i] != 0x09 { i += 1 }
                    argument = .token(start, i)
                }
            }
            // Anything other than OWS before the next comma makes the argument invalid.
            var junk = false
            var inQuotes = false
            while i < n {
                let c = b[i]
                if inQuotes {
                    if c == 0x5C { i += 1 } else if c == 0x22 { inQuotes = false }
                } else if c == 0x2C {
                    break
                } else if c == 0x22 {
                    inQuotes = true; junk = true
                } else if c != 0x20 && c != 0x09 {
                    junk = true
                }
                i += 1
            }
            if junk { argument = .invalid }
            apply(b, nameStart, nameEnd, argument, &state)
        }
    }

    enum Argument {
        case none
        case token(Int, Int)
        case quoted(Int, Int, Bool)
        case invalid
    }

    private mutating func apply(_ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, _ argument: Argument, _ state: inout ParseState) {
        let length = end - start
        func name(_ literal: StaticString) -> Bool {
            Self.equalsIgnoringCase(b, start, end, literal)
        }
        switch length {
        case 6:
            if name("public") { isPublic = true }
        case 7:
            if name("max-age") {
                let value = Self.deltaSeconds(b, argument) ?? 0
                if state.seenMaxAge { if maxAge != value { maxAge = 0 } } else { maxAge = value }
                state.seenMaxAge = true
            } else if name("private") {
                if let names = Self.fieldNames(b, argument) { mergeNames(&privateFieldNames, names) } else { isPrivate = true }
            }
        case 8:
            if name("no-cache") {
                if let names = Self.fieldNames(b, argument) { mergeNames(&noCacheFieldNames, names) } else { noCache = true }
            } else if name("no-store") {
                noStore = true
            } else if name("s-maxage") {
                let value = Self.deltaSeconds(b, argument) ?? 0
                if state.seenSharedMaxAge { if sharedMaxAge != value { sharedMaxAge = 0 } } else { sharedMaxAge = value }
                state.seenSharedMaxAge = true
            }
        case 9:
            if name("immutable") {
                immutable = true
            } else if name("max-stale") {
                if maxStale == nil {
                    if case .none = argument { maxStale = Self.anyStaleness } else { maxStale = Self.deltaSeconds(b, argument) }
                }
            } else if name("min-fresh") {
                if minFresh == nil { minFresh = Self.deltaSeconds(b, argument) }
            }
        case 12:
            if name("no-transform") { noTransform = true }
        case 14:
            if name("only-if-cached") {
                onlyIfCached = true
            } else if name("stale-if-error") {
                if staleIfError == nil { staleIfError = Self.deltaSeconds(b, argument) }
            }
        case 15:
            if name("must-revalidate") { mustRevalidate = true } else if name("must-understand") { mustUnderstand = true }
        case 16:
            if name("proxy-revalidate") { proxyRevalidate = true }
        case 22:
            if name("stale-while-revalidate"), staleWhileRevalidate == nil {
                staleWhileRevalidate = Self.deltaSeconds(b, argument)
            }
        default:
            break
        }
    }

    private func mergeNames(_ list: inout [String], _ names: [String]) {
        for name in names where !list.contains(name) { list.append(name) }
    }

    /// delta-seconds (RFC 9111 §1.2.2) from a token or quoted argument; `nil` when absent or invalid.
    static func deltaSeconds(_ b: UnsafeBufferPointer<UInt8>, _ argument: Argument) -> Int64? {
        let start: Int, end: Int
        switch argument {
        case .token(let s, let e): start = s; end = e
        case .quoted(let s, let e, let escaped):
            if escaped { return nil }
            start = s; end = e
        case .none, .invalid: return nil
        }
        guard end > start else { return nil }
        var value: Int64 = 0
        for index in start..<end {
            let digit = b[index] &- 0x30
            guard digit < 10 else { return nil }
            if value < maximumDeltaSeconds { value = value * 10 + Int64(digit) }
        }
        return min(value, maximumDeltaSeconds)
    }

    /// The field-name list of a qualified `private`/`no-cache`, lower-cased; `nil` when there is no
    /// argument, the list is empty, or an element is not a field-name token (RFC 9110 §5.1): the
    /// unqualified form then applies.
    static func fieldNames(_ b: UnsafeBufferPointer<UInt8>, _ argument: Argument) -> [String]? {
        let text: String
        switch argument {
        case .none: return nil
        case .invalid: return nil
        case .token(let s, let e):
            text = String(decoding: UnsafeBufferPointer(rebasing: b[s..<e]), as: UTF8.self)
        case .quoted(let s, let e, _):
            guard let unquoted = HTTPFieldList.unquote(
                String(decoding: UnsafeBufferPointer(rebasing: b[(s - 1)..<(e + 1)]), as: UTF8.self)[...])
            else { return nil }
            text = unquoted
        }
        let names = HTTPFieldList.split(text[...]).map { $0.lowercased() }
        guard !names.isEmpty, names.allSatisfy({ $0.utf8.allSatisfy(isTokenCharacter) }) else { return nil }
        return names
    }

    /// tchar (RFC 9110 §5.6.2): `!#$%&'*+-.^_`|~`, DIGIT, ALPHA.
    static func isTokenCharacter(_ c: UInt8) -> Bool {
        switch c {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: return true
        default: return "!#$%&'*+-.^_`|~".utf8.contains(c)
        }
    }

    @inline(__always) static func equalsIgnoringCase(_ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, _ literal: StaticString) -> Bool {
        guard end - start == literal.utf8CodeUnitCount else { return false }
        let pointer = literal.utf8Start
        for offset in 0..<(end - start) {
            var c = b[start + offset]
            if c >= 0x41 && c <= 0x5A { c |= 0x20 }
            if c != pointer[offset] { return false }
        }
        return true
    }
}
