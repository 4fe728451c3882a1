import Foundation
import MediaCore
import MediaCrypto
@testable import MediaStorage
import Synchronization

/// A fresh folder under the system temp directory, removed by ``remove()``.
struct TemporaryFolder {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory
            .appendingPathComponent("mediastorage-\(Hex.encode(try SecureRandom.bytes(count: 8)))").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func remove() { try? FileManager.default.removeItem(atPath: path) }

    /// Regular files (and symlinks) under `relative`, as paths relative to it, sorted.
    func files(under relative: String) -> [String] {
        let root = path + "/" + relative
        guard let enumerator = FileManager.default.enumerator(atPath: root) else { return [] }
        var out: [String] = []
        while let item = enumerator.nextObject() as? String {
            let attributes = try? FileManager.default.attributesOfItem(atPath: root + "/" + item)
            if attributes?[.type] as? FileAttributeType != .typeDirectory { out.append(item) }
        }
        return out.sorted()
    }
}

/// Collects events from a store, thread-safe.
final class EventRecorder: Sendable {
    private let storage = Mutex<[StorageEvent]>([])
    var handler: StorageEventHandler { { event in self.storage.withLock { $0.append(event) } } }
    var events: [StorageEvent] { storage.withLock { $0 } }
    func clear() { storage.withLock { $0.removeAll() } }
}

enum Sample {
    /// The secret of ``integrityKey``: 32 bytes of 0x5a.
    static let integritySecret = [UInt8](repeating: 0x5a, count: 32)
    /// The integrity key of every disk store and inventory in these tests, from a fixed secret, so a store reopened
    /// on a folder reads its files and known answers stay fixed.
    static let integrityKey = try! IntegrityKey(secret: SymmetricKey(bytes: integritySecret))

    static func entry(_ key: String, body: [UInt8], tier: String = "public", route: String = "catalog",
                      partition: String? = nil, expiresAt: Double = 2_000, head: [UInt8] = Array("HTTP/1.1 200 OK\r\n".utf8)) -> StoredEntry {
        StoredEntry(metadata: EntryMetadata(key: key, tier: tier, route: route, partition: partition, head: head,
                                            requestTime: 1_000, responseTime: 1_001, expiresAt: expiresAt),
                    body: body)
    }

    /// The size of `entry`'s file in a `disk` store under `key` (``DiskFileFormat``: 84 bytes of header and
    /// tags, the encoded metadata, the body).
    static func diskFileSize(_ entry: StoredEntry, key: String, storageClass: StorageClassName = .disk) -> Int {
        var metadata = entry.metadata
        metadata.key = key
        metadata.storageClass = storageClass
        return 84 + MetadataCoding.encode(metadata).count + entry.body.count
    }

    static func bytes(_ count: Int, seed: UInt8 = 7) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed)) }
    }

    /// Reads the whole file at `path`.
    static func read(_ path: String) -> [UInt8] { Array(FileManager.default.contents(atPath: path) ?? Data()) }

    static func write(_ bytes: [UInt8], to path: String) {
        _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
    }

    /// Whether `needle` occurs in `haystack`.
    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, haystack.count >= needle.count else { return false }
        let first = needle[0]
        var index = 0
        while index <= haystack.count - needle.count {
            if haystack[index] == first, haystack[index..<index + needle.count].elementsEqual(needle) { return true }
            index += 1
        }
        return false
    }

    /// The permission bits of `path` (lstat).
    static func mode(_ path: String) -> Int {
        (try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? -1
    }
}
