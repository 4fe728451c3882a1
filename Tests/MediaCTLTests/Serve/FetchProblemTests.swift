import Foundation
import Testing

@testable import MediaCTL

/// `mediactl fetch` without `--output` shows an error's problem document (its `code` and `detail`
/// say why: an origin timeout, a refused image), not only its size.
@Suite struct FetchProblemTests {
    @Test func theProblemDocumentIsShownWhenNoOutputFileIsGiven() async throws {
        let setup = try FetchCommandTests.Setup()
        let missing = await setup.run(["/catalog/none.jpg"])
        #expect(missing.status == 1)
        let problem = #"{"code":"origin-status-404","detail":"the origin answered 404","status":404,"title":"Not Found","#
            + #""type":"https://mediactl.dev/problems/origin-status-404"}"#
        #expect(missing.stdout.hasSuffix("\nbody: \(problem.utf8.count) bytes\nproblem: \(problem)\n"))
        let file = setup.directory.path + "/problem.json"
        let written = await setup.run(["/catalog/none.jpg", "--output", file])
        #expect(written.stdout.hasSuffix("\nbody: \(problem.utf8.count) bytes (written to \(file))\n"))
        await setup.finish()
    }

    @Test func imagesGetNoProblemLine() async throws {
        let setup = try FetchCommandTests.Setup()
        let image = await setup.run(["/catalog/coffee-237a7131.jpg"])
        #expect(image.status == 0)
        #expect(image.stdout.hasSuffix("\nbody: 15996 bytes\n"))
        await setup.finish()
    }
}
