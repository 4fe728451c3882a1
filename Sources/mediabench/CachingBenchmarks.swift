/// Caching benchmarks; see docs/benchmarks.md.
enum CachingBenchmarks {
    static func run() throws {
        print("(no Caching benchmarks yet)")
    }
}
