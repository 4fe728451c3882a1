import Foundation
import HTTPCaching
import MediaCore
import MediaCurl
import MediaPolicy
import MediaService
import MediaSigning

/// `mediactl inspect URL`: asks the origin directly and explains what the service would do with
/// its answer.
///
/// Prints the origin's caching headers (Cache-Control, ETag, Last-Modified, Expires, Vary, Age,
/// Date; `-` when absent), the freshness lifetime for a shared and a private cache and its source
/// (RFC 9111 §4.2.1–4.2.2), the current age (§4.2.3), the route whose origin is a prefix of `URL`
/// and its tier, the body facts (sniffed format and dimensions, ``MediaService/ImageValidator``),
/// the RFC 9111 §3 storability verdict for the tier's cache role, and the decision of the real
/// ``MediaPolicy/StorageHookChain`` with its trail. The request carries no credentials.
public struct InspectCommand: MediaCommand {
    /// `URL`: an absolute `http`/`https` origin URL with a host.
    public var url: String = ""
    /// `--policies DIR`, for the matching route and tier. Default: `./Policies`.
    public var policiesDirectory: String = CommandDefaults.policiesDirectory
    /// `--credential-file FILE`: a file holding the bearer token sent to the origin; `nil` (the default) sends none.
    public var credentialFile: String?
    /// Every `--origin ROUTE=URL`, in command-line order, at most one per route. Default: empty.
    public var origins: [OriginOverride] = []
    /// `--state-dir DIR`: where a signed URL's subject key is read (`keys/subject.key`) to show its partition.
    /// Default: `$MEDIACTL_STATE_DIR`, else `./.mediactl`.
    public var stateDirectory: String = CommandDefaults.stateDirectory

    public static let declaration = CommandDeclaration<Self>(
        path: ["inspect"],
        summary:
            "Show an origin URL's caching headers, parsed freshness, matching route and tier, and what it would store.",
        arguments: [
            .positional(
                "URL",
                help: "An http:// or https:// origin URL, or a signed URL of the service (its signature is checked, then its origin URL inspected).",
                \.url, parse: { OriginURL.isValid($0) ? .success($0) : .failure("expected http:// or https:// with a host") }),
            .text(
                "credential-file", valueName: "FILE",
                help: "Send 'Authorization: Bearer <token>' with the token read from FILE (never from the command line).",
                \.credentialFile),
            .policies(\.policiesDirectory),
            .origins(
                help: "Replace the origin base URL of route ROUTE, as 'serve --origin' does. Repeatable, once per route.",
                \.origins),
            .stateDirectory(
                help: "For a signed URL: the state directory whose subject key gives its partition. "
                    + CommandDefaults.stateDirectoryHelp,
                \.stateDirectory),
        ],
        notes: [CommandTree.exitCodes(ok: "inspected", failure: "the origin could not be reached")],
        defaults: { Self() })

    /// Asks the origin and explains what the service would do with its answer.
    public func run(in environment: CommandEnvironment, context: CommandContext) async -> ExitCode {
        await run(context: context, fetcher: environment.originFetcher, clock: environment.clocks.now)
    }

    /// Runs the inspection.
    /// - Returns: 0 when the origin answered (any status); 1 when it could not be reached
    ///   (`cannot fetch URL: <OriginError>`) or a signed URL is refused (its `signed URL:` section says why, and the
    ///   origin is not contacted); 2 when `--policies` names unusable policies. Without
    ///   `--policies` and without `./Policies`, no route is matched and the rest is printed.
    func run(
        context: CommandContext, fetcher: any OriginFetching, clock: @escaping @Sendable () -> Double
    ) async -> ExitCode {
        do {
            return try await inspect(context: context, fetcher: fetcher, clock: clock)
        } catch {
            return context.fail(error)
        }
    }

    private func inspect(
        context: CommandContext, fetcher: any OriginFetching, clock: @Sendable () -> Double
    ) async throws(CommandError) -> ExitCode {
        var policies: PolicySet?
        var policyNote: String?
        let isDefault = policiesDirectory == CommandDefaults.policiesDirectory
        if isDefault && !FileManager.default.fileExists(atPath: policiesDirectory) {
            policyNote = "no \(policiesDirectory) directory; use --policies DIR"
        } else {
            policies = try ServiceSetup.loadPolicies(policiesDirectory, overrides: origins)
        }
        let token = try credentialFile.map { path throws(CommandError) in try CredentialFile.readToken(atPath: path) }
        var url = url
        var fields = HTTPFields()
        if let token { fields.append(.authorization, "Bearer " + token) }
        var hasCredential = token != nil
        // A signed URL of the service: its signature first, then the origin request it stands for.
        let query = url.firstIndex(of: "?").map { url[url.index(after: $0)...] }
        if let policies, let parameters = SignatureVerifier.parameters(ofSigned: query),
           let signed = try SignedInspection.inspect(url, parameters: parameters, policies: policies,
                                                     stateDirectory: stateDirectory, now: clock()) {
            context.stdout.write(signed.lines.joined(separator: "\n") + "\n\n")
            guard let origin = signed.origin else { return .failure }
            url = origin.url
            fields = HTTPFields()
            if let authorization = origin.authorization { fields.append(.authorization, authorization) }
            if let (name, value) = origin.subjectHeader { fields.append(HTTPFieldName(name), value) }
            hasCredential = true
        }
        fields.append(.acceptEncoding, "identity")   // as the service asks image origins
        let requestTime = clock()
        let response: OriginResponse
        do {
            response = try await fetcher.fetch(OriginRequest(url: url, fields: fields, decodesContentCoding: true))
        } catch {
            throw CommandError(.inspectFailed, "cannot fetch \(url): \(error)", exitCode: .failure)
        }
        var inspection = Inspection(
            url: url, response: response, requestTime: Int64(requestTime), responseTime: Int64(clock()),
            policies: policies, policyNote: policyNote)
        inspection.hasCredential = hasCredential
        context.stdout.write(inspection.text)
        return .success
    }
}
