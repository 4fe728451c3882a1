import MediaCore

/// A storage class, the `storage` field of an audit record: MediaCore's ``MediaCore/StorageClass``, ordered from
/// narrowest (`none`) to widest (`disk`), spelled as policies spell it.
public typealias AuditStorage = StorageClass
