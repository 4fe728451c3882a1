/// A resource of the C2SP tlog-tiles API (https://c2sp.org/tlog-tiles) under `tile/`: a Merkle tree tile,
/// `tile/<L>/<N>[.p/<W>]`, or an entry bundle, `tile/entries/<N>[.p/<W>]`. `<N>` is written in 3-digit path elements,
/// all but the last prefixed with `x` (index 1234067 is `x001/x234/067`); `.p/<W>` marks a partial tile of `W` (1–255)
/// hashes or entries.
public struct TilePath: Hashable, Sendable {
    /// Hashes or entries in a full tile: 256.
    public static let width = 256

    /// The tile's level (0–63), or `nil` for an entry bundle.
    public var level: Int?
    /// The tile's index within its level.
    public var index: Int
    /// Hashes or entries in it: 256 for a full tile, 1–255 for a partial one.
    public var width: Int

    public init(level: Int?, index: Int, width: Int = TilePath.width) {
        (self.level, self.index, self.width) = (level, index, width)
    }

    /// Whether it is a full tile.
    public var isFull: Bool { width == Self.width }

    /// The path under `tile/`, e.g. `0/x001/x234/067` or `entries/000.p/5`.
    public var path: String {
        var digits = String(index)
        digits = String(repeating: "0", count: (3 - digits.count % 3) % 3) + digits
        var groups: [Substring] = []
        var rest = Substring(digits)
        while !rest.isEmpty {
            groups.append(rest.prefix(3))
            rest = rest.dropFirst(3)
        }
        let encoded = groups.dropLast().map { "x" + $0 }.joined(separator: "/") + (groups.count > 1 ? "/" : "") + groups.last!
        return (level.map(String.init) ?? "entries") + "/" + encoded + (isFull ? "" : ".p/" + String(width))
    }

    /// Parses a path under `tile/`; only the canonical encoding is accepted.
    /// - Throws: ``AuditError`` `invalid-tile-path` naming what is wrong.
    public init(path: String) throws(AuditError) {
        func invalid(_ why: String) -> AuditError { AuditError(.invalidTilePath, "tile/\(path): \(why)") }
        var elements = path.split(separator: "/", omittingEmptySubsequences: false)
        guard elements.count >= 2 else { throw invalid("a tile path is <L>/<N>[.p/<W>] or entries/<N>[.p/<W>]") }
        var width = Self.width
        if elements.count >= 3, elements[elements.count - 2].hasSuffix(".p") {
            guard let parsed = Self.decimal(elements.removeLast()), (1..<Self.width).contains(parsed) else {
                throw invalid("a partial tile's width is 1 to 255, in decimal without leading zeros")
            }
            width = parsed
            elements[elements.count - 1] = elements[elements.count - 1].dropLast(2)
        }
        let head = elements.removeFirst()
        var level: Int?
        if head != "entries" {
            guard let parsed = Self.decimal(head), parsed <= 63 else {
                throw invalid("the level is 0 to 63 in decimal without leading zeros, or entries")
            }
            level = parsed
        }
        var index = 0
        for (offset, element) in elements.enumerated() {
            let last = offset == elements.count - 1
            let digits = last ? element : (element.hasPrefix("x") ? element.dropFirst() : "")
            guard digits.count == 3, digits.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
                  index <= (Int.max - 999) / 1000 else {
                throw invalid("the index is 3-digit path elements, all but the last starting with x")
            }
            index = index * 1000 + Int(digits)!
        }
        self.init(level: level, index: index, width: width)
        guard self.path == path else { throw invalid("not the canonical encoding (\(self.path))") }
    }

    /// A decimal number without leading zeros.
    private static func decimal(_ text: Substring) -> Int? {
        guard let value = Int(text), String(value) == text else { return nil }
        return value
    }
}
