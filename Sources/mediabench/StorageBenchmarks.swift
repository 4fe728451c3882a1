import Foundation
import MediaCrypto
import MediaStorage

/// Storage benchmarks; see docs/benchmarks.md and docs/storage.md.
///
/// memory get/put per second (bodies shared), disk and encrypted-disk read/write MB/s at 16 KB and
/// 1 MB (with fsync, as served, and without), encrypted hit / plain hit time ratio, startup scan of
/// 100,000 disk entries and the index memory per entry it builds (`MEDIABENCH_STORAGE=scan`: only that), the index
/// memory per entry with and without cache tags (`MEDIABENCH_STORAGE=index`: only that, ``IndexMemoryBenchmarks``).
enum StorageBenchmarks {
    static func run() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("mediabench-storage-\(getpid())").path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        print("load average (1 min) at start: \(loadAverage()) on \(ProcessInfo.processInfo.activeProcessorCount) cores")
        // `MEDIABENCH_STORAGE=scan`: only the startup scan and the index memory it builds.
        if ProcessInfo.processInfo.environment["MEDIABENCH_STORAGE"] == "scan" {
            try scan(root: root, count: 100_000)
            return
        }
        // `MEDIABENCH_STORAGE=index`: only the index memory per entry, with and without cache tags.
        if ProcessInfo.processInfo.environment["MEDIABENCH_STORAGE"] == "index" {
            try IndexMemoryBenchmarks.run(root: root)
            return
        }
        try memory()
        var hits: [String: Double] = [:]
        for size in [16 << 10, 1 << 20] {
            for synchronizes in [true, false] {
                let plain = try DiskStore(directory: "\(root)/disk-\(size)-\(synchronizes)",
                                          configuration: .init(byteLimit: 1 << 34, synchronizesWrites: synchronizes),
                                          integrityKey: try IntegrityKey.random())
                let sealed = try EncryptedDiskStore(directory: "\(root)/sealed-\(size)-\(synchronizes)",
                                                    configuration: .init(byteLimit: 1 << 34, synchronizesWrites: synchronizes))
                let plainRead = try files(plain, name: "disk", size: size, synchronizes: synchronizes)
                let sealedRead = try files(sealed, name: "encrypted-disk", size: size, synchronizes: synchronizes)
                if synchronizes {
                    hits["\(size)"] = sealedRead / plainRead
                }
                sealed.stop()
            }
        }
        for size in [16 << 10, 1 << 20] {
            let ratio = hits["\(size)"]!
            print(String(format: "encrypted-disk hit / disk hit time, %@: %.2fx (goal <= 1.15x)", label(size), ratio))
        }
        try scan(root: root, count: 100_000)
        try IndexMemoryBenchmarks.run(root: root)
    }

    private static func label(_ size: Int) -> String { size >= 1 << 20 ? "\(size >> 20) MB" : "\(size >> 10) KB" }

    private static func entry(_ key: String, bodyCount: Int) -> StoredEntry {
        StoredEntry(metadata: EntryMetadata(key: key, tier: "public", route: "catalog",
                                            head: Array("HTTP/1.1 200 OK\r\nContent-Type: image/jpeg\r\nETag: \"v1\"\r\n".utf8),
                                            requestTime: 1_700_000_000, responseTime: 1_700_000_000, expiresAt: 1_800_000_000),
                    body: [UInt8](repeating: 0x5a, count: bodyCount))
    }

    private static func memory() throws {
        let store = try MemoryStore(configuration: .init(byteLimit: 1 << 30, countLimit: 200_000))
        let keys = (0..<10_000).map { "http://127.0.0.1:8081/catalog/image-\($0).jpg" }
        let body = [UInt8](repeating: 1, count: 16 << 10)
        var prototype = entry("", bodyCount: 0)
        prototype.body = body
        let putCount = 1_000_000
        let put = Stopwatch.measure(iterations: putCount / keys.count) {
            for key in keys { try? store.store(prototype, for: key) }
        } / Double(keys.count)
        print(String(format: "memory put (16 KB body shared, 10k resident keys): %.2f M/s", 1e3 / put))
        let shared = store.entry(for: keys[0])!.body.withUnsafeBufferPointer { $0.baseAddress } == body.withUnsafeBufferPointer { $0.baseAddress }
        let getCount = 5_000_000
        var found = 0
        let get = Stopwatch.measure(iterations: getCount / keys.count) {
            for key in keys where store.entry(for: key) != nil { found += 1 }
        } / Double(keys.count)
        blackHole(found)
        print(String(format: "memory get (hit, 10k resident keys): %.2f M/s (goal >= 5 M/s); body shared: %@", 1e3 / get,
                     shared ? "yes" : "NO"))
    }

    /// Writes then reads 64 MB (at least 8 entries) of `size`-byte bodies; prints MB/s; returns ns per read.
    private static func files(_ store: any MediaStoring, name: String, size: Int, synchronizes: Bool) throws -> Double {
        let count = max(8, min(2_000, (64 << 20) / size))
        let entries = (0..<count).map { entry("http://127.0.0.1:8081/catalog/\(name)-\(size)-\($0).jpg", bodyCount: size) }
        let start = Stopwatch.now()
        for item in entries { try store.store(item, for: item.metadata.key) }
        let write = Double(Stopwatch.now() - start) / Double(count)
        var bytes = 0
        let rounds = 3
        let read = Stopwatch.measure(iterations: rounds) {
            for item in entries { bytes &+= store.entry(for: item.metadata.key)?.body.count ?? 0 }
        } / Double(count)
        precondition(bytes == size * count * rounds, "\(name) lost entries")
        let megabytes = Double(size) / 1e6
        print(String(format: "%@ %@%@: write %.0f MB/s (%.0f us/entry), read hit %.0f MB/s (%.1f us/entry)", name, label(size),
                     synchronizes ? " fsync" : " no-fsync", megabytes / (write / 1e9), write / 1e3, megabytes / (read / 1e9), read / 1e3))
        _ = store.removeAll { _ in true }
        return read
    }

    private static func scan(root: String, count: Int) throws {
        let directory = "\(root)/scan"
        let integrityKey = try IntegrityKey.random()
        do {
            let store = try DiskStore(directory: directory, configuration: .init(byteLimit: 1 << 34, synchronizesWrites: false),
                                      integrityKey: integrityKey)
            for index in 0..<count {
                let item = entry("http://127.0.0.1:8081/catalog/scan-\(index).jpg", bodyCount: 2_048)
                try store.store(item, for: item.metadata.key)
            }
        }
        // Drop nothing from the page cache (not root); this is a warm-cache restart.
        let load = loadAverage()
        let residentBefore = residentBytes()
        let cpuStart = processCPUTime()
        let start = Stopwatch.now()
        let store = try DiskStore(directory: directory, configuration: .init(byteLimit: 1 << 34), integrityKey: integrityKey)
        let seconds = Double(Stopwatch.now() - start) / 1e9
        let cpu = processCPUTime() - cpuStart
        let residentAfter = residentBytes()
        precondition(store.totals.count == count, "scan found \(store.totals.count)")
        print(String(format: "disk startup scan of %d entries (2 KB bodies, warm page cache, 2 threads): %.3f s wall, %.3f s CPU, load average %@ (goal <= 1 s)",
                     count, seconds, cpu, load))
        // The index the scan built, per entry: resident memory growth over the scan (scan buffers freed to malloc
        // but kept by it count too, so this is an upper estimate). Keys: 44-46 bytes, as the URLs above.
        print(String(format: "disk index memory: %.0f bytes per entry (resident growth %.1f MiB over %d entries)",
                     Double(residentAfter - residentBefore) / Double(count),
                     Double(residentAfter - residentBefore) / 1_048_576, count))
        withExtendedLifetime(store) {}
    }

    /// Resident memory of the process in bytes (`/proc/self/statm`, second field, in pages).
    static func residentBytes() -> Int {
        // /proc files report size 0: read to the end.
        let text = FileHandle(forReadingAtPath: "/proc/self/statm").map { String(decoding: $0.readDataToEndOfFile(), as: UTF8.self) } ?? ""
        let fields = text.split(separator: " ")
        return fields.count > 1 ? (Int(fields[1]) ?? 0) * Int(sysconf(Int32(_SC_PAGESIZE))) : 0
    }

    /// CPU time of the whole process (all threads), in seconds.
    private static func processCPUTime() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    /// The 1-minute load average: the machine is shared, so wall times depend on it.
    static func loadAverage() -> String {
        let text = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? "?"
        return String(text.split(separator: " ").first ?? "?")
    }
}
