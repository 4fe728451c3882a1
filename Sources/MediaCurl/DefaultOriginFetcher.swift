import Glibc
import MediaCore
import MediaOrigin

/// The production origin transport: a ``CurlOriginFetcher`` with defaults.
///
/// libcurl is the only transport. It is loaded at run time (`libcurl.so.4`), the library Swift's own
/// FoundationNetworking links, so it is present wherever the Swift runtime is. When it cannot be used
/// anyway (missing, older than 7.85, no multi handle), ``make(note:)`` writes one note and returns an
/// ``UnavailableOriginFetcher``: every origin fetch then fails with `connection-failed` naming the reason
/// (502), while stored responses are still served.
///
/// `mediactl serve`, `demo`, `fetch` and `inspect` use it; library users may too.
public enum DefaultOriginFetcher {
    /// The note's text when libcurl cannot be used, e.g.
    /// `mediactl: libcurl unavailable: cannot load libcurl.so.4: …; origin fetches will fail`.
    public static func unavailableNote(_ reason: CurlOriginFetcher.Unavailable) -> String {
        "mediactl: \(reason); origin fetches will fail"
    }

    /// A new transport.
    /// - Parameter note: receives the note when libcurl cannot be used (one line, no newline). Default:
    ///   written to standard error.
    public static func make(note: (String) -> Void = StandardError.write) -> any OriginFetching {
        make(loading: { try CurlOriginFetcher() }, note: note)
    }

    /// ``make(note:)`` with the curl fetcher's creation injected (tests).
    static func make(loading: () throws -> CurlOriginFetcher, note: (String) -> Void) -> any OriginFetching {
        let reason: CurlOriginFetcher.Unavailable
        do {
            return try loading()
        } catch let unavailable as CurlOriginFetcher.Unavailable {
            reason = unavailable
        } catch {
            reason = CurlOriginFetcher.Unavailable("\(error)")
        }
        note(unavailableNote(reason))
        return UnavailableOriginFetcher(reason: reason)
    }
}
