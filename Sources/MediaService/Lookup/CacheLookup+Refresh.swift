import HTTPCaching

extension CacheLookup {
    /// `stale-while-revalidate`: validate in the background, coalesced with other refreshes of the group.
    func refreshInBackground(_ context: RequestContext, candidates: [Candidate], selected: Int) {
        let conditional = ConditionalRequest.fields(candidates: candidates.map(\.response), validating: selected)
        var refresh = context
        refresh.interim = nil   // the client already has its answer: a refresh forwards no interim response
        background.run { [self, context = refresh] in
            var decision = Group(context: context, candidates: candidates, now: now, keys: commit.keys).decision
            _ = decision.lookup(now: Int64(now))
            _ = await forwarding.forward(context, decision: &decision, candidates: candidates,
                                         conditional: conditional.isEmpty ? nil : conditional, reason: .stale)
        }
    }
}
