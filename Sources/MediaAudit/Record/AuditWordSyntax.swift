/// What an ``AuditWord`` may hold: a length in bytes, an alphabet of ASCII bytes, and the ``AuditError`` it throws
/// otherwise (the error states only the length, never the refused text).
public struct AuditWordSyntax: Sendable {
    /// The allowed lengths, in bytes.
    public let lengths: ClosedRange<Int>
    /// The error's code.
    public let code: AuditError.Code
    /// The error's text before `, got N bytes`, e.g. `expected [a-z0-9:-]{1,64}`.
    public let expected: String
    /// The allowed bytes, one bit each.
    private let alphabet: (UInt64, UInt64)

    /// A syntax of `lengths` bytes, each in one of `ranges` (ASCII).
    init(lengths: ClosedRange<Int>, bytes ranges: [ClosedRange<UInt8>], code: AuditError.Code, expected: String) {
        var alphabet: (UInt64, UInt64) = (0, 0)
        for range in ranges {
            for byte in range where byte < 64 { alphabet.0 |= 1 << UInt64(byte) }
            for byte in range where (64..<128).contains(byte) { alphabet.1 |= 1 << UInt64(byte - 64) }
        }
        self.lengths = lengths
        self.code = code
        self.expected = expected
        self.alphabet = alphabet
    }

    /// Whether `text` is of an allowed length and every byte of it is allowed.
    public func allows(_ text: String) -> Bool {
        guard lengths.contains(text.utf8.count) else { return false }
        var text = text
        return text.withUTF8 { bytes in
            bytes.allSatisfy { byte in
                byte < 64 ? alphabet.0 >> UInt64(byte) & 1 == 1
                    : byte < 128 && alphabet.1 >> UInt64(byte - 64) & 1 == 1
            }
        }
    }

    /// `text`, when ``allows(_:)``.
    /// - Throws: ``AuditError`` with ``code``: `<expected>, got N bytes`.
    public func check(_ text: String) throws -> String {
        guard allows(text) else { throw AuditError(code, "\(expected), got \(text.utf8.count) bytes") }
        return text
    }
}
