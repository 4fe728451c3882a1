// The MediaCTL module. See docs/architecture.md.
