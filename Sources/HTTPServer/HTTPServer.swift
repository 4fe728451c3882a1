// The HTTPServer module. See docs/architecture.md.
