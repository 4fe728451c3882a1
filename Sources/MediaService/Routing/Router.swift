import MediaPolicy
/// Picks the route whose mount is the longest segment-wise prefix of a request path and builds
/// the upstream URL from the route's origin base; clients never choose the host.
public struct Router: Sendable {
    struct Entry: Sendable {
        let route: Route
        let mountSegments: [String]
    }

    let entries: [Entry]

    /// The routes, in the order given.
    public var routes: [Route] { entries.map(\.route) }

    /// Builds a router.
    /// - Throws: ``RoutingError/Code/invalidRoute`` when a mount does not start and end with `/`
    ///   or is not a clean path, an origin base is not `http(s)://host…/` without query or
    ///   fragment, or a name or mount repeats.
    public init(routes: [Route]) throws(RoutingError) {
        var names = Set<String>(), mounts = Set<[String]>()
        var entries: [Entry] = []
        for route in routes {
            guard route.mount.hasPrefix("/"), route.mount.hasSuffix("/") else {
                throw RoutingError(.invalidRoute, "route '\(route.name)': mount '\(route.mount)' must start and end with /")
            }
            let parsed: RequestTarget
            do {
                parsed = try RequestTarget(parsing: route.mount)
            } catch {
                throw RoutingError(.invalidRoute, "route '\(route.name)': mount '\(route.mount)' is not a clean path (\(error.code))")
            }
            guard parsed.query == nil else {
                throw RoutingError(.invalidRoute, "route '\(route.name)': mount '\(route.mount)' has a query")
            }
            try Self.checkOrigin(route)
            guard names.insert(route.name).inserted else {
                throw RoutingError(.invalidRoute, "route name '\(route.name)' is used twice")
            }
            let mountSegments = Array(parsed.segments.dropLast())
            guard mounts.insert(mountSegments).inserted else {
                throw RoutingError(.invalidRoute, "mount '\(route.mount)' is used twice")
            }
            entries.append(Entry(route: route, mountSegments: mountSegments))
        }
        self.entries = entries
    }

    /// The route with the longest mount that prefixes `target`'s segments, or `nil`.
    ///
    /// `/catalog/` matches `/catalog/a.jpg` and `/catalog/` but not `/catalog` or `/catalogue/x`.
    /// - Complexity: O(routes × mount depth).
    public func match(_ target: RequestTarget) -> RouteMatch? {
        var best: Entry?
        for entry in entries where target.segments.count > entry.mountSegments.count
            && target.segments.starts(with: entry.mountSegments)
        {
            if best == nil || entry.mountSegments.count > best!.mountSegments.count { best = entry }
        }
        guard let best else { return nil }
        let remainder = Array(target.segments.dropFirst(best.mountSegments.count))
        // origin base + encoded segments joined with "/" + "?query", written into one buffer.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(best.route.origin.utf8.count + remainder.reduce(0) { $0 + $1.utf8.count * 3 + 1 }
                              + (target.query?.utf8.count ?? -1) + 1)
        bytes.appendUTF8(best.route.origin)
        for (index, segment) in remainder.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: "/")) }
            bytes.appendUTF8(RequestTarget.encode(segment: segment))
        }
        if let query = target.query {
            bytes.append(UInt8(ascii: "?"))
            bytes.appendUTF8(query)
        }
        let url = String(decoding: bytes, as: UTF8.self)
        return RouteMatch(route: best.route, remainder: remainder, query: target.query, upstreamURL: url)
    }

    /// Parses `rawTarget` and matches it.
    /// - Throws: a request-target ``RoutingError`` (400) or ``RoutingError/Code/noRoute`` (404).
    public func resolve(_ rawTarget: String, configuration: RequestTarget.Configuration = .init()) throws(RoutingError)
        -> RouteMatch
    {
        let target = try RequestTarget(parsing: rawTarget, configuration: configuration)
        guard let match = match(target) else {
            throw RoutingError(.noRoute, "no route is mounted at \(target.encoded.prefix { $0 != "?" })")
        }
        return match
    }

    static func checkOrigin(_ route: Route) throws(RoutingError) {
        let base = route.origin
        let rest: Substring
        if base.hasPrefix("http://") {
            rest = base.dropFirst(7)
        } else if base.hasPrefix("https://") {
            rest = base.dropFirst(8)
        } else {
            throw RoutingError(.invalidRoute, "route '\(route.name)': origin '\(base)' must start with http:// or https://")
        }
        let host = rest.prefix { $0 != "/" }
        guard !host.isEmpty, !host.contains("@"), base.hasSuffix("/"), !base.contains("?"), !base.contains("#"),
              rest.count > host.count
        else {
            throw RoutingError(.invalidRoute, "route '\(route.name)': origin '\(base)' needs a host, a path ending with / and no query, userinfo or fragment")
        }
    }
}
