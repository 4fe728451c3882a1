#if canImport(Glibc)
    import Glibc
#endif

extension HTTPServer {
    /// Checks that `host:port` can be listened on now: binds, listens and closes at once (port 0 always can). A caller
    /// runs it before it opens what a failed start would have to undo (`mediactl serve` and its audit log), so a port
    /// in use fails before anything is recorded; the real bind in ``start()`` can still lose a race and fails then.
    /// - Throws: ``HTTPServerError`` as ``start()`` does (`bind-failed` with `errno` `EADDRINUSE`, …).
    public static func probe(host: String, port: Int) throws(HTTPServerError) {
        guard port != 0 else { return }
        let (fd, _) = try Socket.listen(host: host, port: port, backlog: 1)
        close(fd)
    }
}
