import MediaCore

/// One problem in a policy directory: a stable ``code`` plus where it is and what is allowed.
///
/// ``description`` is exactly `<file>: <keyPath>: <problem>; allowed: <allowed>` (the `<keyPath>: `
/// part is left out when ``keyPath`` is empty), e.g.
/// `Policies/default.json: tiers.public.maxTTTL: unknown key (did you mean `maxTTL`?); allowed: cache, contentTypes, …`.
/// New codes may be added; switch over ``code`` with a `default` branch.
public struct PolicyError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The stable error code.
    public struct Code: ErrorCode {
        /// The code as text, e.g. `unknown-key`.
        public let rawValue: String
        init(_ rawValue: String) { self.rawValue = rawValue }

        /// The directory has no `*.json` files.
        public static let noPolicyFiles = Code("no-policy-files")
        /// A directory or file could not be read, or a file is over the size limit.
        public static let unreadable = Code("unreadable")
        /// A file is not valid JSON (the problem names line and column).
        public static let invalidJSON = Code("invalid-json")
        /// A key the format does not know (the problem suggests the closest known key).
        public static let unknownKey = Code("unknown-key")
        /// A key appears twice in one object.
        public static let duplicateKey = Code("duplicate-key")
        /// A required key is absent.
        public static let missingKey = Code("missing-key")
        /// A value has the wrong JSON type.
        public static let wrongType = Code("wrong-type")
        /// A value is not one of the allowed values or has the wrong shape.
        public static let invalidValue = Code("invalid-value")
        /// A number is negative, zero where not allowed, or absurdly large.
        public static let outOfRange = Code("out-of-range")
        /// A tier name is defined in two files, or is malformed.
        public static let duplicateTier = Code("duplicate-tier")
        /// A route names a tier no file defines.
        public static let unknownTier = Code("unknown-tier")
        /// Two routes share a name.
        public static let duplicateRoute = Code("duplicate-route")
        /// A mount does not start and end with `/`, or is otherwise malformed or reserved.
        public static let invalidMount = Code("invalid-mount")
        /// One mount is a prefix of another (also across files).
        public static let overlappingMount = Code("overlapping-mount")
        /// An origin is not an absolute http(s) URL ending in `/` without query, fragment or user info.
        public static let invalidOrigin = Code("invalid-origin")
        /// Tier keys that contradict each other (e.g. forwarded credentials in an unpartitioned shared cache).
        public static let contradiction = Code("contradiction")
        /// An override names a route no file defines (``PolicySet/overridingOrigin(_:forRoute:)``).
        public static let unknownRoute = Code("unknown-route")
        /// No file defines a route.
        public static let noRoutes = Code("no-routes")
        /// A secret file a policy names (a signed-URL keys file, an origin token file) is missing, unreadable,
        /// readable by group or others, or malformed (docs/signed-urls.md).
        public static let secretFile = Code("secret-file")
    }

    /// The stable error code.
    public var code: Code
    /// The file as given to the loader (e.g. `Policies/default.json`), or the directory for
    /// directory-wide problems.
    public var file: String
    /// The key path, e.g. `tiers.private.maxTTL` or `routes[2].mount`; empty for the whole file.
    public var keyPath: String
    /// The offending value as short JSON (e.g. `-1`, `"disc"`, `{…}`), or `nil` when absent.
    public var value: String?
    /// What is allowed there, for people (e.g. `disk, encrypted-disk, memory, none`).
    public var allowed: String
    /// What is wrong, for people; includes ``value`` when there is one.
    public var problem: String

    /// Creates an error; ``description`` is derived from the fields.
    public init(_ code: Code, file: String, keyPath: String, value: String?, problem: String, allowed: String) {
        self.code = code
        self.file = file
        self.keyPath = keyPath
        self.value = value
        self.problem = problem
        self.allowed = allowed
    }

    public var description: String {
        let location = keyPath.isEmpty ? file : "\(file): \(keyPath)"
        return "\(location): \(problem); allowed: \(allowed)"
    }
}

/// Every problem found while loading a policy directory, in a stable order: files in load order
/// (each file's objects in document order; within one object, unknown and repeated keys first,
/// then the known keys in the order of docs/policy-format.md), then cross-file checks in route order.
public struct PolicyErrorList: Error, Hashable, Sendable, CustomStringConvertible {
    /// The problems; never empty when thrown.
    public var errors: [PolicyError]

    public init(_ errors: [PolicyError]) {
        self.errors = errors
    }

    /// One ``PolicyError/description`` per line.
    public var description: String { errors.map(\.description).joined(separator: "\n") }
}
