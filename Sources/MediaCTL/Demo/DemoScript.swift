/// The scripted visit `mediactl demo` plays: two users (and one anonymous request) across every
/// tier, each step with the answer a correct service gives (docs/demo.md explains each row).
public enum DemoScript {
    /// Who sends a request.
    public enum User: String, Sendable, Hashable {
        /// User 1: `Authorization: Bearer demo-token-u1` on every request, as a BFF client sends it.
        case u1 = "U1"
        /// User 2: `Authorization: Bearer demo-token-u2`.
        case u2 = "U2"
        /// No credentials.
        case anonymous = "anon"
        /// User 1 on a web page: a signed URL for subject `demo-user-1` (docs/signed-urls.md), no token.
        case u1Web = "U1 url"
        /// User 2 on a web page: a signed URL for subject `demo-user-2`.
        case u2Web = "U2 url"

        /// The bearer token, or `nil` for ``anonymous``.
        public var token: String? {
            switch self {
            case .u1: return DemoOrigin.tokens[0]
            case .u2: return DemoOrigin.tokens[1]
            case .anonymous, .u1Web, .u2Web: return nil
            }
        }

        /// The subject a signed URL names for this user, or `nil`: the path is sent as written.
        public var subject: String? {
            switch self {
            case .u1Web: return "demo-user-1"
            case .u2Web: return "demo-user-2"
            default: return nil
            }
        }
    }

    /// What the service must answer.
    public enum Expectation: Sendable, Hashable {
        /// 200 from the origin, stored: `Cache-Status: mediactl; fwd=uri-miss; …; stored; …`.
        case storedMiss
        /// 200 from storage: `Cache-Status: mediactl; hit; …`.
        case hit
        /// 200 from the origin, never stored: `mediactl; fwd=uri-miss; …; detail=<reason>` without `stored`.
        case unstoredMiss
        /// 200 derived here from a stored source and stored, the origin not contacted:
        /// `Cache-Status: mediactl; …; stored; …` with neither `hit` nor `fwd`.
        case storedDerivation
        /// Refused before any lookup with this status (problem+json, no `Cache-Status`).
        case refused(Int)

