/// Storage benchmarks; see docs/benchmarks.md.
enum StorageBenchmarks {
    static func run() throws {
        print("(no Storage benchmarks yet)")
    }
}
