import MediaStorage
import Testing

@testable import MediaCTL

/// `MEDIACTL_CRASH_BEFORE` (docs/cli.md, "Crash tests"): a class with file stores and one of their changes, or exit 2
/// naming the allowed values. The crash itself is end to end (`aKillBetweenKeyDestructionAndFileRemovalLeavesShreddedRemnants`).
@Suite struct CrashPointTests {
    @Test func namesAClassAndAChange() throws {
        let point = try CrashPoint.parse("encrypted-disk unlink")
        #expect(point.storageClass == .encryptedDisk)
        #expect(point.kind == .unlink)
        #expect(try CrashPoint.parse("disk sync-folder").kind == .syncFolder)
    }

    @Test(arguments: ["disk erase", "memory unlink", "encrypted-disk", "", "disk unlink now"])
    func anythingElseIsRefusedWithTheAllowedValues(value: String) {
        #expect(throws: CommandError(
            .invalidEnvironment,
            "MEDIACTL_CRASH_BEFORE is '\(value)': give '<class> <change>', class one of disk, encrypted-disk, change one of write-temporary, sync-temporary, rename, sync-folder, unlink",
            exitCode: .unusableInput)) { try CrashPoint.parse(value) }
    }
}