        /// Whether `status` and `cacheStatus` are what this expectation asks for.
        public func isMet(status: Int, cacheStatus: String?) -> Bool {
            let parts = cacheStatus?.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) } ?? []
            switch self {
            case .storedMiss:
                return status == 200 && parts.starts(with: ["mediactl", "fwd=uri-miss"]) && parts.contains("stored")
            case .hit:
                return status == 200 && parts.starts(with: ["mediactl", "hit"])
            case .unstoredMiss:
                return status == 200 && parts.starts(with: ["mediactl", "fwd=uri-miss"]) && !parts.contains("stored")
                    && parts.contains { $0.hasPrefix("detail=") }
            case .storedDerivation:
                return status == 200 && parts.first == "mediactl" && parts.contains("stored")
                    && !parts.contains("hit") && !parts.contains { $0.hasPrefix("fwd=") }
            case .refused(let expected):
                return status == expected && cacheStatus == nil
            }
        }

        /// For messages: `a stored miss`, `a hit`, `a miss that is not stored`, `401`.
        public var summary: String {
            switch self {
            case .storedMiss: return "a stored miss (fwd=uri-miss … stored)"
            case .hit: return "a hit"
            case .unstoredMiss: return "a miss that is not stored (fwd=uri-miss … detail=…)"
            case .storedDerivation: return "a stored variant of a stored source (… stored, no fwd)"
            case .refused(let status): return "status \(status)"
            }
        }
    }

    /// What the demo checks in a body besides the status and `Cache-Status`.
    public struct Check: Sendable, Hashable {
        /// The image's width in pixels, or `nil`.
        public var width: Int?
        /// The range its height must fall in, or `nil`.
        public var heights: ClosedRange<Int>?
        /// Whether the body must carry no EXIF block, GPS position, camera serial or capture time.
        public var withoutLocation: Bool

        public init(width: Int? = nil, heights: ClosedRange<Int>? = nil, withoutLocation: Bool = false) {
            self.width = width
            self.heights = heights
            self.withoutLocation = withoutLocation
        }
    }

    /// One request of the visit.
    public struct Step: Sendable, Hashable {
        /// The request target, such as `/catalog/coffee-237a7131.jpg`.
        public var path: String
        /// Who asks.
        public var user: User
        /// What the row shows, such as `first view`.
        public var note: String
        /// The answer a correct service gives.
        public var expectation: Expectation
        /// What the body must be, or `nil` for no check.
        public var check: Check?

        public init(_ path: String, _ user: User, _ note: String, _ expectation: Expectation, check: Check? = nil) {
            self.path = path
            self.user = user
            self.note = note
            self.expectation = expectation
            self.check = check
        }
    }

    /// The visit, in order.
    public static let steps: [Step] = [
        Step("/catalog/astronaut-4530ade2.jpg", .u1, "catalog: first view", .storedMiss),
        Step("/catalog/coffee-237a7131.jpg", .u1, "catalog: first view", .storedMiss),
        Step("/catalog/horse-d29d871c.jpg", .u2, "catalog: first view", .storedMiss),
        Step("/catalog/astronaut-4530ade2.jpg", .u2, "catalog: repeat view, shared across users", .hit),
        Step("/catalog/coffee-237a7131.jpg", .u1, "catalog: repeat view", .hit),
        Step("/avatars/u1001.jpg", .u1, "avatar: first view (origin max-age=60)", .storedMiss),
        Step("/avatars/u1001.jpg", .u2, "avatar: repeat view", .hit),
        Step("/avatars/u1001.jpg?v=2", .u1, "avatar changed: ?v=2 is a new key", .storedMiss),
        Step("/receipts/r-7731.png", .u1, "receipt: U1's partition, sealed", .storedMiss),
        Step("/receipts/r-7731.png", .u2, "receipt: U2 never gets U1's copy", .storedMiss),
        Step("/receipts/r-7731.png", .u1, "receipt: U1 again, own partition", .hit),
        Step("/receipts/r-7731.png", .anonymous, "receipt without a token", .refused(401)),
        Step("/web-receipts/r-7731.png", .u1Web, "signed URL (a web page's <img>): U1's subject partition", .storedMiss,
             check: Check(width: 384)),
        Step("/web-receipts/r-7731.png", .u2Web, "same path signed for U2: U2's own receipt", .storedMiss,
             check: Check(width: 448)),
        Step("/web-receipts/r-7731.png", .u1Web, "signed URL again: U1's own copy", .hit),
        Step("/large/astronaut-4000.jpg?w=144", .u1, "variant: the 4000×4000 JPEG (1,475,990 bytes) at 144 px",
             .storedMiss, check: Check(width: 144, heights: 144...144)),
        Step("/large/astronaut-4000.jpg?w=144", .u2, "variant: repeat view; the origin sent the source once", .hit),
        Step("/uploads/gps-orient6.jpg", .anonymous, "upload (233,453 bytes): served without GPS, serial, times",
             .storedMiss, check: Check(withoutLocation: true)),
        Step("/uploads/gps-orient6.jpg?w=144", .anonymous, "upload variant: upright 144×126, no EXIF",
             .storedDerivation, check: Check(width: 144, heights: 125...126, withoutLocation: true)),
        Step("/receipts/r-7732.jpg?w=144", .u1, "receipt thumbnail: U1's own sealed variant", .storedMiss,
             check: Check(width: 144)),
        Step("/receipts/r-7732.jpg?w=144", .u2, "receipt thumbnail: U2 gets their own", .storedMiss,
             check: Check(width: 144)),
        Step("/receipts/r-7732.jpg?w=144", .u1, "receipt thumbnail: U1 again, own partition", .hit),
        Step("/one-time/ticket-5510.jpg", .u1, "one-time: passed through", .unstoredMiss),
        Step("/one-time/ticket-5510.jpg", .u1, "one-time: again, never stored", .unstoredMiss),
    ]
}
