// The MediaPolicy module. See docs/architecture.md.
