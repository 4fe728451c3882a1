import MediaStorage
import Testing

/// ``SharedEntries``: an entry is shared exactly as long as someone holds it.
@Suite struct SharedEntriesTests {
    static func entry(_ key: String, route: String = "catalog") -> StoredEntry {
        StoredEntry(metadata: EntryMetadata(key: key, tier: "public", route: route, requestTime: 1, responseTime: 1,
                                            expiresAt: 100),
                    body: Array(key.utf8))
    }

    @Test func anEntryIsSharedWhileHeldAndForgottenOnceReleased() {
        let shared = SharedEntries()
        var held: StoredEntry? = Self.entry("a")
        shared.keep(held!, for: "a")
        #expect(shared.entry(for: "a")?.body == Array("a".utf8))
        #expect(shared.entry(for: "a").map { ObjectIdentifier($0.owner) } == held.map { ObjectIdentifier($0.owner) })
        held = nil
        #expect(shared.entry(for: "a") == nil)
        #expect(shared.count == 0)
    }

    @Test func removalsForgetOnlyWhatTheyName() {
        let shared = SharedEntries()
        let a = Self.entry("a"), b = Self.entry("b", route: "avatars"), c = Self.entry("c")
        for entry in [a, b, c] { shared.keep(entry, for: entry.metadata.key) }
        shared.remove("a")
        #expect(shared.entry(for: "a") == nil)
        shared.removeAll(where: { $0.route == "avatars" })
        #expect(shared.entry(for: "b") == nil)
        #expect(shared.entry(for: "c")?.body == c.body)
        #expect(shared.count == 1)
        #expect(StoredEntry(owner: NSObjectLike()) == nil)
    }

    final class NSObjectLike {}
}
