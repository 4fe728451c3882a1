import HTTPServer
import MediaCore
import MediaCurl
import MediaServer
import HTTPCaching
import MediaService

/// `mediactl fetch PATH`: one request through the pipeline, in-process, against the policies'
/// real origins (``MediaCurl/DefaultOriginFetcher``: libcurl), on the state directory of `serve`.
///
/// Text output: the status line, the response fields, then `route:`, `storage:` and `body:`
/// lines (and `variant:` for a derived image). `--json`: one document
/// `{"bytes","cacheStatus","derivedFrom","headers","reason","status","storage","variant"}`.
/// The body goes to `--output FILE` (mode 0600), or to stdout with `--output -`, in which case the
/// report goes to stderr so the body stays intact.
public struct FetchCommand: Sendable {
    /// The `--json` document.
    public struct Report: Sendable, Hashable, Codable {
        /// The status code.
        public var status: HTTPStatus
        /// The response fields, name → value (repeated names joined with `", "`).
        public var headers: [String: String]
        /// The `Cache-Status` value, or `nil`.
        public var cacheStatus: String?
        /// Where the answer was stored (`disk`, `encrypted-disk`, `memory`), `none`, `hit`, or `nil`.
        public var storage: String?
        /// The stable reason code of the decision or refusal, or `nil`.
        public var reason: String?
        /// Body bytes (for HEAD and 304, 0).
        public var bytes: Int
        /// A derived image's normalised parameters (`w=144,fit=inside,fmt=jpeg,q=80`), or `nil`.
        public var variant: String?
        /// A derived image's source key digest (the audit `derivedFrom`), or `nil`.
        public var derivedFrom: String?

        private enum CodingKeys: String, CodingKey {
            case status, headers, cacheStatus, storage, reason, bytes, variant, derivedFrom
        }

        public init(_ response: ServiceResponse) {
            status = response.status
            var headers: [String: String] = [:]
            for field in response.fields {
                if let existing = headers[field.name] {
                    headers[field.name] = existing + ", " + field.value
                } else {
                    headers[field.name] = field.value
                }
            }
            self.headers = headers
            cacheStatus = response.outcome.cacheStatus
            storage = response.outcome.storage?.description
            reason = response.outcome.reason
            bytes = response.body.count
            variant = response.outcome.variant
            derivedFrom = response.outcome.derivedFrom
        }

        /// Every key is always present; absent values are `null`.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(status, forKey: .status)
            try container.encode(headers, forKey: .headers)
            try container.encode(cacheStatus, forKey: .cacheStatus)
            try container.encode(storage, forKey: .storage)
            try container.encode(reason, forKey: .reason)
            try container.encode(bytes, forKey: .bytes)
            try container.encode(variant, forKey: .variant)
            try container.encode(derivedFrom, forKey: .derivedFrom)
        }
    }

    /// The parsed command line.
    public let options: FetchOptions
    /// The origin transport. Default: ``MediaCurl/DefaultOriginFetcher/make(note:)`` (a
    /// ``MediaCurl/CurlOriginFetcher``; when libcurl cannot be used, every fetch fails with a 502 naming why).
    public let fetcher: any OriginFetching
    /// Adjusts the service's configuration (state directory already set), such as its clock.
    /// Default: no change.
    public let service: @Sendable (inout MediaService.Configuration) -> Void

    public init(
        options: FetchOptions, fetcher: any OriginFetching = DefaultOriginFetcher.make(),
        service: @escaping @Sendable (inout MediaService.Configuration) -> Void = { _ in }
    ) {
        self.options = options
        self.fetcher = fetcher
        self.service = service
    }

    /// Runs the request.
    /// - Returns: 0 for a 2xx or 304 answer, 1 for any other status, 2 when the policies, the
    ///   state directory or `--output` cannot be used.
    public func run(context: CommandContext) async -> ExitCode {
        do {
            return try await fetch(context: context)
        } catch {
            return context.fail(error)
        }
    }

    private func fetch(context: CommandContext) async throws(CommandError) -> ExitCode {
        let token = try options.credentialFile.map { path throws(CommandError) in try CredentialFile.readToken(atPath: path) }
        let policies = try ServiceSetup.loadPolicies(options.policiesDirectory, overrides: options.origins)
        let service = try ServiceSetup.openService(
            policies: policies, stateDirectory: options.stateDirectory, fetcher: fetcher, configure: service)
        var fields = HTTPFields()
        for header in options.headers { fields.append(HTTPFieldName(header.name), header.value) }
        if let token { fields.set(.authorization, "Bearer " + token) }
        let response = await service.handle(ServiceRequest(target: options.path, fields: fields))
        await service.stop()
        let report = options.outputFile == "-" ? context.stderr : context.stdout
        if let path = options.outputFile {
            try BodyOutput.write(response.body, toPath: path, context: context)
        }
        if options.json {
            try CommandContext(stdout: report, stderr: context.stderr, environment: context.environment)
                .writeJSON(Report(response))
        } else {
            report.write(Self.text(response, outputFile: options.outputFile))
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
