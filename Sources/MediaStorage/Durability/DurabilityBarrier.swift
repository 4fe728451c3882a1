/// What a file store waits for before an entry's file may become visible: that the record written for the
/// entry (the `record` of ``MediaStoring/store(_:for:recordingFirst:)``, an audit log's `store` or `update`)
/// is durable. The service passes one over its audit log (docs/storage.md, "Durability").
///
/// The store calls ``mark()`` under its lock right after `record` ran, and ``waitUntilDurable(_:)`` once
/// the entry's temp file is written and fsynced, outside its lock, before renaming the file into place. So
/// after a power loss no object file is durable without its record: the rename that makes it visible is
/// issued only once the record is on stable storage.
public protocol DurabilityBarrier: Sendable {
    /// A mark covering everything recorded so far (for an audit log: the last `seq` written).
    func mark() -> Int

    /// Returns once everything up to `mark` is durable (at once when it already is).
    /// - Throws: when that cannot be made so (the entry's file is then not renamed into place).
    func waitUntilDurable(_ mark: Int) throws
}
