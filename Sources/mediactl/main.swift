// The `mediactl` executable: everything lives in MediaCTL (MediaCTLMain), testable in-process.
// Temporary wiring of serve/demo/fetch/inspect (branch `serve`); the lead merges it with
// ProductionCommandActions (policy check, audit, purge).
import Foundation
import MediaCTL

let status = await MediaCTLMain.run(
    CommandLine.arguments.dropFirst(), environment: ProcessInfo.processInfo.environment,
    actions: ClosureCommandActions(
        serve: { await ServeActions.serve($0, context: $1) }, demo: { await ServeActions.demo($0, context: $1) },
        fetch: { await ServeActions.fetch($0, context: $1) }, inspect: { await ServeActions.inspect($0, context: $1) }))
exit(status)
