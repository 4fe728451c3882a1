import Foundation
@testable import MediaCurl
@testable import MediaService
import MediaTestSupport
import Testing

@Suite struct DefaultOriginFetcherTests {
    @Test func libcurlIsTheTransport() {
        let notes = Locked<[String]>([])
        let fetcher = DefaultOriginFetcher.make { line in notes.update { $0.append(line) } }
        #expect(fetcher is CurlOriginFetcher)
        #expect(notes.value == [])
    }

    @Test func withoutLibcurlEveryFetchFailsAfterOneNote() async {
        let notes = Locked<[String]>([])
        let fetcher = DefaultOriginFetcher.make(
            loading: { throw CurlOriginFetcher.Unavailable("cannot load libcurl.so.4: not found") },
            note: { line in notes.update { $0.append(line) } })
        #expect(fetcher is UnavailableOriginFetcher)
        #expect(notes.value == ["mediactl: libcurl unavailable: cannot load libcurl.so.4: not found; origin fetches will fail"])
        await #expect(throws: OriginError(.connectionFailed, "libcurl unavailable: cannot load libcurl.so.4: not found")) {
            try await fetcher.fetch(OriginRequest(url: "http://127.0.0.1:9/x"))
        }
    }

    @Test func aMissingLibraryIsReportedNotFatal() throws {
        guard case .failure(let error) = CurlLibrary.open("libcurl-absent.so.99") else {
            Issue.record("a missing library loaded")
            return
        }
        #expect(error.reason == "cannot load libcurl-absent.so.99: libcurl-absent.so.99: cannot open shared object file: No such file or directory")
    }

    @Test func theProcessLibraryIsRecentAndThreadSafe() throws {
        let library = try CurlLibrary.shared.get()
        #expect(library.versionNumber >= CurlLibrary.minimumVersion)
        #expect(library.supportsIPv6)
        #expect(library.isThreadSafe)
    }

    /// The premise of having one transport: the Swift runtime's `libFoundationNetworking.so` (next to the
    /// `libFoundation.so` this process maps) names `libcurl.so.4` among its needed libraries, so wherever the
    /// runtime's URLSession works, the library ``CurlLibrary`` opens is there.
    @Test func foundationNetworkingNeedsTheSameLibcurl() throws {
        // /proc files report size 0: read to the end rather than by size.
        let handle = try #require(FileHandle(forReadingAtPath: "/proc/self/maps"))
        let maps = String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
        let foundation = try #require(maps.split(separator: "\n").lazy.compactMap { line -> Substring? in
            guard let slash = line.firstIndex(of: "/") else { return nil }
            let path = line[slash...]
            return path.hasSuffix("/libFoundation.so") ? path : nil
        }.first)
        let networking = foundation.dropLast("libFoundation.so".count) + "libFoundationNetworking.so"
        let bytes = try #require(FileManager.default.contents(atPath: String(networking)))
        #expect(bytes.range(of: Data("libcurl.so.4\0".utf8)) != nil)
    }
}
