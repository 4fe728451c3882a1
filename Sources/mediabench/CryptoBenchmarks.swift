import Foundation
import MediaCrypto

/// Crypto benchmarks; see docs/benchmarks.md and docs/storage.md.
///
/// AES-256-GCM seal and open MB/s on 16 KiB and 1 MiB buffers through MediaCrypto, beside
/// `openssl speed -evp aes-256-gcm -bytes 16384 -seconds 3` run in the same process run; SHA-256 MB/s.
enum CryptoBenchmarks {
    static func run() throws {
        let key = try SymmetricKey()
        let aad = [UInt8](repeating: 7, count: 72)
        var seal16k = 0.0
        for size in [16_384, 1 << 20] {
            let plaintext = [UInt8](repeating: 0x42, count: size)
            let iterations = max(64, (512 << 20) / size)
            var sealed: [UInt8] = []
            let sealNs = Stopwatch.measure(iterations: iterations) {
                sealed = try! AESGCM.seal(plaintext, key: key, authenticating: aad)
            }
            let openNs = Stopwatch.measure(iterations: iterations) {
                blackHole(try! AESGCM.open(sealed, key: key, authenticating: aad))
            }
            let sealRate = Double(size) / sealNs * 1e3
            if size == 16_384 { seal16k = sealRate }
            print(String(format: "AES-256-GCM %@ (MediaCrypto): seal %.0f MB/s, open %.0f MB/s",
                         size == 16_384 ? "16 KiB" : "1 MiB", sealRate, Double(size) / openNs * 1e3))
        }
        let data = [UInt8](repeating: 0x33, count: 1 << 20)
        let shaNs = Stopwatch.measure(iterations: 512) { blackHole(SHA256.hash(data)) }
        print(String(format: "SHA-256 1 MiB: %.0f MB/s", Double(1 << 20) / shaNs * 1e3))
        if let reference = try opensslSpeed() {
            print(String(format: "openssl speed -evp aes-256-gcm -bytes 16384 -seconds 3: %.0f MB/s", reference))
            print(String(format: "MediaCrypto seal / openssl at 16 KiB: %.2fx (goal >= 0.8x)", seal16k / reference))
        } else {
            print("openssl speed: not available")
        }
    }

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
