@testable import MediaService
import Testing

/// The non-throwing byte predicates agree with the throwing checks and the encoder's alphabet, byte for byte.
@Suite struct RequestTargetBytesTests {
    @Test func acceptedRawBytesAreExactlyThoseCheckRawAccepts() {
        for value in 0...255 {
            let byte = UInt8(value)
            let accepted = (try? RequestTarget.checkRaw(byte, at: 0, in: "path")) != nil
            #expect(RequestTarget.isAcceptedRaw(byte) == accepted, "byte \(value)")
        }
    }

    @Test func encodingKeepsExactlyThePcharAlphabet() {
        let kept = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,;=:@".utf8)
        for value in 0...127 {
            let byte = UInt8(value)
            #expect(RequestTarget.isUnreservedOrSubDelimiter(byte) == kept.contains(byte), "byte \(value)")
        }
    }
}
