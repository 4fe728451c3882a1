import Foundation
import HTTPCaching
import MediaCore
import MediaService

/// The requests of `warm`: the list read, sent `concurrency` at a time, each outcome recorded.
extension WarmCommand {
    /// Every target's outcome, in list order, `concurrency` requests at a time.
    static func warm(_ list: WarmList, base: String, concurrency: Int, context: CommandContext,
                     environment: Environment, started: Double) async -> [WarmOutcome] {
        var outcomes = [WarmOutcome](repeating: .failed(reason: "not-sent"), count: list.entries.count)
        var progress = WarmProgress(total: list.entries.count, isTerminal: environment.isTerminal, started: started)
        let fetcher = environment.fetcher, timeout = environment.timeout
        await withTaskGroup(of: (Int, WarmOutcome).self) { group in
            var next = 0
            var done = 0
            func startNext() {
                guard next < list.entries.count else { return }
                let index = next, target = list.entries[index].target
                next += 1
                group.addTask { (index, await fetch(base + target, fetcher: fetcher, timeout: timeout)) }
            }
            for _ in 0..<concurrency { startNext() }
            while let (index, outcome) = await group.next() {
                outcomes[index] = outcome
                done += 1
                if let text = progress.update(done: done, now: environment.clock()) { context.stderr.write(text) }
                startNext()
            }
            if let text = progress.finish(done: done, now: environment.clock()) { context.stderr.write(text) }
        }
        return outcomes
    }

    /// One `GET`, its answer read as a ``WarmOutcome``.
    static func fetch(_ url: String, fetcher: any OriginFetching, timeout: Double) async -> WarmOutcome {
        do {
            let response = try await fetcher.fetch(OriginRequest(
                url: url, fields: HTTPFields([("User-Agent", "mediactl-warm/\(MediaCTLMain.version)")]), timeout: timeout,
                maxBodyBytes: maximumBodyBytes, allowsRetry: false))
            return WarmOutcome.of(status: response.status, fields: response.fields, body: response.body)
        } catch let error as OriginError {
            return .failed(reason: error.code.rawValue)
        } catch {
            return .failed(reason: "transport-error")
        }
    }

    /// The list's bytes as text: `FILE`, or standard input for `-`.
    /// - Throws: ``CommandError`` `unreadable-file` (exit 2), or `invalid-file` (exit 2) over 64 MiB or not UTF-8.
    static func readList(_ file: String, environment: Environment) throws(CommandError) -> String {
        let name = file == "-" ? "standard input" : "'\(file)'"
        let bytes = file == "-" ? try environment.standardInput()
            : try FileAccess.readFile(file, limit: maximumInputBytes, what: "warm list")
        guard let bytes else {
            throw CommandError(.invalidFile, "warm list \(name) is over \(maximumInputBytes) bytes", exitCode: .unusableInput)
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw CommandError(.invalidFile, "warm list \(name) is not UTF-8 text", exitCode: .unusableInput)
        }
        return text
    }

    /// `http://<listen>` of the service owning `state` (``ServeStateFile``).
    /// - Throws: ``CommandError`` (exit 2) `state directory 'X' does not exist`, or
    ///   `no running service for state directory X (no serve.json; give --server URL)`, or `(serve.json names pid
    ///   N, which is not running)`.
    static func serverFromStateFile(_ state: String) throws(CommandError) -> String {
        try StateDirectoryCheck.requireExisting(state)
        guard let serve = try ServeStateFile.read(stateDirectory: state) else {
            throw PurgeCommand.noService(state, "no serve.json; give --server URL")
        }
        guard PurgeCommand.isRunning(serve.pid) else {
            throw PurgeCommand.noService(state, "serve.json names pid \(serve.pid), which is not running")
        }
        return "http://" + PurgeClient.reachableAddress(serve.listen)
    }

    /// Seconds on `CLOCK_MONOTONIC`.
    @Sendable public static func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    /// Standard input until end of file; `nil` past ``maximumInputBytes``.
    @Sendable public static func readStandardInput() throws(CommandError) -> [UInt8]? {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw CommandError(.unreadableFile, "cannot read the warm list from standard input: \(SystemErrorText.current)",
                                   exitCode: .unusableInput)
            }
            if count == 0 { return bytes }
            bytes.append(contentsOf: buffer[0..<count])
            if bytes.count > maximumInputBytes { return nil }
        }
    }
}
