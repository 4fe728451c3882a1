// mediabench: release-build micro-benchmarks. Usage: swift run -c release mediabench [SUITE...]
// Suites: caching, storage, crypto, service, audit (writes a large log; see AuditBenchmarks), variants
// (derived-image misses; see VariantBenchmarks). Figures and goals: docs/benchmarks.md.
let requested = Set(CommandLine.arguments.dropFirst())
let suites: [(name: String, run: () throws -> Void)] = [
    ("caching", CachingBenchmarks.run),
    ("crypto", CryptoBenchmarks.run),
    ("storage", StorageBenchmarks.run),
    ("service", ServiceBenchmarks.run),
    ("audit", AuditBenchmarks.run),
    ("variants", VariantBenchmarks.run),
]
for suite in suites where requested.isEmpty || requested.contains(suite.name) {
    print("== \(suite.name)")
    try suite.run()
}
