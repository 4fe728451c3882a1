import MediaCore

/// Where an answer's representation came from, as ``ServiceOutcome/storage`` says it: served from storage, taken from
/// another request's origin exchange, or fetched by this request and stored in a class (``StorageClass/none``: not
/// stored). Its ``description`` is the access log's and `mediactl fetch`'s word: `hit`, `collapsed`, `disk`,
/// `encrypted-disk`, `memory` or `none`.
public enum Provenance: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Served from a stored response (a fresh or allowed-stale hit).
    case hit
    /// The answer of another request's origin exchange this request joined (single flight).
    case collapsed
    /// Fetched for this request and stored in that class; ``StorageClass/none`` when nothing was stored.
    case stored(StorageClass)

    /// Fetched for this request and not stored (``stored(_:)`` with ``StorageClass/none``).
    public static let notStored = Provenance.stored(.none)

    public var description: String {
        switch self {
        case .hit: "hit"
        case .collapsed: "collapsed"
        case .stored(let storageClass): storageClass.rawValue
        }
    }

    /// The provenance a ``description`` names, or `nil` for another word.
    public init?(_ text: String) {
        switch text {
        case "hit": self = .hit
        case "collapsed": self = .collapsed
        default:
            guard let storageClass = StorageClass(rawValue: text) else { return nil }
            self = .stored(storageClass)
        }
    }

    /// Decoded from its ``description`` (one JSON string).
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let provenance = Provenance(text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                                                    debugDescription: "not a provenance: \(text)"))
        }
        self = provenance
    }

    /// Encoded as its ``description`` (one JSON string).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
