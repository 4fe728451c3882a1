import Foundation
import Glibc

/// What `mediactl audit prune` leaves in place of the rotated segments it removes: where the chain
/// continues, and the records of the objects still stored at that point (docs/audit-format.md,
/// "Retention").
///
/// File `<audit>/checkpoint.json`, mode 0600, written atomically (temp file, fsync, rename, fsync of the
/// folder); one JSON object with sorted keys:
/// `{"objects":["<record line>",…],"segment":N,"seq":S,"hash":"<hex>"}` where `seq` and `hash` are those
/// of the last removed record, `segment` the number of the last removed segment, and `objects` the
/// canonical lines (with their hashes) of the last `store`, then any later `update`, of every key whose
/// last record before `seq` left it stored in `disk` or `encrypted-disk`, in `seq` order.
/// The verifier continues the chain from `seq` + 1 and `prev` = `hash`; the reconciliation starts from
/// `objects`.
public struct AuditCheckpoint: Hashable, Sendable {
    /// The file name inside the audit folder.
    public static let fileName = "checkpoint.json"

    /// `seq` of the last removed record.
    public var seq: Int
    /// `hash` of the last removed record: the `prev` of the first record kept.
    public var hash: AuditDigest
    /// Number of the last removed segment (`audit-NNNNNN.jsonl`).
    public var segment: Int
    /// The records of the objects still stored after `seq`: per key its last `store`, then any later
    /// `update`, in `seq` order.
    public var objects: [AuditRecord]

    public init(seq: Int, hash: AuditDigest, segment: Int, objects: [AuditRecord]) {
        self.seq = seq
        self.hash = hash
        self.segment = segment
        self.objects = objects
    }

    /// The checkpoint of the audit folder `directory`, or `nil` when there is none.
    /// - Throws: ``AuditError/Code/io`` when it cannot be read; ``AuditError/Code/corruptLog`` when it
    ///   is not a checkpoint document or one of its records does not parse or hash.
    public static func read(directory: String) throws -> AuditCheckpoint? {
        let path = directory + "/" + fileName
        guard let bytes = try AuditFiles.read(path) else { return nil }
        func corrupt(_ why: String) -> AuditError { AuditError(.corruptLog, "\(path): \(why)") }
        guard let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] else {
            throw corrupt("not a JSON object")
        }
        guard Set(object.keys) == ["seq", "hash", "segment", "objects"] else {
            throw corrupt("keys must be exactly hash, objects, segment, seq")
        }
        guard let seq = object["seq"] as? Int, seq >= 1, let segment = object["segment"] as? Int, segment >= 1,
              let hashText = object["hash"] as? String, let hash = try? AuditDigest(hex: hashText),
              let lines = object["objects"] as? [String]
        else { throw corrupt("seq and segment must be integers >= 1, hash a digest, objects an array of strings") }
        var objects: [AuditRecord] = []
        for (index, line) in lines.enumerated() {
            guard let record = try? AuditRecord.parse(line: line), record.computedHash == record.hash,
                  record.seq <= seq, line == record.canonicalJSON(includingHash: true)
            else { throw corrupt("objects[\(index)] is not a canonical record with a valid hash at or before seq \(seq)") }
            objects.append(record)
        }
        return AuditCheckpoint(seq: seq, hash: hash, segment: segment, objects: objects)
    }

    /// The file's bytes: one line of JSON with sorted keys, ending in `\n`.
    public var encoded: [UInt8] {
        let lines = objects.map { "\"" + $0.canonicalJSON(includingHash: true).jsonEscaped + "\"" }
        let text = "{\"hash\":\"\(hash.hex)\",\"objects\":[\(lines.joined(separator: ","))],"
            + "\"segment\":\(segment),\"seq\":\(seq)}\n"
        return Array(text.utf8)
    }

    /// Writes `<directory>/checkpoint.json` atomically (temp file 0600, fsync, rename, fsync of the folder).
    /// - Throws: ``AuditError/Code/io``.
    public func write(directory: String) throws {
        let path = directory + "/" + Self.fileName
        let temporary = path + ".tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw AuditFiles.ioError("open", temporary) }
        do {
            try AuditFiles.writeAll(fd, encoded, path: temporary)
            try AuditFiles.sync(fd, path: temporary)
        } catch {
            Glibc.close(fd)
            unlink(temporary)
            throw error
        }
        Glibc.close(fd)
        guard rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw AuditFiles.ioError("rename", temporary, code)
        }
        try AuditFiles.syncDirectory(directory)
    }
}

extension String {
    /// The text as the inside of a JSON string: `"` and `\` escaped (a canonical record line has no
    /// control characters and is ASCII).
    fileprivate var jsonEscaped: String {
        var out = ""
        for character in self {
            switch character {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            default: out.append(character)
            }
        }
        return out
    }
}
