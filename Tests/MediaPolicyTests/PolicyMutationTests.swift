import MediaCore
import Foundation
import MediaTestSupport
import Testing
@testable import MediaPolicy

@Suite struct PolicyMutationTests {
    static let original: [UInt8] = {
        let data = FileManager.default.contents(atPath: PolicyFixture.repositoryRoot + "/Policies/default.json") ?? Data()
        return [UInt8](data)
    }()

    static func mutate(_ bytes: [UInt8], _ random: inout SplitMix64) -> [UInt8] {
        var bytes = bytes
        let alphabet = Array("{}[]\":,0123456789-.eE tfnu\\/ax\n".utf8) + [0x00, 0xC3, 0xFF]
        for _ in 0..<Int.random(in: 1...3, using: &random) {
            let index = Int.random(in: 0..<bytes.count, using: &random)
            switch Int.random(in: 0..<3, using: &random) {
            case 0: bytes.remove(at: index)
            case 1: bytes.insert(alphabet.randomElement(using: &random)!, at: index)
            default: bytes[index] = alphabet.randomElement(using: &random)!
            }
        }
        return bytes
    }

    /// Whatever the parser accepts, Foundation's JSONSerialization accepts too (the parser is
    /// stricter: Foundation on Linux also takes trailing commas), and the loader never crashes: it
    /// loads, or every error names the file.
    @Test func mutantsOfTheDefaultPolicy() {
        var random = SplitMix64(state: 20_261_129)
        var parsed = 0, loaded = 0
        for _ in 0..<1500 {
            let bytes = PolicyMutationTests.mutate(PolicyMutationTests.original, &random)
            let ours = (try? JSONParser.parse(bytes)) != nil
            let foundation = (try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])) != nil
            // A valid number whose exponent overflows a Double (`315E36000`) is JSON (RFC 8259 §6) that
            // JSONSerialization refuses; the loader then reports it out of range.
            let overflows = String(decoding: bytes, as: UTF8.self).range(of: #"[0-9][eE][+-]?[0-9]{3,}"#, options: .regularExpression) != nil
            #expect(!ours || foundation || overflows, "accepted non-JSON \(String(decoding: bytes, as: UTF8.self).debugDescription)")
            if ours { parsed += 1 }
            do {
                _ = try PolicyLoader().load(sources: [.init(name: "Policies/m.json", bytes: bytes)])
                loaded += 1
            } catch {
                #expect(!error.errors.isEmpty)
                #expect(error.errors.allSatisfy { $0.file == "Policies/m.json" && $0.description.hasPrefix("Policies/m.json") })
            }
        }
        #expect(parsed > 50)
        #expect(loaded > 5)
    }
}
