extension PolicyLoader {
    /// Parses, validates and merges policy files given as bytes, in the given order.
    ///
    /// - Parameters:
    ///   - sources: the files; their names appear in errors and in ``Route/file``.
    ///   - directory: named in directory-wide errors (``PolicyError/Code/noRoutes``,
    ///     ``PolicyError/Code/noPolicyFiles``). Default: `Policies`.
    /// - Throws: ``PolicyErrorList`` with every problem, per file in document order, then the
    ///   cross-file ones (``PolicyError/Code/duplicateTier``, ``PolicyError/Code/duplicateRoute``,
    ///   ``PolicyError/Code/unknownTier``, ``PolicyError/Code/overlappingMount``,
    ///   ``PolicyError/Code/noRoutes``).
    public func load(sources: [Source], directory: String = "Policies") throws(PolicyErrorList) -> PolicySet {
        guard !sources.isEmpty else {
            throw PolicyErrorList([PolicyError(
                .noPolicyFiles, file: directory, keyPath: "", value: nil, problem: "no policy files (*.json)",
                allowed: "one or more *.json files")])
        }
        var merger = PolicyMerger(directory: directory)
        for source in sources {
            var decoder = PolicyFileDecoder(file: source.name)
            if source.bytes.count > configuration.maximumFileBytes {
                merger.errors.append(PolicyError(
                    .unreadable, file: source.name, keyPath: "", value: nil, problem: "the file has \(source.bytes.count) bytes",
                    allowed: "at most \(configuration.maximumFileBytes) bytes"))
                continue
            }
            do {
                decoder.decode(try PolicyJSONParser.parse(source.bytes))
            } catch {
                merger.errors.append(PolicyError(
                    .invalidJSON, file: source.name, keyPath: "", value: nil,
                    problem: "invalid JSON at line \(error.line), column \(error.column): \(error.message)",
                    allowed: "JSON (RFC 8259) without comments or trailing commas"))
                continue
            }
            merger.add(decoder)
        }
        return try merger.finish()
    }
}
