import MediaCore
/// An entity tag (RFC 9110 §8.8.3): `[W/] "opaque"`, kept with its quotes.
public struct EntityTag: Sendable, Hashable, CustomStringConvertible {
    /// The opaque-tag including its double quotes, e.g. `"v1"`.
    public var opaqueTag: String
    /// Whether the tag is weak (`W/` prefix).
    public var isWeak: Bool

    public init(opaqueTag: String, isWeak: Bool = false) {
        self.opaqueTag = opaqueTag
        self.isWeak = isWeak
    }

    /// Parses one entity tag, e.g. `"v1"` or `W/"v1"`; `nil` when malformed (no quotes, inner quote).
    public init?(_ value: some StringProtocol) {
        var text = Substring(value)
        text = HTTPFieldList.trimOWS(text)
        var weak = false
        if text.hasPrefix("W/") {
            weak = true
            text = text.dropFirst(2)
        }
        let utf8 = text.utf8
        guard utf8.count >= 2, utf8.first == 0x22, utf8.last == 0x22,
              !utf8.dropFirst().dropLast().contains(0x22) else { return nil }
        self.init(opaqueTag: String(text), isWeak: weak)
    }

    /// Every entity tag of a list field such as `If-None-Match` or `ETag`; malformed members are skipped.
    public static func list(_ value: String) -> [EntityTag] {
        HTTPFieldList.split(value[...]).compactMap { EntityTag($0) }
    }

    /// The field value form: `W/"x"` or `"x"`.
    public var description: String { isWeak ? "W/" + opaqueTag : opaqueTag }

    /// Strong comparison (RFC 9110 §8.8.3.2): both strong and the opaque tags equal.
    public func strongMatches(_ other: EntityTag) -> Bool {
        !isWeak && !other.isWeak && opaqueTag == other.opaqueTag
    }

    /// Weak comparison (RFC 9110 §8.8.3.2): the opaque tags equal, weakness ignored.
    public func weakMatches(_ other: EntityTag) -> Bool {
        opaqueTag == other.opaqueTag
    }
}
