/// A response's body as it is sent: all of a buffer or a part of it (a `206` of a stored image is a range of the
/// image's one buffer, not a copy of the part), and what keeps that buffer shared until the last byte is sent.
/// The service's and the HTTP server's responses both hold one, so a body passes between them unchanged. Its
/// accessors are `@inlinable`: both modules read them on every hit.
public struct ResponseBody: Sendable {
    /// The buffer the body comes from.
    public var storage: [UInt8]
    /// The part of ``storage`` that is the body, or `nil` for all of it.
    public var range: Range<Int>?
    /// What keeps ``storage`` shared while the body is written: a stored entry's owner, so the next reader of the
    /// same large object gets the same buffer. Default: `nil`.
    public var owner: (any AnyObject & Sendable)?

    /// All of `bytes`.
    @inlinable
    public init(_ bytes: [UInt8] = []) {
        storage = bytes
    }

    /// `range` of `storage`, shared, not copied.
    @inlinable
    public init(storage: [UInt8], range: Range<Int>) {
        self.storage = storage
        self.range = range
    }

    /// The body's bytes (a copy when ``range`` is set). Setting them replaces the storage and clears ``range`` and
    /// ``owner``.
    @inlinable
    public var bytes: [UInt8] {
        get { range.map { Array(storage[$0]) } ?? storage }
        set { self = ResponseBody(newValue) }
    }

    /// The body's length in bytes, without copying.
    @inlinable
    public var count: Int { range?.count ?? storage.count }

    /// The offsets of the body in ``storage``.
    @inlinable
    public var span: Range<Int> { range ?? 0..<storage.count }
}
