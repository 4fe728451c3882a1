// The `mediactl` executable: everything lives in MediaCTL (MediaCTLMain), testable in-process.
import Foundation
import MediaCTL

let status = await MediaCTLMain.run(
    CommandLine.arguments.dropFirst(), environment: ProcessInfo.processInfo.environment)
exit(status)
