import Foundation
import MediaCrypto

/// Crypto benchmarks; see docs/benchmarks.md and docs/storage.md.
///
/// AES-256-GCM seal and open MB/s on 16 KiB and 1 MiB buffers through MediaCrypto, beside
/// `openssl speed -evp aes-256-gcm -bytes 16384 -seconds 3` run in the same process run; SHA-256 MB/s.
/// Ours are whole seals (context, key schedule, associated data, tag, output array) on each call,
/// best of five; `openssl speed -evp` streams `EVP_EncryptUpdate` on one context, so the ratio
/// includes MediaCrypto's per-call overhead.
enum CryptoBenchmarks {
    static func run() throws {
        let key = try SymmetricKey()
        let aad = [UInt8](repeating: 7, count: 72)
        var seal16k = 0.0
        var counterSeal16k = 0.0
        var open16k = 0.0
        for size in [16_384, 1 << 20] {
            let plaintext = [UInt8](repeating: 0x42, count: size)
            let iterations = max(16, (128 << 20) / size)
            let sealed = try AESGCM.seal(plaintext, key: key, authenticating: aad)
            let sealNs = best { Stopwatch.measure(iterations: iterations) {
                blackHole(try! AESGCM.seal(plaintext, key: key, authenticating: aad))
            } }
            let openNs = best { Stopwatch.measure(iterations: iterations) {
                blackHole(try! AESGCM.open(sealed, key: key, authenticating: aad))
            } }
            // The encrypted-disk store's nonces: 4 fixed bytes ‖ u64 counter (SP 800-38D §8.2.1).
            var counter: UInt64 = 0
            var nonce = [UInt8](repeating: 9, count: 12)
            let counterNs = best { Stopwatch.measure(iterations: iterations) {
                counter += 1
                withUnsafeBytes(of: counter.bigEndian) { nonce.replaceSubrange(4..<12, with: $0) }
                blackHole(try! AESGCM.seal(plaintext, key: key, authenticating: aad, nonce: nonce))
            } }
            let sealRate = Double(size) / sealNs * 1e3
            let counterRate = Double(size) / counterNs * 1e3
            let openRate = Double(size) / openNs * 1e3
            if size == 16_384 { (seal16k, counterSeal16k, open16k) = (sealRate, counterRate, openRate) }
            print(String(format: "AES-256-GCM %@ (MediaCrypto): seal %.0f MB/s (random nonce), %.0f MB/s (counter nonce), open %.0f MB/s",
                         size == 16_384 ? "16 KiB" : "1 MiB", sealRate, counterRate, openRate))
        }
        let data = [UInt8](repeating: 0x33, count: 1 << 20)
        let shaNs = best { Stopwatch.measure(iterations: 128) { blackHole(SHA256.hash(data)) } }
        print(String(format: "SHA-256 1 MiB: %.0f MB/s", Double(1 << 20) / shaNs * 1e3))
        if let reference = try opensslSpeed() {
            print(String(format: "openssl speed -evp aes-256-gcm -bytes 16384 -seconds 3: %.0f MB/s", reference))
            print(String(format: "MediaCrypto / openssl at 16 KiB (goal >= 0.8x): seal random nonce %.2fx, seal counter nonce %.2fx, open %.2fx",
                         seal16k / reference, counterSeal16k / reference, open16k / reference))
        } else {
            print("openssl speed: not available")
        }
    }

    /// The fastest of five runs (the machine is shared; the minimum is the least disturbed).
    private static func best(_ run: () -> Double) -> Double { (0..<5).map { _ in run() }.min()! }

    /// Runs `openssl speed` and returns its AES-256-GCM figure in MB/s (it prints 1000s of bytes per second).
    private static func opensslSpeed() throws -> Double? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["openssl", "speed", "-evp", "aes-256-gcm", "-bytes", "16384", "-seconds", "3"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard let line = output.split(separator: "\n").last(where: { $0.hasPrefix("AES-256-GCM") }),
              let field = line.split(separator: " ").last, field.hasSuffix("k"),
              let thousands = Double(field.dropLast()) else { return nil }
        return thousands / 1e3
    }
}
