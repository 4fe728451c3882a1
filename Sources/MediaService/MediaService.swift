// The MediaService module. See docs/architecture.md.
