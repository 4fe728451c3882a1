/// Crypto benchmarks; see docs/benchmarks.md.
enum CryptoBenchmarks {
    static func run() throws {
        print("(no Crypto benchmarks yet)")
    }
}
