import Foundation

extension ScriptedOrigin {
    /// A request a ``ScriptedOrigin/Socket`` received: its head (request line and fields, as sent), method
    /// and target. A `Content-Length` body is read and discarded.
    public struct Request: Sendable {
        /// The method, e.g. `GET`.
        public let method: String
        /// The request target as sent, e.g. `/catalog/a.jpg?w=144`.
        public let target: String
        /// The request line and field lines, without the blank line that ends them.
        public let head: String

        /// The first value of `name` (case-insensitive, whitespace trimmed), or `nil`.
        public func header(_ name: String) -> String? {
            for line in head.split(separator: "\r\n").dropFirst() {
                let parts = line.split(separator: ":", maxSplits: 1)
                if parts.count == 2, parts[0].lowercased() == name.lowercased() {
                    return parts[1].trimmingCharacters(in: .whitespaces)
                }
            }
            return nil
        }
    }
}
