#if canImport(Glibc)
import Glibc
#endif
import MediaPolicy

// libFuzzer entry: LLVMFuzzerRunDriver must be called from main (PLATFORM.md).
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32

let directory = "Policies"
let fileName = "Policies/fuzz.json"

/// Loads the input as the only policy file: either a consistent PolicySet, or errors that each name
/// the file (only the directory-wide `no-routes` names the directory instead).
func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let loader = PolicyLoader()
    let result: Result<PolicySet, PolicyErrorList>
    do throws(PolicyErrorList) {
        result = .success(try loader.load(sources: [.init(name: fileName, bytes: bytes)], directory: directory))
    } catch {
        result = .failure(error)
    }
    switch result {
    case .failure(let list):
        precondition(!list.errors.isEmpty, "empty error list thrown")
        for error in list.errors {
            let description = error.description
            if error.code == .noRoutes {
                precondition(description.hasPrefix(directory + ": "), "no-routes error: \(description)")
            } else {
                precondition(description.hasPrefix(fileName + ": "), "error not naming the file: \(description)")
                precondition(error.file == fileName, "file field \(error.file)")
            }
            precondition(!error.code.rawValue.isEmpty && !error.allowed.isEmpty && !error.problem.isEmpty,
                         "incomplete error: \(description)")
            precondition(!description.contains("\n"), "multi-line error: \(description)")
        }
        precondition(list.description.split(separator: "\n", omittingEmptySubsequences: false).count == list.errors.count)
    case .success(let policy):
        precondition(!policy.routes.isEmpty, "a policy without routes loaded")
        precondition(policy.files == [fileName], "files \(policy.files)")
        precondition(Set(policy.routes.map(\.name)).count == policy.routes.count, "duplicate route names")
        for route in policy.routes {
            precondition(policy.tiers[route.tier] != nil, "route \(route.name) has unknown tier \(route.tier)")
            precondition(route.file == fileName, "route file \(route.file)")
            precondition(route.mount.hasPrefix("/") && route.mount.hasSuffix("/"), "mount \(route.mount)")
            guard let found = policy.route(forPath: route.mount + "x") else {
                preconditionFailure("mount \(route.mount) does not route")
            }
            precondition(found.route == route, "path under \(route.mount) routes to \(found.route.mount)")
            for other in policy.routes where other != route {
                precondition(!other.mount.hasPrefix(route.mount), "overlapping mounts \(route.mount) \(other.mount)")
            }
        }
        for (name, tier) in policy.tiers {
            precondition(tier.name == name, "tier \(name) named \(tier.name)")
            precondition(tier.maxTTL >= 0 && tier.maxObjectBytes >= 0 && tier.maxPixels >= 0, "negative limit in \(name)")
        }
        // Loading the same bytes again gives the same set.
        let again = try? loader.load(sources: [.init(name: fileName, bytes: bytes)], directory: directory)
        precondition(again == policy, "loading is not deterministic")
    }
    return 0
}

var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzOne(data, size) })

/// Also exported under libFuzzer's standard name, for the case where libFuzzer's own `main` links in
/// (SwiftPM renames an executable's entry point, so the archive's `main` can win).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 { fuzzOne(data, size) }
