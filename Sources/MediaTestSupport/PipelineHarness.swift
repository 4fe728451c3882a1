import Foundation
import HTTPCaching
import MediaAudit
import MediaCore
import MediaPolicy
import MediaService
import Synchronization

/// The pipeline harness: a real ``MediaService`` over the default test policies (`Tests/Fixtures/policies/default.json`,
/// origins at `http://origin.test`), a counting origin and a temporary state directory, with a manual clock
/// (seconds since the epoch). The service tests drive it in process; its `service` is the one under test.
public final class PipelineHarness: Sendable {
    public static let originBase = "http://origin.test"
    public let origin = CountingOriginFetcher()
    public let stateDirectory: String
    public let clock: ManualClock
    public let service: MediaService

    /// - Parameters:
    ///   - fetcher: an origin to use instead of ``origin`` (which then sees no requests).
    ///   - stateDirectory: an existing state directory to reuse (restart tests); default a new temporary one.
    ///   - configure: changes to the service configuration the harness builds (e.g. a readiness threshold).
    public init(policyJSON: String? = nil, hooks: [any StorageHook] = [], fetcher: (any OriginFetching)? = nil,
         stateDirectory: String? = nil, clockStart: Double = 1_800_000_000,
         transforms: TransformConfiguration = .init(),
         configure: (inout MediaService.Configuration) -> Void = { _ in }) throws {
        self.stateDirectory = stateDirectory
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("pipeline-\(UUID().uuidString)").path
        let json = policyJSON ?? PipelineHarness.defaultPolicy
        let policies = try PolicyLoader().load(sources: [.init(name: "Policies/test.json", bytes: Array(json.utf8))])
        clock = ManualClock(start: clockStart)
        let clock = self.clock
        let stateDirectory = self.stateDirectory
        var configuration = MediaService.Configuration(
            stateDirectory: stateDirectory, clock: { clock.now }, hooks: hooks, synchronizesWrites: false,
            transforms: transforms)
        configure(&configuration)
        service = try MediaService(policies: policies, fetcher: fetcher ?? origin, configuration: configuration)
    }

    public func get(_ target: String, _ fields: [(String, String)] = [], method: HTTPMethod = "GET",
             policy: RequestCachePolicy = .useProtocolCachePolicy) async -> ServiceResponse {
        await send(ServiceRequest(method: method, target: target, fields: HTTPFields(fields), cachePolicy: policy))
    }

    /// `request` where `mediactl serve` sends it: a `/_mediactl/` target to the service's endpoints (the admin
    /// listener's), any other to the media pipeline (the public listener's).
    public func send(_ request: ServiceRequest) async -> ServiceResponse {
        await Self.send(request, to: service)
    }

    /// ``send(_:)`` to any service.
    public static func send(_ request: ServiceRequest, to service: MediaService) async -> ServiceResponse {
        if request.target.hasPrefix("/_mediactl/") { return service.endpoint(request) }
        return await service.handle(request)
    }

    /// Every audit record written so far; without the `policy` batches (one after each `start`, one per
    /// reload) unless `includingPolicy`.
    public func auditRecords(includingPolicy: Bool = false) throws -> [AuditRecord] {
        try AuditReader.records(directory: stateDirectory + "/audit").filter { includingPolicy || $0.entry.event != .policy }
    }

    /// Every byte of every file under the state directory, concatenated per file, once every write-behind
    /// write has landed (so a scan for plaintext is never vacuous).
    public func filesUnderState() -> [(path: String, bytes: [UInt8])] {
        service.flushWrites()
        var out: [(String, [UInt8])] = []
        let enumerator = FileManager.default.enumerator(atPath: stateDirectory)
        while let relative = enumerator?.nextObject() as? String {
            let path = stateDirectory + "/" + relative
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue,
               let data = FileManager.default.contents(atPath: path) {
                out.append((relative, Array(data)))
            }
        }
        return out
    }

    /// ``filesUnderState()`` without the audit log (`audit/`) and the install's keys (`keys/integrity.key`, made at
    /// start; `keys/subject.key`): the files a response could have left.
    public func responseFilesUnderState() -> [(path: String, bytes: [UInt8])] {
        filesUnderState().filter { !$0.path.hasPrefix("audit/") && !$0.path.hasPrefix("keys/") }
    }

    public func close() async {
        await service.stop()
        try? FileManager.default.removeItem(atPath: stateDirectory)
    }

    /// ``defaultPolicy`` with the public tier forwarding `names` to its origin (`forwardRequestHeaders`).
    public static func defaultPolicy(publicForwards names: [String]) -> String {
        let list = names.map { "\"\($0)\"" }.joined(separator: ", ")
        return defaultPolicy.replacingOccurrences(
            of: #""downstreamCacheControl": "public, max-age=31536000, immutable" }"#,
            with: #""downstreamCacheControl": "public, max-age=31536000, immutable", "forwardRequestHeaders": ["# + list + "] }")
    }

    /// Tests/Fixtures/policies/default.json.
    public static let defaultPolicy = TestFixtures.defaultPolicy
}

/// A clock tests move by hand: seconds since the epoch.
public final class ManualClock: Sendable {
    private let seconds: Mutex<Double>
    public init(start: Double) { seconds = Mutex(start) }
    public var now: Double { seconds.withLock { $0 } }
    public func advance(_ delta: Double) { seconds.withLock { $0 += delta } }
}

