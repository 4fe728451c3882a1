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
        if let bodyDigest {
            Self.appendLiteral(#""bodyDigest":"#, to: &out)
            JSONString.append(bodyDigest, to: &out)
            out.append(UInt8(ascii: ","))
        }
        if let contentType {
            Self.appendLiteral(#""contentType":"#, to: &out)
            JSONString.append(contentType, to: &out)
            out.append(UInt8(ascii: ","))
        }
        if let derivedFrom {
            Self.appendLiteral(#""derivedFrom":"#, to: &out)
            JSONString.append(derivedFrom, to: &out)
            out.append(UInt8(ascii: ","))
        }
        Self.appendLiteral(#""fields":"#, to: &out)
        Self.appendJSONLists(fields, to: &out)
        if let height {
            Self.appendLiteral(#","height":"#, to: &out)
            Self.appendJSONInteger(Int64(height), to: &out)
        }
        Self.appendLiteral(#","method":"#, to: &out)
        JSONString.append(method, to: &out)
        Self.appendLiteral(#","policyTTL":"#, to: &out)
        Self.appendJSONInteger(policyTTL, to: &out)
        Self.appendLiteral(#","requestTime":"#, to: &out)
        Self.appendJSONInteger(requestTime, to: &out)
        Self.appendLiteral(#","responseTime":"#, to: &out)
        Self.appendJSONInteger(responseTime, to: &out)
        if let servedETag {
            Self.appendLiteral(#","servedETag":"#, to: &out)
            JSONString.append(servedETag, to: &out)
        }
        if let sourceDigest {
            Self.appendLiteral(#","sourceDigest":"#, to: &out)
            JSONString.append(sourceDigest, to: &out)
        }
        if let sourceFrames {
            Self.appendLiteral(#","sourceFrames":"#, to: &out)
            Self.appendJSONInteger(Int64(sourceFrames), to: &out)
        }
        Self.appendLiteral(#","status":"#, to: &out)
        Self.appendJSONInteger(Int64(status), to: &out)
        Self.appendLiteral(#","storage":"#, to: &out)
        JSONString.append(storage, to: &out)
        if let targeted {
            Self.appendLiteral(#","targeted":"#, to: &out)
            Self.appendJSONStrings(targeted, to: &out)
        }

        if let transform {
            Self.appendLiteral(#","transform":"#, to: &out)
            JSONString.append(transform, to: &out)
        }
        Self.appendLiteral(#","vary":"#, to: &out)
        Self.appendJSONLists(vary, to: &out)
        if let width {
            Self.appendLiteral(#","width":"#, to: &out)
            Self.appendJSONInteger(Int64(width), to: &out)
        }
        out.append(UInt8(ascii: "}"))
        return out
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
