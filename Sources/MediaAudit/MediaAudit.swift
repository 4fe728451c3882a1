// The MediaAudit module. See docs/architecture.md.
