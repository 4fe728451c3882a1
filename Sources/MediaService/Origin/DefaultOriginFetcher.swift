#if canImport(Glibc)
import Glibc
#endif

/// The production origin transport: a ``CurlOriginFetcher`` with defaults, or — when libcurl
/// cannot be loaded (``CurlOriginFetcher/Unavailable``) — a ``URLSessionOriginFetcher`` with
/// defaults, after a one-line note.
///
/// `mediactl serve`, `demo`, `fetch` and `inspect` use it; library users may too.
public enum DefaultOriginFetcher {
    /// The note's text for a fallback, e.g. `mediactl: libcurl unavailable: cannot load …; using URLSession`.
    public static func fallbackNote(_ reason: CurlOriginFetcher.Unavailable) -> String {
        "mediactl: \(reason); using URLSession as the origin transport"
    }

    /// A new transport.
    /// - Parameter note: receives the fallback note (one line, no newline). Default: written to
    ///   standard error.
    public static func make(note: (String) -> Void = DefaultOriginFetcher.writeToStandardError) -> any OriginFetching {
        make(loading: { try CurlOriginFetcher() }, note: note)
    }

    /// ``make(note:)`` with the curl fetcher's creation injected (tests).
    static func make(loading: () throws -> CurlOriginFetcher, note: (String) -> Void) -> any OriginFetching {
        do {
            return try loading()
        } catch let unavailable as CurlOriginFetcher.Unavailable {
            note(fallbackNote(unavailable))
        } catch {
            note(fallbackNote(CurlOriginFetcher.Unavailable("\(error)")))
        }
        return URLSessionOriginFetcher()
    }

    /// Writes `line` and a newline to standard error.
    public static func writeToStandardError(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    }
}
