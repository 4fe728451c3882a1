extension HTTPServerRequest {
    /// The target up to (not including) the first `?`, or the whole target; e.g. `"/catalog/a.jpg"`.
    /// Not percent-decoded or normalised: routing does that.
    public var path: Substring {
        target.firstIndex(of: "?").map { target[..<$0] } ?? target[...]
    }

    /// The text after the first `?`, or `nil` when the target has none; e.g. `"v=2"`.
    public var query: Substring? {
        target.firstIndex(of: "?").map { target[target.index(after: $0)...] }
    }
}
