import Foundation
import Testing

extension ComplianceTests {
    /// Issue 42: `purge --credential-file F --receipt R` against a running `mediactl serve` writes a signed erasure
    /// receipt that `audit verify-receipt` accepts on the same state directory, with nothing of the credential or the
    /// paths in it; a receipt asked for a route purge is a usage error.
    @Test func purgeWritesAReceiptThatVerifies() throws {
        let world = try ServeEnvironment()
        defer { world.tearDown() }
        try world.start()
        for path in ["receipts/r-7731.png", "receipts/r-7732.jpg"] {
            #expect(try world.get("/" + path, token: Self.u1).cacheStatus.stored)
        }
        let credentialFile = world.root.appendingPathComponent("u1.credential")
        try "Bearer \(Self.u1)\n".write(to: credentialFile, atomically: true, encoding: .utf8)
        let receipt = world.root.appendingPathComponent("u1.receipt.json").path
        let purge = try world.run(["purge", "--credential-file", credentialFile.path, "--receipt", receipt])
        #expect(purge.exitCode == 0, "\(purge.stderr)")
        #expect(purge.stdout == "purged 2 entries; receipt written to \(receipt)\n")
        let text = try String(contentsOfFile: receipt, encoding: .utf8)
        for secret in [Self.u1, "r-7731", "r-7732", "receipts/"] { #expect(!text.contains(secret), "\(secret) in the receipt") }
        let verified = try world.run(["audit", "verify-receipt", receipt])
        #expect(verified.exitCode == 0, "\(verified.stderr)")
        #expect(verified.stdout.hasPrefix("ok: purge-credential of partition "))
        #expect(verified.stdout.contains("; 2 objects removed, none of the partition stored before it remains; 0 stored since by new requests\n"))
        let refused = try world.run(["purge", "--route", "receipts", "--receipt", receipt])
        #expect(refused.exitCode == 64)
        #expect(refused.stderr == "mediactl: option --receipt needs --credential-file or --subject\n")
        #expect(world.stop() == 0)
    }
}
