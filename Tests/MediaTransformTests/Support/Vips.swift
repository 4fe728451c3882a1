import MediaTestSupport
import Foundation

/// Decodes images with libvips' command-line tools (package libvips-tools), to check that a stripped file
/// still decodes to the same pixels. Tests that use it are skipped when the tools are not installed.
enum Vips {
    static let vips = "/usr/bin/vips"
    static let vipsheader = "/usr/bin/vipsheader"
    static var available: Bool { FileManager.default.isExecutableFile(atPath: vips) && FileManager.default.isExecutableFile(atPath: vipsheader) }

    /// `vips avg` of the decoded image (the mean of every band of every pixel, as printed), or `nil` when it fails.
    static func average(_ bytes: [UInt8], suffix: String) throws -> String? {
        try run(vips, ["avg"], bytes, suffix: suffix)
    }

    /// `vipsheader -f <field>`, or `nil` when it fails.
    static func header(_ field: String, _ bytes: [UInt8], suffix: String) throws -> String? {
        try run(vipsheader, ["-f", field], bytes, suffix: suffix)
    }

    private static func run(_ tool: String, _ arguments: [String], _ bytes: [UInt8], suffix: String) throws -> String? {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("mediatransform-\(UUID().uuidString).\(suffix)")
        try Data(bytes).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try ChildProcess.run(URL(fileURLWithPath: tool), arguments + [file.path])
        guard result.status == 0 else { return nil }
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
