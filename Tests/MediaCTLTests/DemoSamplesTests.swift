import Foundation
import Testing

@testable import MediaCTL

@Suite struct DemoSamplesTests {
    @Test func everyBundledImageInOrder() throws {
        let samples = try DemoSamples.all()
        #expect(
            samples.map(\.requestPath) == [
                "/avatars/u1001.jpg", "/avatars/u1001.next.jpg", "/avatars/u1002.jpg", "/avatars/u1002.next.jpg",
                "/catalog/astronaut-4530ade2.jpg", "/catalog/coffee-237a7131.jpg", "/catalog/coffee.webp",
                "/catalog/horse-d29d871c.jpg", "/catalog/spinner.gif",
                "/large/astronaut-4000.jpg",
                "/one-time/ticket-5510.jpg",
                "/receipts/r-7731.png", "/receipts/r-7732.jpg",
                "/uploads/gps-orient6.jpg",
            ])
    }

    @Test func pathsPointAtTheBytes() throws {
        let coffee = try #require(try DemoSamples.all().first { $0.name == "coffee-237a7131.jpg" })
        #expect(coffee.folder == "catalog")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: coffee.path))
        #expect(bytes.count == 15996)
        #expect(Array(bytes.prefix(3)) == [0xFF, 0xD8, 0xFF])
        #expect(DemoSamples.directory.map { coffee.path.hasPrefix($0.path) } == true)
    }
}
