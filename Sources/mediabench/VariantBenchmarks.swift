import Foundation
import HTTPCaching
import MediaService
import MediaTransform
import Synchronization

/// Derived images (issue "Derived images", item 9 (a)); see docs/benchmarks.md, "Derived images".
///
/// Variant misses, one at a time, of two cases:
/// - `astronaut`: `large/astronaut-4000.jpg` (4000×4000 JPEG, 1.48 MB) → `?w=144` (144×144 JPEG);
/// - `hubble`: `large/hubble-1000.jpg` (1000×872 JPEG, 528 KB) → `?w=576&fmt=webp` (576×502 WebP);
/// - `hubble-noicc`: the same without its embedded sRGB ICC profile (engine only: the profile conversion's cost);
///
/// each measured two ways, interleaved round by round (engine block, then service block) so drift
/// hits both alike:
/// - `engine`: the bare ``ImageTransformer/derive(_:spec:declared:limits:deadline:)`` on this thread,
///   the source in memory (what libvips and MediaTransform cost);
/// - `service`: ``MediaService/handle(_:)`` of the variant URL with its source already stored (a memory
///   hit), so the miss is the source lookup, the hop to the transform pool, the derivation, the
///   validation of the derived bytes, the storage decision, the store and the audit record.
///
/// Per image: CPU time of the whole process (user + system, `getrusage`; the derivation runs on a
/// transform worker thread) and wall time. `benchmarks/variants/run.sh` sets both against
/// `vipsthumbnail` on the same image and size (CPU per image, process start excluded).
///
/// Every service request must be a real derivation (a distinct variant key, never a stored one):
/// - `MEDIABENCH_VARIANT_KEYS=purge` (default): every image is the same URL at the tier's quality (80),
///   after `purge(.route("large"))` and a fresh (untimed) store of the source, so its key is new;
/// - `MEDIABENCH_VARIANT_KEYS=q`: the URL cycles `q=1…100` (then heights that give the same output
///   size), no purges; the engine block derives the same sequence of qualities.
/// The suite checks each answer (200, `Cache-Status` a stored derivation, not a hit, the variant's parameters,
/// its size and type) and that the counting origin was asked for the source only when it was purged.
///
/// Then (`hits`, goal (b) without HTTP) memory hits of the stored 144-px variant against the same bytes stored
/// as an original, via ``MediaService/handleIfCached(_:)``.
///
/// Environment: `MEDIABENCH_VARIANT_IMAGES` (default 40 per case and side), `MEDIABENCH_VARIANT_ROUNDS`
/// (default 4), `MEDIABENCH_VARIANT_CASES=astronaut,hubble,hubble-noicc`, `MEDIABENCH_VARIANTS=engine,service,hits`
/// (which parts), `MEDIABENCH_VARIANT_STORAGE=memory|disk` (the tier's storage class, default memory).
/// Each case also prints one machine-readable line per side:
/// `RESULT variants case=… side=… images=N cpu_us=… user_us=… sys_us=… wall_us=… p50_us=… bytes=…`.
enum VariantBenchmarks {
    struct Case: Sendable {
        var name: String
        var file: String
        /// The variant query at the tier's quality, e.g. `w=144`.
        var query: String
        var spec: VariantSpec
        var format: OutputFormat
        var width: Int
        var height: Int
        /// Heights (pixels) that leave the output size unchanged, for distinct keys in `q` mode.
        var sameHeights: [Int]
        /// Whether the source's ICC profile (JPEG APP2 `ICC_PROFILE` segments) is removed first.
        var removesICC = false
        /// The sides this case measures.
        var sides: Set<String> = ["engine", "service"]
    }

