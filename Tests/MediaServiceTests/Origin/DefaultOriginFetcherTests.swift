@testable import MediaService
import Testing

@Suite struct DefaultOriginFetcherTests {
    @Test func libcurlIsTheDefault() {
        let notes = Locked<[String]>([])
        let fetcher = DefaultOriginFetcher.make { line in notes.update { $0.append(line) } }
        #expect(fetcher is CurlOriginFetcher)
        #expect(notes.value == [])
    }

    @Test func fallsBackToURLSessionWithOneNote() {
        let notes = Locked<[String]>([])
        let fetcher = DefaultOriginFetcher.make(
            loading: { throw CurlOriginFetcher.Unavailable("cannot load libcurl.so.4: not found") },
            note: { line in notes.update { $0.append(line) } })
        #expect(fetcher is URLSessionOriginFetcher)
        #expect(notes.value == ["mediactl: libcurl unavailable: cannot load libcurl.so.4: not found; using URLSession as the origin transport"])
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
}
