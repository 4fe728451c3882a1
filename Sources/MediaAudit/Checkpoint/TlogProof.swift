import Foundation
import MediaCrypto

/// A proof that a record is in the audit log, in the C2SP tlog-proof format (https://c2sp.org/tlog-proof): the
/// header line `c2sp.org/tlog-proof@v1`, `index N` (the record's leaf index: its `seq` − 1), the inclusion proof's
/// hashes in base64, one a line, a blank line, then the signed checkpoint (``TreeCheckpoint``) the proof is for.
/// Offline-verifiable with the log's verifier key and SHA-256 alone.
public struct TlogProof: Hashable, Sendable {
    /// The header line.
    public static let header = "c2sp.org/tlog-proof@v1"

    /// The leaf index of the record.
    public var index: Int
    /// The inclusion proof (RFC 9162 §2.1.3), from the leaf's sibling up.
    public var proof: [SHA256Digest]
    /// The signed checkpoint note the proof leads to.
    public var checkpoint: String

    public init(index: Int, proof: [SHA256Digest], checkpoint: String) {
        self.index = index
        self.proof = proof
        self.checkpoint = checkpoint
    }

    /// The proof's text.
    public var text: String {
        var lines = [Self.header, "index \(index)"]
        lines += proof.map { Data($0.bytes).base64EncodedString() }
        return lines.joined(separator: "\n") + "\n\n" + checkpoint
    }

    /// Parses a proof's text (the checkpoint is not opened here).
    /// - Throws: ``AuditError`` `invalid-note` naming what is wrong.
    public init(text: String) throws(AuditError) {
        guard let split = text.range(of: "\n\n") else {
            throw AuditError(.invalidNote, "a tlog proof has no blank line before its checkpoint")
        }
        let lines = text[..<split.lowerBound].split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.first == Substring(Self.header) else {
            throw AuditError(.invalidNote, "a tlog proof starts with '\(Self.header)'")
        }
        var rest = lines.dropFirst()
        if rest.first?.hasPrefix("extra ") == true { rest = rest.dropFirst() }
        guard let indexLine = rest.first, indexLine.hasPrefix("index "), let index = Int(indexLine.dropFirst(6)),
              index >= 0, String(index) == indexLine.dropFirst(6) else {
            throw AuditError(.invalidNote, "a tlog proof's index line is 'index N'")
        }
        var proof: [SHA256Digest] = []
        for line in rest.dropFirst() {
            guard let hash = Data(base64Encoded: String(line)), hash.count == 32 else {
                throw AuditError(.invalidNote, "a tlog proof's hash line is not the base64 of 32 bytes")
            }
            proof.append(SHA256Digest(bytes: Array(hash)))
        }
        self.init(index: index, proof: proof, checkpoint: String(text[split.upperBound...]))
    }
}
