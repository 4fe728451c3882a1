import MediaSigning
import Synchronization

/// Signed request targets already verified under one policy snapshot (its keys), with what admission made of them:
/// the route match without the signature parameters and the subject's partition. A hit skips parsing, both HMACs
/// and the match rebuild; the expiry is checked again on every request (the lifetime check only gets easier with
/// time). A reload makes a new snapshot, so a key removed from its file stops verifying at once. At most
/// ``capacity`` targets (all are forgotten when a new one would exceed it).
final class SignatureCache: Sendable {
    static let capacity = 4096

    struct Entry: Sendable {
        let signature: VerifiedSignature
        let match: RouteMatch
        let partition: String
    }

    private let table = Mutex<[String: Entry]>([:])

    func entry(for target: String) -> Entry? { table.withLock { $0[target] } }

    func keep(_ entry: Entry, for target: String) {
        table.withLock { table in
            if table.count >= Self.capacity && table[target] == nil { table.removeAll(keepingCapacity: true) }
            table[target] = entry
        }
    }
}
