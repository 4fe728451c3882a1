// The MediaStorage module. See docs/architecture.md.
