import MediaCrypto
import Testing

@testable import MediaAudit

/// The bounded memory of possible variant sources: live keys only, memory ones until a start or stop,
/// removed ones for the last ``VariantSources/removedWindow`` removals.
@Suite struct VariantSourcesTests {
    static func record(_ seq: Int, _ event: AuditEvent, _ key: String?, storage: AuditStorage? = .disk,
                       tier: String? = "public", partition: String? = nil) -> AuditRecord {
        AuditRecord(
            seq: seq, time: AuditTime(millisecondsSinceEpoch: TestClock.start),
            entry: AuditEntry(event: event, tier: tier.map(name), storage: storage, key: key.map(digest),
                              scope: partition.map { .partitioned(digest($0)) } ?? .none),
            prev: .zero, hash: .zero)  // not hashed: the sources never look at prev or hash
    }

    @Test func prefixIsTheFirst64Bits() {
        #expect(VariantSources.prefix(digest("k1")) == 0x6ab9_f1eb_8f7d_3388)  // 6ab9f1eb8f7d3388f4f9…
        #expect(VariantSources.prefix(.zero) == 0)
        #expect(VariantSources.prefix(try! AuditDigest(hex: String(repeating: "f", count: 64))) == UInt64.max)
    }

    @Test func aStoreOrUpdateIsTheKeysSource() {
        var sources = VariantSources()
        #expect(sources.source(of: digest("s")) == nil)
        sources.note(Self.record(7, .store, "s", storage: .encryptedDisk, tier: "private", partition: "U1"))
        #expect(sources.source(of: digest("s")) == VariantSources.Source(
            storage: .encryptedDisk, tier: "private", partitionPrefix: VariantSources.prefix(digest("U1")), seq: 7))
        sources.note(Self.record(9, .update, "s", storage: .memory, tier: "private", partition: "U1"))
        #expect(sources.source(of: digest("s"))?.storage == .memory)
        #expect(sources.source(of: digest("s"))?.seq == 9)
        sources.note(Self.record(10, .store, "n", storage: nil, tier: nil))
        #expect(sources.source(of: digest("n")) == VariantSources.Source(
            storage: AuditStorage.none, tier: nil, partitionPrefix: nil, seq: 10))
        sources.note(Self.record(11, .skip, "x"))
        #expect(sources.source(of: digest("x")) == nil)
        #expect(sources.liveCount == 2)
    }

    @Test func startAndStopForgetMemorySources() {
        for event in [AuditEvent.start, .stop] {
            var sources = VariantSources()
            sources.note(Self.record(1, .store, "d", storage: .disk))
            sources.note(Self.record(2, .store, "e", storage: .encryptedDisk))
            sources.note(Self.record(3, .store, "m", storage: .memory))
            sources.note(Self.record(4, .store, "n", storage: AuditStorage.none))
            sources.note(Self.record(5, .store, "r", storage: .memory))
            sources.note(Self.record(6, .evict, "r", storage: .memory))
            sources.note(Self.record(7, event, nil, storage: nil, tier: nil))
            #expect(sources.source(of: digest("d"))?.seq == 1)
            #expect(sources.source(of: digest("e"))?.seq == 2)
            #expect(sources.source(of: digest("m")) == nil)
            #expect(sources.source(of: digest("n")) == nil)
            #expect(sources.source(of: digest("r")) == nil)
            #expect(sources.liveCount == 2)
        }
    }

    @Test func aRemovedSourceIsFoundForTheLastWindowOfRemovals() {
        var sources = VariantSources()
        sources.note(Self.record(1, .store, "s"))
        sources.note(Self.record(2, .expire, "s"))
        #expect(sources.liveCount == 0)
        #expect(sources.source(of: digest("s"))?.seq == 1)
        var seq = 3
        for index in 1..<VariantSources.removedWindow {
            sources.note(Self.record(seq, .store, "k\(index)"))
            sources.note(Self.record(seq + 1, .evict, "k\(index)"))
            seq += 2
        }
        #expect(sources.source(of: digest("s"))?.seq == 1)  // the window's oldest removal
        sources.note(Self.record(seq, .purge, "k1"))  // a key not live: no removal to remember
        #expect(sources.source(of: digest("s"))?.seq == 1)
        sources.note(Self.record(seq, .store, "last"))
        sources.note(Self.record(seq + 1, .shred, "last"))
        #expect(sources.source(of: digest("s")) == nil)
        #expect(sources.source(of: digest("k1"))?.seq == 3)
        #expect(sources.liveCount == 0)
    }

    @Test func aKeyRemovedAgainKeepsItsLaterRemoval() {
        var sources = VariantSources()
        sources.note(Self.record(1, .store, "s"))
        sources.note(Self.record(2, .evict, "s"))
        sources.note(Self.record(3, .store, "s", storage: .memory))
        sources.note(Self.record(4, .evict, "s"))
        // The first removal's slot leaves the window first; the key stays, as its second removal.
        var seq = 5
        for index in 1..<VariantSources.removedWindow {
            sources.note(Self.record(seq, .store, "k\(index)"))
            sources.note(Self.record(seq + 1, .evict, "k\(index)"))
            seq += 2
        }
        #expect(sources.source(of: digest("s")) == VariantSources.Source(
            storage: .memory, tier: "public", partitionPrefix: nil, seq: 3))
        sources.note(Self.record(seq, .store, "last"))
        sources.note(Self.record(seq + 1, .evict, "last"))
        #expect(sources.source(of: digest("s")) == nil)
    }

    @Test func memoryFollowsTheLiveKeysNotTheLog() {
        var sources = VariantSources()
        for index in 0..<20_000 {
            sources.note(Self.record(2 * index + 1, .store, "k\(index)"))
            if index >= 10 { sources.note(Self.record(2 * index + 2, .evict, "k\(index - 10)")) }
        }
        #expect(sources.liveCount == 10)
        #expect(sources.source(of: digest("k19999"))?.seq == 39_999)
    }
}
