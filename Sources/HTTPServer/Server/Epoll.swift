import CHTTPServerLinux
import Glibc

/// Thin wrappers over epoll(7) and eventfd(2) for ``EventLoop``.
enum Epoll {
    /// Readiness bits used by the server.
    static let readable = UInt32(EPOLLIN.rawValue)
    static let writable = UInt32(EPOLLOUT.rawValue)
    static let hangUp = UInt32(EPOLLHUP.rawValue)
    /// The peer shut its writing side (FIN): reported without reading, so a connection awaiting its handler learns the
    /// client is gone.
    static let readHangUp = UInt32(EPOLLRDHUP.rawValue)
    static let error = UInt32(EPOLLERR.rawValue)

    /// A new epoll instance (close-on-exec), or `-1`.
    static func create() -> Int32 { epoll_create1(Int32(EPOLL_CLOEXEC)) }

    /// A new non-blocking, close-on-exec eventfd counter, or `-1`.
    static func makeEventFD() -> Int32 { eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC)) }

    /// Registers (`EPOLL_CTL_ADD`) or changes (`EPOLL_CTL_MOD`) the interest of `fd`;
    /// `token` comes back with each event. Level-triggered.
    @discardableResult
    static func control(_ epollFD: Int32, _ operation: Int32, _ fd: Int32, events: UInt32, token: UInt64) -> Bool {
        var event = epoll_event()
        event.events = events
        event.data.u64 = token
        return epoll_ctl(epollFD, operation, fd, &event) == 0
    }

    static func add(_ epollFD: Int32, _ fd: Int32, events: UInt32, token: UInt64) -> Bool {
        control(epollFD, EPOLL_CTL_ADD, fd, events: events, token: token)
    }

    static func modify(_ epollFD: Int32, _ fd: Int32, events: UInt32, token: UInt64) {
        control(epollFD, EPOLL_CTL_MOD, fd, events: events, token: token)
    }

    /// Adds one to an eventfd counter (wakes its epoll waiter).
    static func signal(_ eventFD: Int32) {
        var one: UInt64 = 1
        _ = write(eventFD, &one, 8)
    }

    /// Resets an eventfd counter.
    static func drain(_ eventFD: Int32) {
        var value: UInt64 = 0
        _ = read(eventFD, &value, 8)
    }
}

/// Process-wide glibc allocator tuning for servers.
public enum MallocTuning {
    /// Caps the number of glibc malloc arenas (`mallopt(M_ARENA_MAX, count)`), so memory freed
    /// by one thread is reused by the others instead of staying resident in per-thread arenas.
    /// Call it early, before threads start allocating.
    /// - Parameter count: the arena cap, at least 1.
    /// - Returns: whether glibc accepted the setting.
    @discardableResult
    public static func limitArenas(to count: Int) -> Bool {
        mallopt(M_ARENA_MAX, Int32(clamping: max(1, count))) == 1
    }

    /// Returns free heap memory to the kernel (`malloc_trim(0)`: whole free pages anywhere in the
    /// heaps are released with `MADV_DONTNEED`), lowering resident memory after churn. Takes each
    /// arena's lock for its walk.
    /// - Returns: whether memory was released.
    @discardableResult
    public static func trim() -> Bool {
        malloc_trim(0) == 1
    }
}
