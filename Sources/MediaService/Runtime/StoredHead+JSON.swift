/// The stored head's JSON written by hand: the same bytes as `JSONEncoder` with `.sortedKeys`
/// (the format every version has stored, so nothing on disk changes), at a fraction of the cost.
///
/// Shape: one object, keys sorted byte-wise (`contentType`, `fields`, `height`, `method`, `policyTTL`,
/// `requestTime`, `responseTime`, `status`, `storage`, `vary`, `width`), absent optionals omitted,
/// integers in decimal, strings escaped as Foundation does: `"` `\` `/` with a backslash, `\b \t \n
/// \f \r`, other bytes below 0x20 as `\u00xx` (lower-case hex), everything else as raw UTF-8.
extension StoredHead {
    func jsonBytes() -> [UInt8] {
        var capacity = 192 + method.utf8.count + storage.utf8.count + (contentType?.utf8.count ?? 0)
        for item in fields { for part in item { capacity += 4 + part.utf8.count } }
        for item in vary { for part in item { capacity += 4 + part.utf8.count } }
        var out: [UInt8] = []
        out.reserveCapacity(capacity)
        out.append(UInt8(ascii: "{"))
        if let contentType {
            out.append(contentsOf: #""contentType":"#.utf8)
            Self.appendJSONString(contentType, to: &out)
            out.append(UInt8(ascii: ","))
        }
        out.append(contentsOf: #""fields":"#.utf8)
        Self.appendJSONLists(fields, to: &out)
        if let height {
            out.append(contentsOf: #","height":"#.utf8)
            Self.appendJSONInteger(Int64(height), to: &out)
        }
        out.append(contentsOf: #","method":"#.utf8)
        Self.appendJSONString(method, to: &out)
        out.append(contentsOf: #","policyTTL":"#.utf8)
        Self.appendJSONInteger(policyTTL, to: &out)
        out.append(contentsOf: #","requestTime":"#.utf8)
        Self.appendJSONInteger(requestTime, to: &out)
        out.append(contentsOf: #","responseTime":"#.utf8)
        Self.appendJSONInteger(responseTime, to: &out)
        out.append(contentsOf: #","status":"#.utf8)
        Self.appendJSONInteger(Int64(status), to: &out)
        out.append(contentsOf: #","storage":"#.utf8)
        Self.appendJSONString(storage, to: &out)
        out.append(contentsOf: #","vary":"#.utf8)
        Self.appendJSONLists(vary, to: &out)
        if let width {
            out.append(contentsOf: #","width":"#.utf8)
            Self.appendJSONInteger(Int64(width), to: &out)
        }
        out.append(UInt8(ascii: "}"))
        return out
    }

    private static func appendJSONLists(_ lists: [[String]], to out: inout [UInt8]) {
        out.append(UInt8(ascii: "["))
        for (index, item) in lists.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out.append(UInt8(ascii: "["))
            for (partIndex, part) in item.enumerated() {
                if partIndex > 0 { out.append(UInt8(ascii: ",")) }
                appendJSONString(part, to: &out)
            }
            out.append(UInt8(ascii: "]"))
        }
        out.append(UInt8(ascii: "]"))
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

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// A quoted JSON string; runs of bytes that need no escape are copied at once.
    static func appendJSONString(_ text: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { bytes in
            var runStart = 0
            for index in 0..<bytes.count {
                let byte = bytes[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "/")
                else { continue }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                runStart = index + 1
                out.append(UInt8(ascii: "\\"))
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(byte)
                case 0x08: out.append(UInt8(ascii: "b"))
                case 0x09: out.append(UInt8(ascii: "t"))
                case 0x0A: out.append(UInt8(ascii: "n"))
                case 0x0C: out.append(UInt8(ascii: "f"))
                case 0x0D: out.append(UInt8(ascii: "r"))
                default:
                    out.append(contentsOf: "u00".utf8)
                    out.append(hexDigits[Int(byte >> 4)])
                    out.append(hexDigits[Int(byte & 0x0F)])
                }
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<bytes.count]))
        }
        out.append(UInt8(ascii: "\""))
    }
}