    static let cases: [Case] = [
        Case(name: "astronaut", file: "astronaut-4000.jpg", query: "w=144",
             spec: VariantSpec(width: 144, quality: 80, format: .source), format: .jpeg, width: 144, height: 144,
             sameHeights: [144, 288, 576, 1152]),
        Case(name: "hubble", file: "hubble-1000.jpg", query: "w=576&fmt=webp",
             spec: VariantSpec(width: 576, quality: 80, format: .format(.webp)), format: .webp, width: 576, height: 502,
             sameHeights: [576, 1152]),
        // The same source without its embedded (sRGB) ICC profile, APP2 segments removed losslessly: the
        // difference to `hubble` is what ColourStep's profile conversion costs (vipsthumbnail converts
        // only with --export-profile). Engine only.
        Case(name: "hubble-noicc", file: "hubble-1000.jpg", query: "w=576&fmt=webp",
             spec: VariantSpec(width: 576, quality: 80, format: .format(.webp)), format: .webp, width: 576, height: 502,
             sameHeights: [576, 1152], removesICC: true, sides: ["engine"]),
    ]

    static let environment = ProcessInfo.processInfo.environment
    static let images = max(1, environment["MEDIABENCH_VARIANT_IMAGES"].flatMap { Int($0) } ?? 40)
    static let rounds = max(1, environment["MEDIABENCH_VARIANT_ROUNDS"].flatMap { Int($0) } ?? 4)
    static let keyMode = environment["MEDIABENCH_VARIANT_KEYS"] ?? "purge"
    static let storage = environment["MEDIABENCH_VARIANT_STORAGE"] ?? "memory"
    static let sides = Set((environment["MEDIABENCH_VARIANTS"] ?? "engine,service,hits").split(separator: ",").map(String.init))
    static let caseNames = Set((environment["MEDIABENCH_VARIANT_CASES"] ?? "astronaut,hubble,hubble-noicc").split(separator: ",").map(String.init))
    /// `MEDIABENCH_VARIANT_SAVE=DIR`: write the engine's and the service's first output there
    /// (`<case>-engine.<ext>`, `<case>-service.<ext>`), to compare with the reference's files.
    static let saveDirectory = environment["MEDIABENCH_VARIANT_SAVE"]
    static let declared: [OutputFormat] = [.jpeg, .webp, .avif, .png]
    static let limits = TransformLimits(maxSourcePixels: 50_000_000, maxOutputPixels: 1152 * 1152)

    /// Per-image samples of one side.
    struct Side: Sendable {
        var cpu: [Int64] = []
        var user: Int64 = 0
        var system: Int64 = 0
        var wall: [UInt64] = []
        var bytes = 0
        var first: [UInt8] = []

        mutating func record(cpu before: CPUClock.Reading, _ after: CPUClock.Reading, wall: UInt64) {
            cpu.append(after.totalMicroseconds - before.totalMicroseconds)
            user += after.userMicroseconds - before.userMicroseconds
            system += after.systemMicroseconds - before.systemMicroseconds
            self.wall.append(wall)
        }

        var count: Int { wall.count }
        var cpuMean: Double { Double(cpu.reduce(0, +)) / Double(max(count, 1)) }
        var wallMeanMicroseconds: Double { Double(wall.reduce(0, +)) / Double(max(count, 1)) / 1e3 }
        var wallP50Microseconds: Double {
            var latency = ServiceLatency(capacity: count)
            for sample in wall { latency.record(sample) }
            return Double(latency.percentile(0.5)) / 1e3
        }
    }

    static func run() throws {
        if sides.contains("memory") { try memory() }
        guard sides.contains("engine") || sides.contains("service") || sides.contains("hits") else { return }
        guard keyMode == "purge" || keyMode == "q" else {
            throw BenchError("MEDIABENCH_VARIANT_KEYS must be purge or q, not \(keyMode)")
        }
        print("libvips \(VipsRuntime.version); storage \(storage); keys \(keyMode); \(images) images per case and side "
              + "in \(rounds) rounds; CPU = getrusage(RUSAGE_SELF) user + sys")
        for benchCase in cases where caseNames.contains(benchCase.name) {
            try measure(benchCase)
        }
        if sides.contains("hits") { try hits() }
    }

