import Testing
@testable import MediaTransform

@Suite struct LinkTests {
    @Test func vipsIsLinked() {
        #expect(MediaTransformLinkCheck.vipsVersion.hasPrefix("8."))
    }
}
