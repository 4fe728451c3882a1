import Foundation
import Glibc
import MediaCrypto

/// What `mediactl audit prune` leaves in place of the rotated segments it removes: where the chain
/// continues, and the records of the objects still stored at that point (docs/audit-format.md,
/// "Retention").
///
/// Two files in the audit folder, both mode 0600 and written atomically (temp file, fsync, rename, fsync of
/// the folder):
/// - `checkpoint.json`, one line of JSON with sorted keys:
///   `{"hash":"<hex>","objects":N,"objectsDigest":"<hex>","segment":S,"seq":Q}`: `seq` and `hash` of the
///   last removed record, `segment` the number of the last removed segment, and the count and SHA-256
///   of the objects file;
/// - `checkpoint-<segment, 6 digits>.jsonl`: the canonical lines (with their hashes) of the last `store`,
///   then any later `update`, of every key whose last record up to `seq` left it stored in `disk` or
///   `encrypted-disk`, in `seq` order, one per line.
///
/// The verifier continues the chain from `seq` + 1 and `prev` = `hash`; the reconciliation streams the
/// objects file.
public struct AuditCheckpoint: Hashable, Sendable {
    /// The file name of the checkpoint inside the audit folder.
    public static let fileName = "checkpoint.json"

    /// `seq` of the last removed record.
    public var seq: Int
    /// `hash` of the last removed record: the `prev` of the first record kept.
    public var hash: AuditDigest
    /// Number of the last removed segment (`audit-NNNNNN.jsonl`); also names the objects file.
    public var segment: Int
    /// Lines in the objects file.
    public var objectCount: Int
    /// SHA-256 of the objects file's bytes.
    public var objectsDigest: AuditDigest

    /// `checkpoint-NNNNNN.jsonl` for a segment number.
    public static func objectsFileName(segment: Int) -> String {
        "checkpoint-" + AuditFiles.segmentName(segment).dropFirst("audit-".count)
    }

    /// The objects file's name.
    public var objectsFileName: String { Self.objectsFileName(segment: segment) }

    /// The checkpoint of the audit folder `directory`, or `nil` when there is none.
    /// - Throws: ``AuditError/Code/io`` when it cannot be read; ``AuditError/Code/corruptLog`` when it
    ///   is not a checkpoint document.
    public static func read(directory: String) throws -> AuditCheckpoint? {
        let path = directory + "/" + fileName
        guard let bytes = try AuditFiles.read(path) else { return nil }
        func corrupt(_ why: String) -> AuditError { AuditError(.corruptLog, "\(path): \(why)") }
        guard let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] else {
            throw corrupt("not a JSON object")
        }
        guard Set(object.keys) == ["seq", "hash", "segment", "objects", "objectsDigest"] else {
            throw corrupt("keys must be exactly hash, objects, objectsDigest, segment, seq")
        }
        guard let seq = object["seq"] as? Int, seq >= 1, let segment = object["segment"] as? Int, segment >= 1,
              let count = object["objects"] as? Int, count >= 0,
              let hashText = object["hash"] as? String, let hash = try? AuditDigest(hex: hashText),
              let digestText = object["objectsDigest"] as? String, let digest = try? AuditDigest(hex: digestText)
        else { throw corrupt("seq and segment must be integers >= 1, objects >= 0, hash and objectsDigest digests") }
        let checkpoint = AuditCheckpoint(seq: seq, hash: hash, segment: segment, objectCount: count, objectsDigest: digest)
        guard bytes == checkpoint.encoded else { throw corrupt("not in canonical form") }
        return checkpoint
    }

    /// The checkpoint's bytes: one line of JSON with sorted keys, ending in `\n`.
    public var encoded: [UInt8] {
        Array(("{\"hash\":\"\(hash.hex)\",\"objects\":\(objectCount),\"objectsDigest\":\"\(objectsDigest.hex)\","
            + "\"segment\":\(segment),\"seq\":\(seq)}\n").utf8)
    }

    /// Streams the objects file, checking its digest and count, and, when `body` is given, that every
    /// line is a canonical record with a valid hash at or before ``seq`` (then handed to `body`, in order).
    /// Memory: one read chunk and one line.
    /// - Throws: ``AuditError/Code/corruptLog`` naming the file and the first defect (also when it is
    ///   missing); ``AuditError/Code/io``; what `body` throws.
    public func forEachObject(directory: String, _ body: ((AuditRecord) throws -> Void)? = nil) throws {
        let path = directory + "/" + objectsFileName
        func corrupt(_ why: String) -> AuditError { AuditError(.corruptLog, "\(path): \(why)") }
        guard access(path, F_OK) == 0 else { throw corrupt("missing (named by \(Self.fileName))") }
        var hasher = SHA256()
        var count = 0
        try AuditReader.forEachLine(files: [path]) { line in
            hasher.update(Array(line.text.utf8) + (line.terminated ? [0x0a] : []))
            count += 1
            guard let body else { return }
            guard line.terminated, let record = try? AuditRecord.parse(line: line.text),
                  record.computedHash == record.hash, record.seq <= seq,
                  line.text == record.canonicalJSON(includingHash: true)
            else { throw corrupt("line \(line.number) is not a canonical record with a valid hash at or before seq \(seq)") }
            try body(record)
        }
        let digest = AuditDigest(hasher.finalize())
        guard count == objectCount, digest == objectsDigest else {
            throw corrupt("\(count) lines with SHA-256 \(digest.hex); \(Self.fileName) says \(objectCount) and \(objectsDigest.hex)")
        }
    }

    /// Writes the objects file for `segment` from `lines` (canonical record lines, in order), then the
    /// checkpoint, both atomically. Returns the checkpoint written.
    /// - Throws: ``AuditError/Code/io``.
    static func write(
        directory: String, seq: Int, hash: AuditDigest, segment: Int, objectLines: [String]
    ) throws -> AuditCheckpoint {
        var hasher = SHA256()
        var bytes: [UInt8] = []
        bytes.reserveCapacity(objectLines.reduce(0) { $0 + $1.utf8.count + 1 })
        for line in objectLines {
            bytes += line.utf8
            bytes.append(0x0a)
        }
        hasher.update(bytes)
        let checkpoint = AuditCheckpoint(
            seq: seq, hash: hash, segment: segment, objectCount: objectLines.count,
            objectsDigest: AuditDigest(hasher.finalize()))
        try AuditFiles.writeAtomically(bytes, to: directory + "/" + checkpoint.objectsFileName)
        try AuditFiles.syncDirectory(directory)  // the objects file is durable before the checkpoint names it
        try AuditFiles.writeAtomically(checkpoint.encoded, to: directory + "/" + fileName)
        try AuditFiles.syncDirectory(directory)
        return checkpoint
    }
}
