/// An `errno` value with its symbolic name, written `EPERM (1)` in the service's log lines
/// (docs/operations.md, "When the audit log cannot be written").
///
/// The names are those of Linux (`errno(3)`, asm-generic numbering) for the errors a file write, fsync, open,
/// rename or lock can return; any other number is written `errno 1234 (1234)`.
public struct AuditErrno: Hashable, Sendable, CustomStringConvertible {
    /// The number, e.g. 1.
    public let number: Int32

    public init(_ number: Int32) { self.number = number }

    /// The symbolic name, e.g. `EPERM`; `errno N` for a number without one here.
    public var name: String { Self.names[number] ?? "errno \(number)" }

    /// `EPERM (1)`.
    public var description: String { "\(name) (\(number))" }

    /// The name in lower case for a reason code, e.g. `eperm`; `errno-1234` for a number without a name here.
    public var reasonSuffix: String { Self.names[number]?.lowercased() ?? "errno-\(number)" }

    /// Linux's numbers (asm-generic/errno-base.h, errno.h) of the errors file-system calls return.
    static let names: [Int32: String] = [
        1: "EPERM", 2: "ENOENT", 4: "EINTR", 5: "EIO", 6: "ENXIO", 9: "EBADF", 11: "EAGAIN", 12: "ENOMEM",
        13: "EACCES", 16: "EBUSY", 17: "EEXIST", 18: "EXDEV", 19: "ENODEV", 20: "ENOTDIR", 21: "EISDIR",
        22: "EINVAL", 23: "ENFILE", 24: "EMFILE", 26: "ETXTBSY", 27: "EFBIG", 28: "ENOSPC", 29: "ESPIPE",
        30: "EROFS", 31: "EMLINK", 32: "EPIPE", 36: "ENAMETOOLONG", 37: "ENOLCK", 38: "ENOSYS", 39: "ENOTEMPTY",
        40: "ELOOP", 95: "EOPNOTSUPP", 116: "ESTALE", 117: "EUCLEAN", 122: "EDQUOT",
    ]
}
