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
public struct InspectCommand: Sendable {
    /// The parsed command line.
    public let options: InspectOptions
    /// The origin transport. Default: ``MediaCurl/DefaultOriginFetcher/make(note:)`` (a
    /// ``MediaCurl/CurlOriginFetcher``).
    public let fetcher: any OriginFetching
    /// "Now" in seconds since the epoch. Default: the system clock.
    public let clock: @Sendable () -> Double

    public init(
        options: InspectOptions, fetcher: any OriginFetching = DefaultOriginFetcher.make(),
        clock: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }
    ) {
        self.options = options
        self.fetcher = fetcher
        self.clock = clock
    }

    /// Runs the inspection.
    /// - Returns: 0 when the origin answered (any status); 1 when it could not be reached
    ///   (`cannot fetch URL: <OriginError>`) or a signed URL is refused (its `signed URL:` section says why, and the
    ///   origin is not contacted); 2 when `--policies` names unusable policies. Without
    ///   `--policies` and without `./Policies`, no route is matched and the rest is printed.
    public func run(context: CommandContext) async -> ExitCode {
        do {
            return try await inspect(context: context)
        } catch {
            return context.fail(error)
        }
    }

    private func inspect(context: CommandContext) async throws(CommandError) -> ExitCode {
        var policies: PolicySet?
        var policyNote: String?
        let isDefault = options.policiesDirectory == CommandDefaults.policiesDirectory
        if isDefault && !FileManager.default.fileExists(atPath: options.policiesDirectory) {
            policyNote = "no \(options.policiesDirectory) directory; use --policies DIR"
        } else {
            policies = try ServiceSetup.loadPolicies(options.policiesDirectory, overrides: options.origins)
        }
        let token = try options.credentialFile.map { path throws(CommandError) in try CredentialFile.readToken(atPath: path) }
        var url = options.url
        var fields = HTTPFields()
        if let token { fields.append(.authorization, "Bearer " + token) }
        var hasCredential = token != nil
        // A signed URL of the service: its signature first, then the origin request it stands for.
        let query = url.firstIndex(of: "?").map { url[url.index(after: $0)...] }
        if let policies, let parameters = SignatureVerifier.parameters(ofSigned: query),
           let signed = try SignedInspection.inspect(url, parameters: parameters, policies: policies,
                                                     stateDirectory: options.stateDirectory, now: clock()) {
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
