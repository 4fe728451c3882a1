import MediaCore

/// An error thrown while setting up or driving a ``MediaService`` (request failures are answered as
/// problem+json instead). A stable ``code`` plus context.
public typealias ServiceError = DomainError<ServiceErrorCode>

/// The stable codes of ``ServiceError``.
public struct ServiceErrorCode: ErrorCode {
    public let rawValue: String
    init(_ rawValue: String) { self.rawValue = rawValue }

    /// The state directory cannot be used.
    public static let stateDirectory = Self("state-directory")
    /// A purge named an unknown route.
    public static let unknownRoute = Self("unknown-route")
    /// The audit log refused a record.
    public static let audit = Self("audit")
    /// A reload after ``MediaService/stop()``.
    public static let stopping = Self("stopping")
    /// A policy set has a route the router refuses, or names a secret file that is refused.
    public static let invalidPolicy = Self("invalid-policy")
    /// A purge named a subject that is not 1–128 of `[A-Za-z0-9._-]`.
    public static let invalidSubject = Self("invalid-subject")
    /// A purge named a cache tag that is not 1–256 visible ASCII characters.
    public static let invalidTag = Self("invalid-tag")
    /// A purge named a URL that is not a request target (`/mount/path[?query]`) or whose query is refused.
    public static let invalidURL = Self("invalid-url")
    /// A purge asked for what its scope cannot give (a receipt of a purge that names no partition).
    public static let invalidPurge = Self("invalid-purge")
}
