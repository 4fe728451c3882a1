/// A sealed file whose data key the log says was destroyed (`shred` `partition-key-destroyed` with its `keyId`): a
/// purge destroyed its partition's keys and the file outlived its removal (a crash between the two, a failed unlink).
/// Nobody can open it, so it is a note, not a violation; the service's next start shreds it.
public struct ShreddedRemnant: Hashable, Sendable, Codable {
    /// The file's path relative to the state directory.
    public var path: String
    /// The id of the destroyed key named in its header.
    public var keyId: String
    /// `seq` of the `shred` record of the key.
    public var seq: Int

    public init(path: String, keyId: String, seq: Int) {
        (self.path, self.keyId, self.seq) = (path, keyId, seq)
    }

    /// The note's line: `shredded-remnant sealed/private/ab/cd/<name>: its data key 0123… was destroyed at seq 42 …`.
    public var line: String {
        "shredded-remnant \(path): its data key \(keyId) was destroyed at seq \(seq) (a purge of its partition); "
            + "nobody can open it, and the next start removes it"
    }
}
