import MediaCore

/// The stored head's JSON written by hand: the same bytes as `JSONEncoder` with `.sortedKeys`
/// (the format every version has stored, so nothing on disk changes), at a fraction of the cost.
///
/// Shape: one object, keys sorted byte-wise (`contentType`, `fields`, `height`, `method`, `policyTTL`,
/// `requestTime`, `responseTime`, `status`, `storage`, `targeted`, `vary`, `width`), absent optionals omitted,
/// integers in decimal, strings escaped as Foundation does: `"` `\` `/` with a backslash, `\b \t \n
/// \f \r`, other bytes below 0x20 as `\u00xx` (lower-case hex), everything else as raw UTF-8.
extension StoredHead {
    func jsonBytes() -> [UInt8] {
        var capacity = 192 + method.utf8.count + storage.utf8.count + (contentType?.utf8.count ?? 0)
            + (servedETag?.utf8.count ?? 0) + (transform?.utf8.count ?? 0) + (derivedFrom == nil ? 0 : 160)
        for item in fields { for part in item { capacity += 4 + part.utf8.count } }
        for item in vary { for part in item { capacity += 4 + part.utf8.count } }
        for part in targeted ?? [] { capacity += 4 + part.utf8.count }
        var out: [UInt8] = []
        // Escapes (`\/` in media types, `\"` in entity tags) and the integers need room too: one allocation.
        out.reserveCapacity(capacity + capacity / 4 + 64)
        out.append(UInt8(ascii: "{"))
        // The members before `fields` end with a comma; those after it start with one.
        Self.string(#""bodyDigest":"#, bodyDigest, to: &out, then: UInt8(ascii: ","))
        Self.string(#""contentType":"#, contentType, to: &out, then: UInt8(ascii: ","))
        Self.string(#""derivedFrom":"#, derivedFrom, to: &out, then: UInt8(ascii: ","))
        Self.appendLiteral(#""fields":"#, to: &out)
        Self.appendJSONLists(fields, to: &out)
        Self.integer(#","height":"#, height.map(Int64.init), to: &out)
        Self.string(#","method":"#, method, to: &out)
        Self.integer(#","policyTTL":"#, policyTTL, to: &out)
        Self.integer(#","requestTime":"#, requestTime, to: &out)
        Self.integer(#","responseTime":"#, responseTime, to: &out)
        Self.string(#","servedETag":"#, servedETag, to: &out)
        Self.string(#","sourceDigest":"#, sourceDigest, to: &out)
        Self.integer(#","sourceFrames":"#, sourceFrames.map(Int64.init), to: &out)
        Self.integer(#","status":"#, Int64(status), to: &out)
        Self.string(#","storage":"#, storage, to: &out)
        if let targeted {
            Self.appendLiteral(#","targeted":"#, to: &out)
            Self.appendJSONStrings(targeted, to: &out)
        }
        Self.string(#","transform":"#, transform, to: &out)
        Self.appendLiteral(#","vary":"#, to: &out)
        Self.appendJSONLists(vary, to: &out)
        Self.integer(#","width":"#, width.map(Int64.init), to: &out)
        out.append(UInt8(ascii: "}"))
        // The head is kept with its entry for the entry's life: not in the room reserved for escapes (a quarter more).
        guard out.capacity - out.count > 32 else { return out }
        return [UInt8](unsafeUninitializedCapacity: out.count) { buffer, count in
            count = buffer.initialize(fromContentsOf: out)
        }
    }

    /// `key` then `value` as a JSON string (then `separator`, if any); nothing when `value` is `nil`.
    @inline(__always)
    private static func string(_ key: StaticString, _ value: String?, to out: inout [UInt8], then separator: UInt8? = nil) {
        guard let value else { return }
        appendLiteral(key, to: &out)
        JSONString.append(value, to: &out)
        if let separator { out.append(separator) }
    }

    /// `key` then `value` in decimal; nothing when `value` is `nil`.
    @inline(__always)
    private static func integer(_ key: StaticString, _ value: Int64?, to out: inout [UInt8]) {
        guard let value else { return }
        appendLiteral(key, to: &out)
        appendJSONInteger(value, to: &out)
    }

    private static func appendJSONStrings(_ list: [String], to out: inout [UInt8]) {
        out.append(UInt8(ascii: "["))
        for (index, part) in list.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            JSONString.append(part, to: &out)
        }
        out.append(UInt8(ascii: "]"))
    }

    private static func appendJSONLists(_ lists: [[String]], to out: inout [UInt8]) {
        out.append(UInt8(ascii: "["))
        var firstItem = true
        for item in lists {
            if !firstItem { out.append(UInt8(ascii: ",")) }
            firstItem = false
            out.append(UInt8(ascii: "["))
            var firstPart = true
            for part in item {
                if !firstPart { out.append(UInt8(ascii: ",")) }
                firstPart = false
                JSONString.append(part, to: &out)
            }
            out.append(UInt8(ascii: "]"))
        }
        out.append(UInt8(ascii: "]"))
    }

    @inline(__always)
    private static func appendLiteral(_ text: StaticString, to out: inout [UInt8]) {
        out.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    private static func appendJSONInteger(_ value: Int64, to out: inout [UInt8]) {
        if value < 0 { out.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var divisor: UInt64 = 1
        while magnitude / divisor >= 10 { divisor *= 10 }
        repeat {
            out.append(UInt8(ascii: "0") + UInt8(magnitude / divisor))
            magnitude %= divisor
            divisor /= 10
        } while divisor > 0
    }
}
