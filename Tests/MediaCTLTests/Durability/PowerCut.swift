import Foundation
import MediaAudit
import MediaStorage
import Synchronization

/// Cuts the power, in simulation, right before every write point of a service's file stores and audit log.
///
/// At each point (a ``FileWritePoint``, or an ``AuditWritePoint`` `will…`) it copies the state directory as a
/// power loss there would leave it, at worst: every file renamed into place so far is kept (a rename may be
/// made durable by the file system at any moment after it is issued, folder fsync or not), temp files are
/// kept (the inventory ignores them), and `audit.jsonl` is cut to the bytes its last *returned* fsync covered
/// (everything after may be lost). Rotated segments were fsynced before their rename and are kept whole.
/// The run itself goes on, so one run yields the crash state of every point, in order.
///
/// It also checks the ordering directly, on the sequence of points: when a file is renamed into place, its
/// temp file was fsynced and the entry's last `store`/`update` record is already durable.
final class PowerCut: FileWriteObserver, AuditWriteObserver {
    /// One simulated crash: the state directory as the power loss before `point` leaves it.
    struct Snapshot: Sendable {
        let index: Int
        let point: String
        let stateDirectory: String
    }

    struct Model {
        /// Records up to this `seq` are durable.
        var durableSeq = 0
        /// Bytes of `audit.jsonl` its last returned fsync covered.
        var durableBytes = 0
        /// Key digest → `seq` of the last `store` or `update` record written for it.
        var lastWrite: [String: Int] = [:]
        /// Digests whose temp file is written and fsynced, not renamed yet.
        var syncedTemporaries: Set<String> = []
        var orderViolations: [String] = []
        var snapshots: [Snapshot] = []
        var kinds: Set<String> = []
    }

    let stateDirectory: String
    let snapshotRoot: String
    let model = Mutex(Model())

    init(stateDirectory: String, snapshotRoot: String) throws {
        self.stateDirectory = stateDirectory
        self.snapshotRoot = snapshotRoot
        try FileManager.default.createDirectory(atPath: snapshotRoot, withIntermediateDirectories: true)
    }

    var snapshots: [Snapshot] { model.withLock { $0.snapshots } }
    var orderViolations: [String] { model.withLock { $0.orderViolations } }
    /// The kinds of points reached (`rename`, `will-append`, …).
    var kinds: Set<String> { model.withLock { $0.kinds } }

    func willReach(_ point: FileWritePoint) {
        model.withLock { model in
            cut(before: point.description, kind: point.kind.rawValue, &model)
            switch point.kind {
            case .writeTemporary: model.syncedTemporaries.remove(point.digest)
            case .syncTemporary: model.syncedTemporaries.insert(point.digest)
            case .rename:
                if !model.syncedTemporaries.contains(point.digest) {
                    model.orderViolations.append("\(point): renamed before its temp file was fsynced")
                }
                model.syncedTemporaries.remove(point.digest)
                guard let seq = model.lastWrite[point.digest] else {
                    model.orderViolations.append("\(point): renamed with no store or update record")
                    return
                }
                if seq > model.durableSeq {
                    model.orderViolations.append("\(point): renamed while its record \(seq) is not durable (durable: \(model.durableSeq))")
                }
            case .syncFolder, .unlink: break
            }
        }
    }

    func reached(_ point: AuditWritePoint) {
        model.withLock { model in
            switch point {
            case .willAppend(let records, let endOffset):
                cut(before: "audit append \(records.map(\.seq)) → \(endOffset) bytes", kind: "will-append", &model)
                for record in records where record.event == .store || record.event == .update {
                    if let key = record.key?.hex { model.lastWrite[key] = record.seq }
                }
            case .willSync(let seq, let bytes):
                cut(before: "audit fsync through \(seq) (\(bytes) bytes)", kind: "will-sync", &model)
            case .synced(let seq, let bytes):
                model.durableSeq = max(model.durableSeq, seq)
                model.durableBytes = max(model.durableBytes, bytes)
            case .willRotate(let segment):
                cut(before: "audit rotate to \(segment)", kind: "will-rotate", &model)
            case .rotated:
                model.durableBytes = 0
            }
        }
    }

    /// Copies the state directory as a power loss right now leaves it (see the type's documentation).
    private func cut(before point: String, kind: String, _ model: inout Model) {
        model.kinds.insert(kind)
        let index = model.snapshots.count
        let target = "\(snapshotRoot)/\(index)"
        let files = FileManager.default
        do {
            try files.createDirectory(atPath: target, withIntermediateDirectories: false)
            for folder in ["disk", "sealed", "keys"] where files.fileExists(atPath: "\(stateDirectory)/\(folder)") {
                try files.copyItem(atPath: "\(stateDirectory)/\(folder)", toPath: "\(target)/\(folder)")
            }
            try files.createDirectory(atPath: "\(target)/audit", withIntermediateDirectories: false)
            for name in try files.contentsOfDirectory(atPath: "\(stateDirectory)/audit") {
                let copy = "\(target)/audit/\(name)"
                try files.copyItem(atPath: "\(stateDirectory)/audit/\(name)", toPath: copy)
                if name == "audit.jsonl" { truncate(copy, off_t(model.durableBytes)) }
            }
        } catch {
            model.orderViolations.append("snapshot \(index) before \(point) failed: \(error)")
        }
        model.snapshots.append(Snapshot(index: index, point: point, stateDirectory: target))
    }
}
