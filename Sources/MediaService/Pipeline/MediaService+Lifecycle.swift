import MediaAudit

extension MediaService {
    /// Removes expired entries from every store (audited `expire`). `mediactl serve` calls it periodically.
    public func sweep() {
        let time = now
        for runtime in runtimes.values {
            runtime.copies?.sweep(now: time)
            // Each expired entry leaves the variants index through the store's `expire` event.
            for store in runtime.decidedStores { _ = store.sweep(now: time) }
        }
        auditor.flush()
    }

    /// Waits until every stored response accepted so far has reached its file (``Configuration/writesBehind``);
    /// returns at once without write-behind.
    public func flushWrites() {
        for runtime in runtimes.values { for store in runtime.decidedStores { store.flush() } }
    }

    /// Waits until every background refresh (`stale-while-revalidate`) started so far has finished.
    public func waitForBackgroundRefreshes() async {
        await background.waitForAll()
    }

    /// Graceful stop: waits for background refreshes and write-behind writes, shreds every sealed file (audited `shred`),
    /// zeroes the keys, writes `stop` and flushes the audit log. Idempotent. While the audit log cannot be written,
    /// it is retried once first: written again, it gets its `gap` record, then `stop`; still failing, no `stop` is
    /// written and ``Configuration/auditEvents`` hears ``MediaAudit/AuditWriterEvent/closedWhileFailing(_:)``.
    public func stop() async {
        guard !isStopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        await background.waitForAll()
        // Disk files are kept for the next start; sealed ones would only be written to be shredded below.
        for runtime in runtimes.values { runtime.disk?.flush() }
        for (name, runtime) in runtimes.sorted(by: { $0.key < $1.key }) {
            let before = runtime.counters.value(.shredded)
            runtime.sealed?.stop()
            auditor.shredSummary(tier: name, count: runtime.counters.value(.shredded) - before, reason: "service-stop")
        }
        keys.destroy()
        try? auditor.stop()
        auditor.close()
        try? auditLog?.close()
    }
}
