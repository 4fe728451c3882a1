// The MediaPolicy module: policy files (`Policies/*.json`) → ``PolicySet`` (tiers and routes), and the
// storage hook chain (``StorageHookChain``) that turns a response into a ``StorageDecision``.
// Pure: the only I/O is ``PolicyLoader/load(directory:)`` reading the policy files.
// Format: docs/policy-format.md; storage classes: docs/storage-classes.md.
