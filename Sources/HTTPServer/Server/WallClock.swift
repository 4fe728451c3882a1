import Glibc
import MediaCore

/// The wall clock, for the `Date` field (formatted by MediaCore's ``MediaCore/HTTPDate``).
enum WallClock {
    /// The current wall-clock time in whole seconds since 1970.
    static func nowSeconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec)
    }
}
