import HTTPCaching
import HTTPServer
import MediaCore
import MediaCurl
import MediaServer
import MediaService

/// `mediactl fetch PATH`: one request through the pipeline, in-process, against the policies'
/// real origins (``MediaCurl/DefaultOriginFetcher``: libcurl), on the state directory of `serve`.
///
/// Text output: the status line, the response fields, then `route:`, `storage:` and `body:`
/// lines (and `variant:` for a derived image). `--json`: one document
/// `{"bytes","cacheStatus","derivedFrom","headers","reason","status","storage","variant"}`.
/// The body goes to `--output FILE` (mode 0600), or to stdout with `--output -`, in which case the
/// report goes to stderr so the body stays intact.
public struct FetchCommand: MediaCommand {
    /// `PATH`: the request target, starting with `/` (query allowed), such as `/catalog/a.jpg?v=2`.
    public var path: String = "/"
    /// Every `--header 'Name: value'`, in command-line order. Default: empty.
    public var headers: [RequestHeader] = []
    /// `--credential-file FILE`: a file holding the bearer token to send; `nil` (the default) sends none.
    public var credentialFile: String?
    /// `--output FILE`: where the body goes; `nil` (the default) writes no body.
    public var outputFile: String?
    /// `--json`: one JSON document instead of text. Default: `false`.
    public var json: Bool = false
    /// `--policies DIR`. Default: `./Policies`.
    public var policiesDirectory: String = CommandDefaults.policiesDirectory
    /// `--state-dir DIR`. Default: `$MEDIACTL_STATE_DIR`, else `./.mediactl`.
    public var stateDirectory: String = CommandDefaults.stateDirectory
    /// Every `--origin ROUTE=URL`, as `serve --origin`: replaces route ROUTE's origin base URL. Default: empty.
    public var origins: [OriginOverride] = []

    public static let declaration = CommandDeclaration<Self>(
        path: ["fetch"],
        summary: "Send one request through the pipeline and show the response and the storage decision.",
        arguments: [
            .positional(
                "PATH", help: "Request target starting with '/', such as /catalog/coffee.jpg.", \.path,
                parse: RequestTarget.parse),
            .repeated(
                "header", valueName: "'Name: value'",
                help: "Add a request header field, such as 'Accept: image/webp'. Repeatable.", \.headers,
                parse: RequestHeader.parse),
            .text(
                "credential-file", valueName: "FILE",
                help: "Send 'Authorization: Bearer <token>' with the token read from FILE (never from the command line).",
                \.credentialFile),
            .text("output", valueName: "FILE", help: "Write the response body to FILE.", \.outputFile),
            .json(\.json),
            .policies(\.policiesDirectory),
            .stateDirectory(\.stateDirectory),
            .origins(
                help: "Replace the origin base URL of route ROUTE, as 'serve --origin' does. Repeatable, once per route.",
                \.origins),
        ],
        notes: [CommandTree.exitCodes(ok: "a 2xx or 304 answer", failure: "any other answer")],
        defaults: { Self() })

    /// Sends the request through a service on `--state-dir`.
    public func run(in environment: CommandEnvironment, context: CommandContext) async -> ExitCode {
        let clock = environment.clock
        return await run(context: context, fetcher: environment.originFetcher) { configuration in
            if let clock { configuration.clock = clock.now }
        }
    }

    /// Runs the request.
    /// - Returns: 0 for a 2xx or 304 answer, 1 for any other status, 2 when the policies, the
    ///   state directory or `--output` cannot be used.
    func run(
        context: CommandContext, fetcher: any OriginFetching,
        configure: @escaping @Sendable (inout MediaService.Configuration) -> Void = { _ in }
    ) async -> ExitCode {
        do {
            return try await fetch(context: context, fetcher: fetcher, configure: configure)
        } catch {
            return context.fail(error)
        }
    }

    private func fetch(
        context: CommandContext, fetcher: any OriginFetching,
        configure: @escaping @Sendable (inout MediaService.Configuration) -> Void
    ) async throws(CommandError) -> ExitCode {
        let token = try credentialFile.map { path throws(CommandError) in try CredentialFile.readToken(atPath: path) }
        let policies = try ServiceSetup.loadPolicies(policiesDirectory, overrides: origins)
        let service = try ServiceSetup.openService(
            policies: policies, stateDirectory: stateDirectory, fetcher: fetcher, configure: configure)
        var fields = HTTPFields()
        for header in headers { fields.append(HTTPFieldName(header.name), header.value) }
        if let token { fields.set(.authorization, "Bearer " + token) }
        let response = await service.handle(ServiceRequest(target: path, fields: fields))
        await service.stop()
        let report = outputFile == "-" ? context.stderr : context.stdout
        if let path = outputFile {
            try BodyOutput.write(response.body, toPath: path, context: context)
        }
        if json {
            try CommandContext(stdout: report, stderr: context.stderr, environment: context.environment)
                .writeJSON(Report(response))
        } else {
            report.write(Self.text(response, outputFile: outputFile))
        }
        return (200...299).contains(response.status) || response.status == 304 ? .success : .failure
    }

    /// The text report: `200 OK`, the fields, a blank line, `route:`, `storage:`, `body:`, and for
    /// an `application/problem+json` answer not written to `--output`, `problem:` with the document.
    static func text(_ response: ServiceResponse, outputFile: String?) -> String {
        var lines = ["\(response.status) \(response.status.reasonPhrase)"]
        for field in response.fields { lines.append("\(field.name): \(field.value)") }
        lines.append("")
        let outcome = response.outcome
        if let route = outcome.route {
            lines.append("route: \(route) (tier \(outcome.tier ?? "-"))")
        } else {
            lines.append("route: none")
        }
        lines.append("storage: \(outcome.storage?.description ?? "-") (reason: \(outcome.reason ?? "-"))")
        if let variant = outcome.variant {
            lines.append("variant: \(variant) (derived from \(outcome.derivedFrom ?? "-"))")
        }
        var body = "body: \(response.body.count) bytes"
        if let outputFile { body += outputFile == "-" ? " (written to stdout)" : " (written to \(outputFile))" }
        lines.append(body)
        // An error's problem document (one line of JSON) says why, when the body is not written elsewhere.
        if outputFile == nil, response.fields[.contentType] == "application/problem+json",
           let text = String(validating: response.body, as: UTF8.self), !text.contains(where: \.isNewline) {
            lines.append("problem: \(text)")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
