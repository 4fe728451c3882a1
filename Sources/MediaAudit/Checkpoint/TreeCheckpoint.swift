import Foundation
import MediaCore
import MediaCrypto

/// A checkpoint of the audit log's Merkle tree (``MerkleTree``) in the C2SP tlog-checkpoint format
/// (https://c2sp.org/tlog-checkpoint): the text of a signed note (``NoteSigner``) of three lines, each ending in a
/// newline: the log's origin, the tree size in decimal, and the root hash in standard base64.
///
/// ```
/// mediactl.local/audit/3f2a…
/// 4096
/// Xy0k…=
/// ```
public struct TreeCheckpoint: Hashable, Sendable {
    /// The log's origin line (a name unique to the log, its key's name as well), the number of records the tree
    /// covers, and MTH of their leaf hashes.
    public var origin: String, size: Int, root: SHA256Digest

    public init(origin: String, size: Int, root: SHA256Digest) {
        (self.origin, self.size, self.root) = (origin, size, root)
    }

    /// The note text.
    public var text: String {
        origin + "\n" + String(size) + "\n" + Data(root.bytes).base64EncodedString() + "\n"
    }

    /// The checkpoint in a note's text (``NoteVerifier/open(_:)``); extension lines after the root are ignored.
    /// - Throws: ``AuditError`` `invalid-note` naming the line that is wrong.
    public init(text: String) throws(AuditError) {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard text.hasSuffix("\n"), lines.count >= 4 else {
            throw AuditError(.invalidNote, "a checkpoint is an origin, a size and a root hash, one a line")
        }
        guard !lines[0].isEmpty else { throw AuditError(.invalidNote, "the checkpoint's origin line is empty") }
        guard let size = Int(lines[1]), size >= 0, String(size) == lines[1] else {
            throw AuditError(.invalidNote, "the checkpoint's size is not a decimal number without leading zeros")
        }
        guard let root = Data(base64Encoded: String(lines[2])), root.count == 32 else {
            throw AuditError(.invalidNote, "the checkpoint's root is not the base64 of 32 bytes")
        }
        self.init(origin: String(lines[0]), size: size, root: SHA256Digest(bytes: Array(root)))
    }
}
