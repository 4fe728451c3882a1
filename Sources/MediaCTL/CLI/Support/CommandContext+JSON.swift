import Foundation

extension CommandContext {
    /// Writes `value` to stdout as one JSON document (the `--json` contract): keys sorted,
    /// two-space pretty printing, `/` not escaped, followed by one `"\n"`.
    /// - Throws: ``CommandError`` `encodingFailed` (exit 1) when `value` cannot be encoded
    ///   (such as a non-finite `Double`); nothing is written then.
    public func writeJSON(_ value: some Encodable) throws(CommandError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        let data: Data
        do {
            data = try encoder.encode(value)
        } catch {
            throw CommandError(.encodingFailed, "cannot encode the JSON output: \(error)", exitCode: .failure)
        }
        stdout.write(bytes: [UInt8](data) + [0x0A])
    }
}
