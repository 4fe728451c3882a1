import Glibc
import MediaCore
import MediaCrypto

/// The walk behind ``StateInventory/scan(stateDirectory:integrityKey:configuration:)``: collects items, never writes.
struct InventoryScanner {
    let maximumDepth: Int
    /// The key disk files are verified and their bodies digested under; `nil`: neither (``InventoryDefect/Code/unverified``).
    let integrityKey: IntegrityKey?
    var items: [InventoryItem] = []

    /// The smallest sealed file: header, nonce, tag and the 4-byte metadata length of an empty entry.
    static let minimumSealedBytes = SealedFileFormat.headerCount + AESGCM.overhead + 4

    init(maximumDepth: Int, integrityKey: IntegrityKey?) {
        self.maximumDepth = maximumDepth
        self.integrityKey = integrityKey
    }

    /// Scans `disk/` or `sealed/` inside the state directory `root`.
    mutating func scanTop(_ folder: InventoryItem.Folder, in root: Int32) {
        let name = folder.rawValue
        var info = stat()
        guard fstatat(root, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { return }
        guard Self.type(info) == S_IFDIR else {
            record(folder, name, components: [], name: name, info: info, in: root)
            return
        }
        walk(folder, name, in: root, path: name, components: [])
    }

    /// Lists the folder `name` in `parent` (at `path`, `components` below the object folder) and
    /// handles each entry.
    private mutating func walk(
        _ folder: InventoryItem.Folder, _ name: String, in parent: Int32, path: String, components: [String]
    ) {
        let listed: Void? = POSIX.withListing(name, in: parent) { fd, entries in
            for entry in entries.sorted(by: { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }) {
                var info = stat()
                guard fstatat(fd, entry.name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { continue }
                let childPath = path + "/" + entry.name
                if Self.type(info) == S_IFDIR {
                    if components.count < maximumDepth {
                        walk(folder, entry.name, in: fd, path: childPath, components: components + [entry.name])
                    } else {
                        items.append(
                            InventoryItem(
                                folder: folder, path: childPath, tierFolder: components.first, name: entry.name,
                                kind: .notRegular, bytes: 0,
                                defect: InventoryDefect(.misplaced, "a folder deeper than \(maximumDepth) levels")))
                    }
                } else {
                    record(folder, childPath, components: components, name: entry.name, info: info, in: fd)
                }
            }
        }
        if listed == nil {
            items.append(
                InventoryItem(
                    folder: folder, path: path, tierFolder: components.first, name: name, kind: .notRegular, bytes: 0,
                    defect: InventoryDefect(
                        .unreadable, "the folder cannot be listed: \(SystemErrorText.current)")))
        }
    }

    /// Records the non-folder entry `name` (at `path`) of the folder `parent`.
    private mutating func record(
        _ folder: InventoryItem.Folder, _ path: String, components: [String], name: String, info: stat, in parent: Int32
    ) {
        let tierFolder = components.first
        let bytes = Int(info.st_size)
        let fileID = InventoryItem.FileID(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
        guard Self.type(info) == S_IFREG else {
            items.append(
                InventoryItem(
                    folder: folder, path: path, tierFolder: tierFolder, name: name, kind: .notRegular, bytes: bytes,
                    defect: InventoryDefect(.notRegular, Self.typeName(info)), fileID: fileID))
            return
        }
        if Self.isTemporaryName(name) {
            items.append(
                InventoryItem(
                    folder: folder, path: path, tierFolder: tierFolder, name: name, kind: .temporary, bytes: bytes, fileID: fileID))
            return
        }
        let fd = openat(parent, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else {
            items.append(
                InventoryItem(
                    folder: folder, path: path, tierFolder: tierFolder, name: name, kind: .object, bytes: bytes,
                    defect: InventoryDefect(.unreadable, "open: \(SystemErrorText.current)"), fileID: fileID))
            return
        }
        defer { close(fd) }
        var tier: String?
        var route: String?
        var bodyBytes: Int?
        var bodyDigest: String?
        var isSealed = false
        var sealedKeyID: String?
        var defects: [InventoryDefect] = []
        switch folder {
        case .disk:
            let examined = DiskFileFormat.examine(fd, size: bytes, name: name, key: integrityKey)
            tier = examined.metadata?.tier
            route = examined.metadata?.route
            bodyBytes = examined.bodyBytes
            bodyDigest = examined.bodyDigest.map(Hex.encode)
            if let defect = examined.defect { defects.append(defect) }
        case .sealed:
            switch Self.sealedHeader(fd, size: bytes) {
            case .failure(let problem): defects.append(InventoryDefect(.notSealed, problem.detail))
            case .success(let keyID):
                isSealed = true
                sealedKeyID = keyID
            }
        }
        if !KeyDigest.isValid(name) {
            defects.append(InventoryDefect(.foreignName, "the name is not 64 lower-case hex characters"))
        } else if !Self.isInPlace(name, components: components) {
            defects.append(
                InventoryDefect(
                    .misplaced, "expected \(folder.rawValue)/<tier>/\(Self.fanOut(name))/\(name)"))
        }
        items.append(
            InventoryItem(
                folder: folder, path: path, tierFolder: tierFolder, name: name, kind: .object, bytes: bytes, tier: tier,
                route: route, bodyBytes: bodyBytes, bodyDigest: bodyDigest, isSealed: isSealed, sealedKeyID: sealedKeyID,
                defect: defects.first,
                fileID: fileID))
    }

    /// Why a file is not a well-formed sealed object.
    struct SealedProblem: Error { let detail: String }

    /// The data key id (16 hex digits) of the open sealed file of `size` bytes: version 2 names one, version 1 (whose
    /// files an earlier build left) `nil`; or why it is not a well-formed sealed object.
    static func sealedHeader(_ fd: Int32, size: Int) -> Result<String?, SealedProblem> {
        guard let header = POSIX.read(fd, count: min(size, SealedFileFormat.headerCount), at: 0), header.count >= 8 else {
            return .failure(SealedProblem(detail: "\(size) bytes, shorter than the \(minimumSealedBytes) of an empty sealed entry"))
        }
        guard header.starts(with: SealedFileFormat.magic) else { return .failure(SealedProblem(detail: "no MCSE magic")) }
        let version = Int(header[4]) << 8 | Int(header[5])
        let headerCount = version == 1 ? 8 : SealedFileFormat.headerCount
        guard (1...2).contains(version), header[6] == 0, header[7] == 0 else {
            return .failure(SealedProblem(detail: "version \(version) or reserved bytes are not those of version 1 or 2"))
        }
        let minimum = headerCount + AESGCM.overhead + 4
        guard size >= minimum else {
            return .failure(SealedProblem(detail: "\(size) bytes, shorter than the \(minimum) of an empty sealed entry"))
        }
        return .success(version == 1 ? nil : Hex.encode(header[8..<16]))
    }

    /// `ab/cd` of a 64-hex name.
    static func fanOut(_ name: String) -> String {
        let (first, second) = FileStore.folders(of: name)
        return first + "/" + second
    }

    /// Whether `components` (below the object folder) are `<tier>/ab/cd` for the 64-hex `name`.
    static func isInPlace(_ name: String, components: [String]) -> Bool {
        guard components.count == 3 else { return false }
        let (first, second) = FileStore.folders(of: name)
        return components[1] == first && components[2] == second
    }

    /// Whether `name` is a store temp file: `<64-hex>.tmp-<16-hex>`.
    static func isTemporaryName(_ name: String) -> Bool {
        let utf8 = Array(name.utf8)
        guard utf8.count == 85, utf8[64..<69].elementsEqual(".tmp-".utf8) else { return false }
        return KeyDigest.isValid(String(decoding: utf8[0..<64], as: UTF8.self))
    }

    static func type(_ info: stat) -> mode_t { info.st_mode & S_IFMT }

    static func typeName(_ info: stat) -> String {
        switch type(info) {
        case S_IFLNK: return "a symlink (not followed)"
        case S_IFIFO: return "a FIFO"
        case S_IFSOCK: return "a socket"
        case S_IFCHR, S_IFBLK: return "a device"
        default: return "not a regular file"
        }
    }
}