    /// Resident memory of the engine alone (part `memory`, not in the default parts; run it in a process of its own):
    /// VmRSS before libvips starts, after its start (which encodes a 16×16 AVIF to learn whether AVIF can be
    /// written), after the first derivation; then the peak of one derivation and of `MEDIABENCH_VARIANT_CONCURRENT`
    /// (default 16) derivations of the 4000² JPEG two at a time (`DispatchQueue.concurrentPerform` on 2 CPUs:
    /// what the service's pool of one worker per CPU allows), at 144 and 1152 px; each peak is VmHWM reset to
    /// VmRSS first (`/proc/self/clear_refs`).
    static func memory() throws {
        func status(_ key: String) -> Int {
            guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
            for line in text.split(separator: "\n") where line.hasPrefix(key + ":") {
                return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "0") ?? 0
            }
            return 0
        }
        func resetPeak() { _ = FileManager.default.createFile(atPath: "/proc/self/clear_refs", contents: Data("5".utf8)) }
        let mib = { (kb: Int) in String(format: "%.1f MiB", Double(kb) / 1024) }
        let source = try ServiceFixture.corpusFile("large/astronaut-4000.jpg")
        let concurrent = environment["MEDIABENCH_VARIANT_CONCURRENT"].flatMap { Int($0) } ?? 16
        let beforeStart = status("VmRSS")
        _ = VipsRuntime.version
        let afterStart = status("VmRSS")
        _ = try ImageTransformer.derive(source, spec: cases[0].spec, declared: declared, limits: limits, deadline: nil)
        let afterFirst = status("VmRSS")
        print("engine memory: VmRSS \(mib(beforeStart)) before libvips starts, \(mib(afterStart)) after its start "
              + "(AVIF probe included), \(mib(afterFirst)) after the first 144-px derivation")
        for width in [144, 1152] {
            let spec = VariantSpec(width: width, quality: 80, format: .source)
            for count in [1, 2, concurrent] {
                Thread.sleep(forTimeInterval: 0.2)
                let before = status("VmRSS")
                resetPeak()
                let failures = Mutex(0)
                DispatchQueue.concurrentPerform(iterations: count) { index in
                    var spec = spec
                    spec.quality = 1 + index % 100
                    do { _ = try ImageTransformer.derive(source, spec: spec, declared: declared, limits: limits, deadline: nil) } catch {
                        failures.withLock { $0 += 1 }
                    }
                }
                let peak = status("VmHWM")
                guard failures.withLock({ $0 }) == 0 else { throw BenchError("memory: a derivation failed") }
                print("engine memory, \(count) × 4000² → \(width) px (\(ProcessInfo.processInfo.activeProcessorCount) at a time at most): "
                      + "VmRSS before \(mib(before)), peak \(mib(peak)) (+\(mib(peak - before)))")
                print("RESULT variants case=memory side=w\(width)x\(count) before_kb=\(before) peak_kb=\(peak)")
            }
        }
    }

    /// Memory hits of the stored 144-px variant (`/large/astronaut-4000.jpg?w=144`) against the same bytes
    /// stored as an original (`/large/astronaut-144.jpg`), through ``MediaService/handleIfCached(_:)`` on one
    /// thread, alternating blocks of `MEDIABENCH_HIT_ITERATIONS` (default 200,000), best of 5 rounds each:
    /// the service's share of goal (b) without the HTTP server.
    static func hits() throws {
        let iterations = environment["MEDIABENCH_HIT_ITERATIONS"].flatMap { Int($0) } ?? 200_000
        let source = try ServiceFixture.corpusFile("large/astronaut-4000.jpg")
        let variantBytes = try ImageTransformer.derive(source, spec: cases[0].spec, declared: declared, limits: limits,
                                                       deadline: nil).bytes
        let fixture = try VariantFixture(sources: [("astronaut-4000.jpg", source), ("astronaut-144.jpg", variantBytes)],
                                         storage: storage)
        defer { fixture.close() }
        let service = fixture.service
        let variant = ServiceRequest(target: "/large/astronaut-4000.jpg?w=144", fields: ServiceFixture.clientFields)
        let plain = ServiceRequest(target: "/large/astronaut-144.jpg", fields: ServiceFixture.clientFields)
        let warm = ServiceBenchmarks.wait { () -> [Int] in
            var statuses: [Int] = []
            for request in [variant, plain, variant, plain] { statuses.append(await service.handle(request).status.code) }
            return statuses
        }
        guard warm == [200, 200, 200, 200],
              let v = service.handleIfCached(variant), v.outcome.storage == .hit, v.body == variantBytes,
              let p = service.handleIfCached(plain), p.outcome.storage == .hit, p.body == variantBytes else {
            throw BenchError("hits: the variant and its copy were not both memory hits of the same bytes (\(warm))")
        }
        // `MEDIABENCH_VARIANT_HITS=variant|plain` times one side only (for callgrind).
        let only = environment["MEDIABENCH_VARIANT_HITS"]
        let timed = [("variant", variant), ("plain", plain)].filter { only == nil || $0.0 == only }
        var best: [String: Double] = [:]
        var sink = 0
        for _ in 0..<5 {
            for (name, request) in timed {
                let ns = Stopwatch.measure(iterations: iterations) { sink &+= service.handleIfCached(request)?.body.count ?? 0 }
                best[name] = min(best[name] ?? .infinity, ns)
            }
        }
        blackHole(sink)
        for name in ["variant", "plain"] {
            guard let ns = best[name] else { continue }
            print(String(format: "memory hit, %@ (%d B) via handleIfCached: %@ hits/s, %.1f ns/hit",
                         name == "variant" ? "variant /large/astronaut-4000.jpg?w=144" : "the same bytes as an original /large/astronaut-144.jpg",
                         variantBytes.count, ServiceBenchmarks.grouped(Int(1e9 / ns)), ns))
            print(String(format: "RESULT variants case=hits side=%@ ns=%.1f", name, ns))
        }
        if let p = best["plain"], let v = best["variant"] {
            print(String(format: "  variant / plain hits per second: %.3fx", p / v))
        }
    }

    /// The quality and query of image `index` in `q` mode (`purge` mode: the tier's quality, the bare query).
    static func key(_ benchCase: Case, _ index: Int) -> (quality: Int, query: String) {
        guard keyMode == "q" else { return (80, benchCase.query) }
        let quality = index % 100 + 1
        let heights: [Int?] = [nil] + benchCase.sameHeights.map { Optional($0) }
        let height = heights[(index / 100) % heights.count]
        return (quality, benchCase.query + "&q=\(quality)" + (height.map { "&h=\($0)" } ?? ""))
    }

    /// `jpeg` without its APP2 `ICC_PROFILE` segments; every other byte kept (segments up to SOS, then the rest verbatim).
    static func withoutICC(_ jpeg: [UInt8]) throws -> [UInt8] {
        guard jpeg.count > 4, jpeg[0] == 0xFF, jpeg[1] == 0xD8 else { throw BenchError("not a JPEG") }
        var out: [UInt8] = [0xFF, 0xD8]
        var index = 2
        let tag = Array("ICC_PROFILE\0".utf8)
        while index + 4 <= jpeg.count, jpeg[index] == 0xFF {
            let marker = jpeg[index + 1]
            if marker == 0xDA { break }
            let length = Int(jpeg[index + 2]) << 8 | Int(jpeg[index + 3])
            let end = index + 2 + length
            guard length >= 2, end <= jpeg.count else { throw BenchError("malformed JPEG segment at \(index)") }
            let isICC = marker == 0xE2 && Array(jpeg[min(index + 4, end)..<min(index + 4 + tag.count, end)]) == tag
            if !isICC { out += jpeg[index..<end] }
            index = end
        }
        out += jpeg[index...]
        return out
    }

    static func save(_ bytes: [UInt8], _ benchCase: Case, _ side: String) {
        guard let saveDirectory, !bytes.isEmpty else { return }
        let path = saveDirectory + "/\(benchCase.name)-\(side).\(benchCase.format.rawValue == "jpeg" ? "jpg" : benchCase.format.rawValue)"
        _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
    }

    static func measure(_ benchCase: Case) throws {
        let file = try ServiceFixture.corpusFile("large/" + benchCase.file)
        let source = benchCase.removesICC ? try withoutICC(file) : file
        let fixture = try VariantFixture(sources: [(benchCase.file, source)], storage: storage)
        defer { fixture.close() }
        let service = fixture.service
        let sourceURL = VariantFixture.originBase + benchCase.file
        let sourceRequest = ServiceRequest(target: "/large/" + benchCase.file, fields: ServiceFixture.clientFields)
        var engine = Side()
        var served = Side()
        var fetchesExpected = 0
        // Warm-up, not measured: libvips' start, the transform pool's threads, the code paths.
        _ = try ImageTransformer.derive(source, spec: benchCase.spec, declared: declared, limits: limits, deadline: nil)
        let warm = ServiceBenchmarks.wait { () -> (ServiceResponse, ServiceResponse) in
            let first = await service.handle(sourceRequest)
            let variant = await service.handle(ServiceRequest(target: sourceRequest.target + "?" + benchCase.query + "&q=79",
                                                              fields: ServiceFixture.clientFields))
            return (first, variant)
        }
        fetchesExpected += 1
        guard warm.0.status == 200, warm.0.outcome.storage?.description == storage, warm.1.status == 200 else {
            throw BenchError("\(benchCase.name): warm-up answered \(warm.0.status) (storage \(warm.0.outcome.storage?.description ?? "nil")), "
                             + "variant \(warm.1.status): \(String(decoding: warm.1.body.prefix(300), as: UTF8.self))")
        }
        var next = 0
        for round in 0..<rounds {
            let count = images / rounds + (round < images % rounds ? 1 : 0)
            if sides.contains("engine") && benchCase.sides.contains("engine") {
                for offset in 0..<count {
                    var spec = benchCase.spec
                    spec.quality = key(benchCase, next + offset).quality
                    let cpu0 = CPUClock.now()
                    let start = Stopwatch.now()
                    let image = try ImageTransformer.derive(source, spec: spec, declared: declared, limits: limits, deadline: nil)
                    let wall = Stopwatch.now() - start
                    engine.record(cpu: cpu0, CPUClock.now(), wall: wall)
                    guard image.format == benchCase.format, image.width == benchCase.width, image.height == benchCase.height else {
                        throw BenchError("\(benchCase.name): engine made \(image.format) \(image.width)×\(image.height)")
                    }
                    if engine.bytes == 0 { save(image.bytes, benchCase, "engine") }
                    engine.bytes = image.bytes.count
                }
            }
            if sides.contains("service") && benchCase.sides.contains("service") {
                let keys = (0..<count).map { key(benchCase, next + $0) }
                let purges = keyMode == "purge"
                let result = ServiceBenchmarks.wait { () -> Result<Side, BenchError> in
                    var side = Side()
                    for (quality, query) in keys {
                        if purges {
                            // A new key for the same URL: drop the route's entries, store the source again (untimed).
                            do { try service.purge(.route("large")) } catch {
                                return .failure(BenchError("purge failed: \(error)"))
                            }
                            let again = await service.handle(sourceRequest)
                            guard again.status == 200, again.outcome.storage?.description == storage else {
                                return .failure(BenchError("source store after purge: \(again.status) \(again.outcome.storage?.description ?? "nil")"))
                            }
                        }
                        let request = ServiceRequest(target: sourceRequest.target + "?" + query, fields: ServiceFixture.clientFields)
                        let cpu0 = CPUClock.now()
                        let start = Stopwatch.now()
                        let response = await service.handle(request)
                        let wall = Stopwatch.now() - start
                        side.record(cpu: cpu0, CPUClock.now(), wall: wall)
                        let expected = "w=\(benchCase.width)" + (benchCase.spec.height.map { ",h=\($0)" } ?? "")
                        guard response.status == 200, response.outcome.storage?.description == storage,
                              // A derivation, not a hit (no `fwd`: the source was stored, nothing was forwarded).
                              response.outcome.cacheStatus?.contains("stored") == true,
                              response.outcome.cacheStatus?.contains("hit") == false,
                              response.outcome.variant?.hasPrefix(expected) == true,
                              response.outcome.variant?.hasSuffix(",fmt=\(benchCase.format.rawValue),q=\(quality)") == true,
                              response.fields[.contentType] == benchCase.format.mimeType else {
                            return .failure(BenchError("\(request.target): \(response.status), storage \(response.outcome.storage?.description ?? "nil"), "
                                                       + "cache status \(response.outcome.cacheStatus ?? "nil"), variant "
                                                       + "\(response.outcome.variant ?? "nil"): \(String(decoding: response.body.prefix(300), as: UTF8.self))"))
                        }
                        if side.first.isEmpty { side.first = response.body }
                        side.bytes = response.body.count
                    }
                    return .success(side)
                }
                let side = try result.get()
                served.cpu += side.cpu
                served.user += side.user
                served.system += side.system
                served.wall += side.wall
                if served.bytes == 0 { save(side.first, benchCase, "service") }
                served.bytes = side.bytes
                if purges { fetchesExpected += count }
            }
            next += count
        }
        let fetches = fixture.origin.callCount(for: sourceURL)
        guard fetches == fetchesExpected else {
            throw BenchError("\(benchCase.name): the origin was asked \(fetches) times for the source, expected \(fetchesExpected)")
        }
        let label = "\(benchCase.file) (\(source.count) B) → \(benchCase.format.rawValue) \(benchCase.width)×\(benchCase.height) [?\(benchCase.query)]"
        for (name, side) in [("engine", engine), ("service", served)] where side.count > 0 {
            print(String(format: "variant miss %@, %@: CPU %.2f ms/image (user %.2f, sys %.2f), wall mean %.2f ms, p50 %.2f ms; %d images, %d B out",
                         label, name, side.cpuMean / 1e3, Double(side.user) / Double(side.count) / 1e3,
                         Double(side.system) / Double(side.count) / 1e3, side.wallMeanMicroseconds / 1e3,
                         side.wallP50Microseconds / 1e3, side.count, side.bytes))
            print(String(format: "RESULT variants case=%@ side=%@ images=%d cpu_us=%.0f user_us=%.0f sys_us=%.0f wall_us=%.0f p50_us=%.0f bytes=%d",
                         benchCase.name, name, side.count, side.cpuMean, Double(side.user) / Double(side.count),
                         Double(side.system) / Double(side.count), side.wallMeanMicroseconds, side.wallP50Microseconds, side.bytes))
        }
        if engine.count > 0, served.count > 0 {
            print(String(format: "  service / engine: CPU %.3fx, wall %.3fx (service overhead %.2f ms CPU, %.2f ms wall per image); "
                         + "%d source fetches (untimed)",
                         served.cpuMean / engine.cpuMean, served.wallMeanMicroseconds / engine.wallMeanMicroseconds,
                         (served.cpuMean - engine.cpuMean) / 1e3,
                         (served.wallMeanMicroseconds - engine.wallMeanMicroseconds) / 1e3, fetches))
        }
    }
}
