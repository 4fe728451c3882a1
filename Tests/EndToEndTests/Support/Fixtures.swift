import Foundation

/// Bytes of `Tests/Fixtures/corpus/<path>`.
enum Fixtures {
    /// The bytes of `corpus/<path>`, e.g. `catalog/horse-d29d871c.jpg`; empty when missing.
    static func bytes(_ path: String) -> [UInt8] {
        (try? Array(Data(contentsOf: NginxOrigin.fixturesDirectory.appendingPathComponent(path)))) ?? []
    }

    /// Every receipt fixture (`corpus/receipts/*`), by path.
    static var receipts: [String] {
        let folder = NginxOrigin.fixturesDirectory.appendingPathComponent("receipts")
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted().map { "receipts/" + $0 }
    }

    /// Up to `count` slices of `length` bytes of `corpus/<path>` that occur in no other corpus file
    /// (JPEG headers and quantization tables are shared between images, so raw slices would match
    /// legitimately stored images). Spread evenly over the file.
    static func distinctiveSlices(of path: String, length: Int = 64, count: Int = 16) -> [[UInt8]] {
        let root = NginxOrigin.fixturesDirectory
        let others = StateScan.files(under: root).filter { $0 != path }
            .compactMap { try? Data(contentsOf: root.appendingPathComponent($0)) }
        return slices(of: bytes(path), length: length, count: count).filter { slice in
            let needle = Data(slice)
            return !others.contains { $0.range(of: needle) != nil }
        }
    }

    /// `count` slices of `length` bytes spread evenly over `bytes` (first and last included).
    static func slices(of bytes: [UInt8], length: Int = 64, count: Int = 16) -> [[UInt8]] {
        guard bytes.count > length else { return [bytes] }
        let last = bytes.count - length
        return (0..<count).map { index in
            let start = count == 1 ? 0 : last * index / (count - 1)
            return Array(bytes[start..<(start + length)])
        }
    }
}

/// What is on disk under a state directory.
enum StateScan {
    /// Every regular file under `root`, recursively (paths relative to `root`, sorted).
    static func files(under root: URL) -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: root.path) else { return [] }
        var found: [String] = []
        while let relative = enumerator.nextObject() as? String {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: root.appendingPathComponent(relative).path, isDirectory: &isDirectory),
               !isDirectory.boolValue {
                found.append(relative)
            }
        }
        return found.sorted()
    }

    /// Object files under `root` (`disk/` or `sealed/`): names of 64 hex characters.
    static func objectFiles(under root: URL) -> [String] {
        files(under: root).filter { isObjectName(($0 as NSString).lastPathComponent) }
    }

    /// Leftover temp files (`<64 hex>.tmp-<hex>`) under `root`.
    static func tempFiles(under root: URL) -> [String] {
        files(under: root).filter { ($0 as NSString).lastPathComponent.contains(".tmp") }
    }

    static func isObjectName(_ name: String) -> Bool {
        name.utf8.count == 64 && name.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    /// Files under `root` containing any of `needles`, with the index of the first needle found.
    static func filesContaining(_ needles: [[UInt8]], under root: URL) -> [String] {
        files(under: root).filter { relative in
            guard let data = try? Data(contentsOf: root.appendingPathComponent(relative)) else { return false }
            return needles.contains { data.range(of: Data($0)) != nil }
        }
    }
}
