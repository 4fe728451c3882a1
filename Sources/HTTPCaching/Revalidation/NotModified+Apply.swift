import MediaCore
extension NotModified {
    /// One freshened stored response.
    public struct Update: Sendable, Hashable {
        /// Its index in the candidates passed to ``NotModified/apply(_:to:validating:requestTime:responseTime:role:)``.
        public var index: Int
        /// The response to store in place of the old one.
        public var response: StoredResponse
    }

    /// What to do after a 304: the stored responses to replace and which one answers the request.
    public struct Outcome: Sendable, Hashable {
        /// The freshened stored responses, by ascending index; empty when the 304 matched nothing.
        public var updates: [Update]
        /// The index of the (updated) candidate to serve, or `nil` when nothing was selected: the caller
        /// then fetches again without conditions.
        public var serve: Int?

        /// The updated response at `index`, or `nil` when that candidate was not selected.
        public func response(at index: Int) -> StoredResponse? {
            updates.first { $0.index == index }?.response
        }
    }

    /// Applies a 304 received for a validation request (§4.3.3, §4.3.4): selects the stored responses
    /// it identifies (``select(_:for:)``), updates each (``update(_:with:requestTime:responseTime:role:)``)
    /// and answers with the response being validated when it was selected, else the most recent selected
    /// one (the origin confirmed its validator for this request).
    /// - Parameters:
    ///   - fields: the 304's header fields.
    ///   - candidates: the stored responses offered in the conditional request.
    ///   - validating: the index from ``ServingAction/revalidate(index:conditionalFields:)``.
    ///   - requestTime: when the conditional request was sent.
    ///   - responseTime: when the 304 arrived.
    ///   - role: the cache role (qualified `private` fields of the 304 are not stored in a shared cache).
    public static func apply(
        _ fields: HTTPFields, to candidates: [StoredResponse], validating: Int?,
        requestTime: EpochSeconds, responseTime: EpochSeconds, role: CacheRole
    ) -> Outcome {
        let selected = select(candidates, for: fields)
        let updates = selected.map {
            Update(index: $0, response: update(candidates[$0], with: fields, requestTime: requestTime,
                                               responseTime: responseTime, role: role))
        }
        var serve: Int?
        if let validating, selected.contains(validating) {
            serve = validating
        } else {
            for index in selected {
                if let best = serve, !ServingDecision.isMoreRecent(candidates[index], than: candidates[best]) { continue }
                serve = index
            }
        }
        return Outcome(updates: updates, serve: serve)
    }
}
