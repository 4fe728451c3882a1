import Foundation
import MediaCrypto

/// A signed erasure receipt: what `mediactl purge --credential-file F | --subject S --receipt FILE` writes, and
/// `mediactl audit verify-receipt` checks (docs/audit-format.md, "Erasure receipts").
///
/// The file is one JSON object, `{"receipt":{…},"signature":"— <log> <base64>"}`. The receipt holds the partition's
/// keyed digest (never the credential, subject or a path), the objects and bytes removed per tier (derived images
/// included), the data keys destroyed, the time, and the purge's proof bundle in the shape of C2SP tlog-proof: the leaf
/// index of the purge's summary record, its inclusion proof, and the signed checkpoint that includes it. The signature
/// is a C2SP signed-note signature by the log's key over the receipt's canonical JSON (``CanonicalJSONText``) and a
/// newline, so the note `<canonical JSON>\n\n<signature>\n` opens with the log's verifier key.
public struct ErasureReceipt: Hashable, Sendable {
    /// What one tier removed.
    public struct Removal: Hashable, Sendable {
        public var tier: String
        public var objects: Int
        public var bytes: Int

        public init(tier: String, objects: Int, bytes: Int) { (self.tier, self.objects, self.bytes) = (tier, objects, bytes) }
    }

    /// The format version: 1.
    public static let version = 1

    /// The log's origin (its key's name).
    public var log: String
    /// The partition's keyed digest (64 hex), as the audit records name it.
    public var partition: String
    /// The purge's reason: `purge-credential` or `purge-subject`.
    public var reason: String
    /// When the purge was recorded (RFC 3339, the summary record's `time`).
    public var purgedAt: String
    /// The objects and bytes removed, per tier, by tier name.
    public var removed: [Removal]
    /// The ids of the data keys destroyed (16 hex digits each).
    public var destroyedKeys: [String]
    /// The purge summary record's inclusion proof and the signed checkpoint it leads to.
    public var proof: TlogProof
    /// The purge summary record's line as written: its `hash` gives the proof's leaf, so the receipt is checked
    /// offline without the log (`docs/verify_audit.py receipt`).
    public var record: String

    public init(log: String, partition: String, reason: String, purgedAt: String, removed: [Removal],
                destroyedKeys: [String], proof: TlogProof, record: String) {
        self.record = record
        (self.log, self.partition, self.reason, self.purgedAt) = (log, partition, reason, purgedAt)
        (self.removed, self.destroyedKeys, self.proof) = (removed.sorted { $0.tier < $1.tier }, destroyedKeys, proof)
    }

    /// The receipt's canonical JSON (the signed bytes, without the newline).
    public var canonicalJSON: String {
        typealias J = CanonicalJSONText
        return J.object([
            ("version", String(Self.version)), ("log", J.string(log)), ("partition", J.string(partition)),
            ("reason", J.string(reason)), ("purgedAt", J.string(purgedAt)),
            ("removed", J.array(removed.map { J.object([("tier", J.string($0.tier)), ("objects", String($0.objects)),
                                                        ("bytes", String($0.bytes))]) })),
            ("destroyedKeys", J.array(destroyedKeys.map(J.string))), ("index", String(proof.index)),
            ("proof", J.array(proof.proof.map { J.string(Data($0.bytes).base64EncodedString()) })),
            ("checkpoint", J.string(proof.checkpoint)), ("record", J.string(record)),
        ])
    }

    /// The receipt file's text: the receipt and its signature by `signer`, one line.
    /// - Throws: ``AuditError`` `invalid-note` when signing fails.
    public func signed(by signer: NoteSigner) throws(AuditError) -> String {
        let line = try signer.signatureLine(for: canonicalJSON + "\n")
        return CanonicalJSONText.object([("receipt", canonicalJSON), ("signature", CanonicalJSONText.string(String(line.dropLast())))]) + "\n"
    }

    /// The receipt in a receipt file's `text`, its signature checked with `verifier`.
    /// - Throws: ``AuditError`` `invalid-receipt` naming the member that is missing or malformed; `invalid-note` when
    ///   the signature does not verify (any changed value changes the signed bytes).
    public static func open(_ text: String, verifier: NoteVerifier) throws(AuditError) -> ErasureReceipt {
        func invalid(_ why: String) -> AuditError { AuditError(.invalidReceipt, why) }
        guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
              let body = object["receipt"] as? [String: Any], let signature = object["signature"] as? String,
              object.count == 2 else {
            throw invalid("a receipt is a JSON object with receipt (an object) and signature (a string)")
        }
        func string(_ name: String) throws(AuditError) -> String {
            guard let value = body[name] as? String else { throw invalid("receipt.\(name) is not a string") }
            return value
        }
        func integer(_ value: Any?, _ name: String) throws(AuditError) -> Int {
            guard let number = value as? NSNumber, ["s", "i", "l", "q", "S", "I", "L", "Q"].contains(String(cString: number.objCType)),
                  number.intValue >= 0 else { throw invalid("\(name) is not a non-negative integer") }
            return number.intValue
        }
        guard try integer(body["version"], "receipt.version") == version else {
            throw invalid("receipt.version is not \(version)")
        }
        guard let removedItems = body["removed"] as? [[String: Any]] else { throw invalid("receipt.removed is not an array of objects") }
        var removed: [Removal] = []
        for item in removedItems {
            guard let tier = item["tier"] as? String, item.count == 3 else { throw invalid("receipt.removed has an entry without tier, objects and bytes") }
            removed.append(Removal(tier: tier, objects: try integer(item["objects"], "receipt.removed.objects"),
                                   bytes: try integer(item["bytes"], "receipt.removed.bytes")))
        }
        guard let keys = body["destroyedKeys"] as? [String] else { throw invalid("receipt.destroyedKeys is not an array of strings") }
        guard let proofItems = body["proof"] as? [String] else { throw invalid("receipt.proof is not an array of strings") }
        var hashes: [SHA256Digest] = []
        for item in proofItems {
            guard let hash = Data(base64Encoded: item), hash.count == 32 else { throw invalid("receipt.proof holds a hash that is not the base64 of 32 bytes") }
            hashes.append(SHA256Digest(bytes: Array(hash)))
        }
        let receipt = ErasureReceipt(
            log: try string("log"), partition: try string("partition"), reason: try string("reason"),
            purgedAt: try string("purgedAt"), removed: removed, destroyedKeys: keys,
            proof: TlogProof(index: try integer(body["index"], "receipt.index"), proof: hashes, checkpoint: try string("checkpoint")),
            record: try string("record"))
        guard body.count == 11 else { throw invalid("the receipt has members other than the 11 of version 1") }
        _ = try verifier.open(receipt.canonicalJSON + "\n\n" + signature + "\n")
        return receipt
    }
}
