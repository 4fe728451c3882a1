import MediaAudit

/// The service's Prometheus text (format 0.0.4) for `GET /_mediactl/metrics`: per-tier counters
/// (`mediactl_<counter>_total{tier="…"}`), the transform-time histogram, byte gauges
/// (`mediactl_stored_bytes{tier="…",store="…"}`, `mediactl_pending_write_bytes{tier="…",store="…"}`), signed-URL
/// outcomes, policy reloads and the policy in force, and `mediactl_audit_writer_failed` (0 or 1) and
/// `mediactl_audit_writer_outages_total` (no labels: see ``ServiceAuditor/writerFailed``), request durations by tier
/// and outcome and answers by status class (``RequestMetrics``), origin exchange durations by route
/// (``OriginFetchTimes``) and `mediactl_build_info{version,commit}`. Lines end with `\n`.
struct ServiceMetrics {
    /// The policy snapshot in force: its tiers' runtimes (counters, gauges) and its digest.
    var snapshot: PolicySnapshot
    /// Reloads that put a new set in force, and reloads that kept the set in force.
    var reloads: (ok: Int, failed: Int)
    var auditor: ServiceAuditor
    /// Request durations and status classes (recorded by the HTTP front).
    var requests: RequestMetrics
    /// Origin exchange durations by route.
    var originFetches: OriginFetchTimes

    var text: String {
        var lines: [String] = []
        let runtimes = snapshot.runtimes
        let names = runtimes.keys.sorted()
        for counter in TierCounters.Counter.allCases {
            lines.append("# HELP mediactl_\(counter.rawValue)_total \(counter.help)")
            lines.append("# TYPE mediactl_\(counter.rawValue)_total counter")
            for name in names {
                lines.append("mediactl_\(counter.rawValue)_total{tier=\"\(name)\"} \(runtimes[name]!.counters.value(counter))")
            }
        }
        lines.append("# HELP mediactl_transform_seconds Time to derive one image (docs/variants.md), waiting for a transform thread included.")
        lines.append("# TYPE mediactl_transform_seconds histogram")
        for name in names {
            lines.append(contentsOf: runtimes[name]!.transformTimes.lines(name: "mediactl_transform_seconds", labels: "tier=\"\(name)\""))
        }
        storeGauges("mediactl_stored_bytes", help: "Bytes held per tier and store (key + stored head + body; files: file size); hot = memory copies of a persistent tier's files.", \.byteGauges, tiers: names, into: &lines)
        lines.append("# HELP mediactl_signed_url_requests_total Requests to tiers with signedURLs by outcome: verified, signature-required (unsigned where signatures are required), or the refusal code (docs/signed-urls.md).")
        lines.append("# TYPE mediactl_signed_url_requests_total counter")
        for name in names where snapshot.policies.tiers[name]?.signedURLs != nil {
            for (outcome, count) in runtimes[name]!.counters.signed.values {
                lines.append("mediactl_signed_url_requests_total{tier=\"\(name)\",outcome=\"\(outcome)\"} \(count)")
            }
        }
        lines.append("# HELP mediactl_policy_reloads_total Policy reloads (SIGHUP, mediactl reload): ok put a new set in force; failed kept the set in force (invalid files, or an error while swapping).")
        lines.append("# TYPE mediactl_policy_reloads_total counter")
        lines.append("mediactl_policy_reloads_total{result=\"ok\"} \(reloads.ok)")
        lines.append("mediactl_policy_reloads_total{result=\"failed\"} \(reloads.failed)")
        lines.append("# HELP mediactl_policy_info The policy set in force: its SHA-256 (docs/audit-format.md, \"Policy records\").")
        lines.append("# TYPE mediactl_policy_info gauge")
        lines.append("mediactl_policy_info{sha256=\"\(snapshot.digest)\"} 1")
        storeGauges("mediactl_pending_write_bytes", help: "File bytes of stored responses whose file the write-behind writer has not written yet (served from memory meanwhile).", \.pendingWriteGauges, tiers: names, into: &lines)
        lines.append("# HELP mediactl_audit_writer_failed 1 while the audit log cannot be written (disk full or unwritable; retried from 1 s to every 30 s): nothing unaudited is stored, so the replica serves without caching and /_mediactl/ready answers 503.")
        lines.append("# TYPE mediactl_audit_writer_failed gauge")
        lines.append("mediactl_audit_writer_failed \(auditor.writerFailed ? 1 : 0)")
        lines.append("# HELP mediactl_audit_writer_outages_total Times the audit log could not be written since the start (each ends with a gap record once it is written again).")
        lines.append("# TYPE mediactl_audit_writer_outages_total counter")
        lines.append("mediactl_audit_writer_outages_total \(auditor.writer.outageCount)")
        lines += requests.lines()
        lines += originFetches.lines()
        lines.append("# HELP mediactl_build_info The running build: its version and the commit it was made from (unknown outside a git checkout).")
        lines.append("# TYPE mediactl_build_info gauge")
        lines.append("mediactl_build_info{version=\"\(ServiceVersion.current)\",commit=\"\(ServiceVersion.commit)\"} 1")
        return lines.joined(separator: "\n") + "\n"
    }

    /// A gauge per tier of `tiers` (in that order) and store (`NAME{tier="…",store="…"} BYTES`), after its HELP and
    /// TYPE lines.
    private func storeGauges(_ metric: String, help: String, _ gauges: KeyPath<TierRuntime, [(store: String, bytes: Int)]>,
                             tiers: [String], into lines: inout [String]) {
        lines.append("# HELP \(metric) \(help)")
        lines.append("# TYPE \(metric) gauge")
        for name in tiers {
            for gauge in snapshot.runtimes[name]![keyPath: gauges] {
                lines.append("\(metric){tier=\"\(name)\",store=\"\(gauge.store)\"} \(gauge.bytes)")
            }
        }
    }
}
