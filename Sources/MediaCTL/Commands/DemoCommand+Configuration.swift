import Foundation

extension DemoCommand {
    /// Tunables of a demo run.
    public struct Configuration: Sendable {
        /// Where the temporary state directory is made. Default: the system temporary directory
        /// (`$TMPDIR`, else `/tmp`).
        public var temporaryDirectory: String
        /// With `--keep-serving`, what ends the run (returns its name). Default: `nil`, SIGINT or SIGTERM.
        public var until: (@Sendable () async -> String)?
        /// Called with the two base URLs once both servers run (tests). Default: `nil`.
        public var onServing: (@Sendable (_ service: String, _ origin: String, _ stateDirectory: String) -> Void)?

        public init(
            temporaryDirectory: String = FileManager.default.temporaryDirectory.path,
            until: (@Sendable () async -> String)? = nil,
            onServing: (@Sendable (String, String, String) -> Void)? = nil
        ) {
            self.temporaryDirectory = temporaryDirectory
            self.until = until
            self.onServing = onServing
        }
    }
}
