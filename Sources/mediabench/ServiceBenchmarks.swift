/// Service benchmarks; see docs/benchmarks.md.
enum ServiceBenchmarks {
    static func run() throws {
        print("(no Service benchmarks yet)")
    }
}
