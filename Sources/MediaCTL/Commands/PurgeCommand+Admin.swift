import Foundation
import MediaPolicy
import MediaService
import MediaSigning

/// What `purge` and `reload` say to the running service's admin listener, and how its answers read.
extension PurgeCommand {
    /// The `serve.json` of the service running on `state` and its admin listener's address.
    /// - Throws: ``CommandError`` (exit 2): no state directory, no `serve.json`, a `serve.json` whose process is
    ///   gone, no admin listener (``noService(_:_:)``, ``adminAddress(_:state:)``).
    static func runningService(_ state: String) throws(CommandError) -> (serve: ServeStateFile, admin: String) {
        try StateDirectoryCheck.requireExisting(state)
        guard let serve = try ServeStateFile.read(stateDirectory: state) else {
            throw noService(state, "no serve.json")
        }
        guard isRunning(serve.pid) else {
            throw noService(state, "serve.json names pid \(serve.pid), which is not running")
        }
        return (serve, try adminAddress(serve, state: state))
    }

    /// The JSON body for `target`; a credential file is read here (its token only ever goes to the service).
    /// - Throws: what ``CredentialFile/readToken(atPath:)`` throws.
    static func requestBody(_ target: PurgeCommand.Target, soft: Bool = false, receipt: Bool = false) throws(CommandError) -> [UInt8] {
        var object: [String: Any]
        switch target {
        case .route(let name): object = ["route": name]
        case .credentialFile(let path): object = ["credential": try CredentialFile.readToken(atPath: path)]
        case .subject(let subject): object = ["subject": subject]
        case .url(let url): object = ["url": url]
        case .tag(let tag): object = soft ? ["tag": tag, "soft": true] : ["tag": tag]
        case .all: object = ["all": true]
        }
        if receipt { object["receipt"] = true }
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return [UInt8](data)
    }

    /// What a purge of `count` entries did: `purged 3 entries`, or with `soft` `marked 3 entries stale`.
    static func done(_ count: Int, soft: Bool) -> String {
        let entries = "\(count) \(count == 1 ? "entry" : "entries")"
        return soft ? "marked \(entries) stale" : "purged \(entries)"
    }

    /// The `purged` count of a 200 answer.
    /// - Throws: ``CommandError`` `service-refused` for any other answer.
    static func purgedCount(_ answer: PurgeClient.Answer, listen: String) throws(CommandError) -> Int {
        let json = try? JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any]
        if answer.status == 200, let count = json?["purged"] as? Int { return count }
        let code = json?["code"] as? String ?? "unexpected-answer"
        let detail = json?["detail"] as? String ?? "\(answer.body.count) bytes of unexpected body"
        let exitCode: ExitCode = [400, 401, 404, 413].contains(answer.status) ? .unusableInput : .failure
        throw CommandError(
            .serviceRefused, "the service at \(listen) refused the purge: \(answer.status) \(code): \(detail)",
            exitCode: exitCode)
    }

    /// Writes the `receipt` member of a 200 answer to `path`, byte for byte as the service signed it.
    /// - Throws: ``CommandError`` `service-refused` (exit 1) when the answer has no receipt; `unwritable-file` (exit 2).
    static func writeReceipt(_ answer: PurgeClient.Answer, to path: String, listen: String) throws(CommandError) {
        guard let member = receiptMember(of: answer.body) else {
            throw CommandError(.serviceRefused, "the service at \(listen) answered the purge without a receipt", exitCode: .failure)
        }
        let receipt = member + "\n"
        do {
            try Data(receipt.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw CommandError(.unwritableFile, "cannot write the receipt to '\(path)': \(error.localizedDescription)", exitCode: .unusableInput)
        }
    }

    /// The `receipt` member of a purge answer (`{"purged":N,"receipt":{…}}`), byte for byte, or `nil`.
    static func receiptMember(of body: [UInt8]) -> String? {
        let text = String(decoding: body, as: UTF8.self)
        guard let start = text.range(of: ",\"receipt\":"), text.hasSuffix("}") else { return nil }
        return String(text[start.upperBound..<text.index(before: text.endIndex)])
    }

    /// Where the admin endpoints of `serve` listen: `admin`, else (a serve.json of an earlier version, whose
    /// `serve` answered them on its public port) `listen`.
    /// - Throws: ``CommandError`` `no-admin-listener` (exit 2) when serve.json says the admin listener is off.
    static func adminAddress(_ serve: ServeStateFile, state: String) throws(CommandError) -> String {
        guard let admin = serve.admin else { return serve.listen }
        if admin == ServeStateFile.adminOff {
            throw CommandError(
                .noAdminListener, "the service for state directory \(state) runs without an admin listener (--admin-listen off)",
                exitCode: .unusableInput)
        }
        return admin
    }

    /// Whether process `pid` exists (`kill(pid, 0)`: success or `EPERM`).
    static func isRunning(_ pid: Int32) -> Bool {
        guard pid > 0 else { return false }
        return kill(pid, 0) == 0 || errno == EPERM
    }

    static func noService(_ state: String, _ why: String) -> CommandError {
        CommandError(
            .noRunningService, "no running service for state directory \(state) (\(why))", exitCode: .unusableInput)
    }
}
