import HTTPCaching
import MediaCore
import MediaService

extension FetchCommand {
    /// The `--json` document.
    public struct Report: Sendable, Hashable, Codable {
        /// The status code.
        public var status: HTTPStatus
        /// The response fields, name → value (repeated names joined with `", "`).
        public var headers: [String: String]
        /// The `Cache-Status` value, or `nil`.
        public var cacheStatus: String?
        /// Where the answer was stored (`disk`, `encrypted-disk`, `memory`), `none`, `hit`, or `nil`.
        public var storage: String?
        /// The stable reason code of the decision or refusal, or `nil`.
        public var reason: String?
        /// Body bytes (for HEAD and 304, 0).
        public var bytes: Int
        /// A derived image's normalised parameters (`w=144,fit=inside,fmt=jpeg,q=80`), or `nil`.
        public var variant: String?
        /// A derived image's source key digest (the audit `derivedFrom`), or `nil`.
        public var derivedFrom: String?

        private enum CodingKeys: String, CodingKey {
            case status, headers, cacheStatus, storage, reason, bytes, variant, derivedFrom
        }

        public init(_ response: ServiceResponse) {
            status = response.status
            var headers: [String: String] = [:]
            for field in response.fields {
                if let existing = headers[field.name] {
                    headers[field.name] = existing + ", " + field.value
                } else {
                    headers[field.name] = field.value
                }
            }
            self.headers = headers
            cacheStatus = response.outcome.cacheStatus
            storage = response.outcome.storage?.description
            reason = response.outcome.reason
            bytes = response.body.count
            variant = response.outcome.variant
            derivedFrom = response.outcome.derivedFrom
        }

        /// Every key is always present; absent values are `null`.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(status, forKey: .status)
            try container.encode(headers, forKey: .headers)
            try container.encode(cacheStatus, forKey: .cacheStatus)
            try container.encode(storage, forKey: .storage)
            try container.encode(reason, forKey: .reason)
            try container.encode(bytes, forKey: .bytes)
            try container.encode(variant, forKey: .variant)
            try container.encode(derivedFrom, forKey: .derivedFrom)
        }
    }
}
