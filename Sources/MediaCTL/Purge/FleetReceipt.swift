import Foundation
import MediaCore

/// The receipt file of `purge --receipt FILE --replicas R`: one entry per replica, in the replicas file's order, with
/// its status and, when it purged, its signed receipt (docs/audit-format.md, "Erasure receipts"):
/// `{"replicas":[{"receipt":{…},"replica":"http://10.0.0.11:9091","status":"purged"},
/// {"replica":"http://10.0.0.12:9091","status":"failed: …"}]}`. `audit verify-receipt FILE --state-dir D` checks the
/// entry whose receipt is signed by D's log.
enum FleetReceipt {
    /// Writes the file.
    /// - Throws: ``CommandError`` `unwritable-file` (exit 2).
    static func write(replicas: [PurgeReplicasFile.Replica], answered: [(PurgeFanOut.Outcome, [UInt8]?)],
                      to path: String) throws(CommandError) {
        var entries: [String] = []
        for (replica, (outcome, body)) in zip(replicas, answered) {
            let name = JSONString.quoted(replica.url, escapingSlashes: false)
            switch outcome {
            case .purged:
                guard let body, let receipt = PurgeCommand.receiptMember(of: body) else {
                    entries.append("{\"replica\":\(name),\"status\":\"failed: the answer has no receipt\"}")
                    continue
                }
                entries.append("{\"receipt\":\(receipt),\"replica\":\(name),\"status\":\"purged\"}")
            case .failed(let reason):
                entries.append("{\"replica\":\(name),\"status\":\(JSONString.quoted("failed: " + reason, escapingSlashes: false))}")
            }
        }
        let text = "{\"replicas\":[" + entries.joined(separator: ",") + "]}\n"
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw CommandError(.unwritableFile, "cannot write the receipt to '\(path)': \(error.localizedDescription)", exitCode: .unusableInput)
        }
    }
}
