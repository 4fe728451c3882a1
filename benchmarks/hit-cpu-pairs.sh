#!/bin/bash
# CPU per memory hit of two mediactl builds, in interleaved pairs (docs/benchmarks.md; runs in
# benchmarks/results/2026-12-03-redesign-cpu.md and 2026-12-04-hit-path-operators-round-2.md).
# Each round: an nginx origin (benchmarks/nginx-origin.conf.in) and `mediactl serve` on one event loop pinned to
# CPU 0, a warm-up, then `wrk -t1 -c64` on CPU 1 for SECONDS against one catalog JPEG (a memory hit); the figure is
# serve's user + system CPU ticks (/proc/PID/stat) over the run divided by wrk's request count.
# Usage: benchmarks/hit-cpu-pairs.sh BEFORE-BINARY AFTER-BINARY [PAIRS=8] [SECONDS=8]
#   PERF=1 also records a `perf record -e cpu-clock -g` profile of each run into $WORK/<label>-<pair>/perf.data.
#   MODE=miss measures sequential misses instead: `wrk -t1 -c1` with benchmarks/wrk-report.lua's `unique` mode (a new
#   `?miss=` URL per request, so each is routed, admitted, fetched from nginx, validated, stored and audited); the
#   figure is then CPU per miss. CONNECTIONS=N overrides the connection count of either mode.
set -euo pipefail
BEFORE=$1; AFTER=$2; PAIRS=${3:-8}; SECONDS_PER_RUN=${4:-8}
MODE=${MODE:-hit}
case "$MODE" in
    hit) CONNECTIONS=${CONNECTIONS:-64}; WRK_SCRIPT=(); MEMORY_BYTES=67108864 ;;
    # 1 GiB for misses: every new object fits, so no run pays for evictions another does not.
    miss) CONNECTIONS=${CONNECTIONS:-1}; MEMORY_BYTES=1073741824 ;;
    *) echo "hit-cpu-pairs: MODE is hit or miss, not $MODE" >&2; exit 2 ;;
esac
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=${WORK:-$(mktemp -d /tmp/mediactl-hit-cpu.XXXXXX)}
ORIGIN_PORT=${ORIGIN_PORT:-18181}; PORT=${PORT:-18183}; ADMIN_PORT=${ADMIN_PORT:-18184}
for tool in nginx wrk taskset curl; do command -v $tool >/dev/null || { echo "hit-cpu-pairs: needs $tool" >&2; exit 2; }; done

run() {  # run LABEL BINARY → prints "LABEL REQUESTS µs"
    local label=$1 binary=$2 w="$WORK/$1"
    rm -rf "$w"; mkdir -p "$w/policies" "$w/state" "$w/tmp"
    sed -e "s#@WORK@#$w#g" -e "s#@ORIGIN_PORT@#$ORIGIN_PORT#g" -e "s#@CORPUS@#$ROOT/Tests/Fixtures/corpus#g" \
        "$ROOT/benchmarks/nginx-origin.conf.in" > "$w/origin.conf"
    taskset -c 1 nginx -c "$w/origin.conf" -p "$w" 2>/dev/null
    sed -e "s#@PUBLIC_STORAGE@#memory#" -e "s#@PUBLIC_MEMORY_BYTES@#$MEMORY_BYTES#" -e "s#@PRIVATE_MEMORY_BYTES@#16777216#" \
        -e "s#@ORIGIN_PORT@#$ORIGIN_PORT#g" "$ROOT/benchmarks/mediactl-policy.json.in" > "$w/policies/bench.json"
    local admin=()   # builds before the admin listener (e.g. 1bf5938) have no --admin-listen
    "$binary" serve --help 2>&1 | grep -q -- --admin-listen && admin=(--admin-listen "127.0.0.1:$ADMIN_PORT")
    taskset -c 0 "$binary" serve --policies "$w/policies" --state-dir "$w/state" --listen "127.0.0.1:$PORT" \
        ${admin[@]+"${admin[@]}"} --event-loops 1 > "$w/serve.log" 2>&1 &
    local pid=$! url="http://127.0.0.1:$PORT/catalog/horse-d29d871c.jpg"
    for _ in $(seq 1 100); do curl -s -o /dev/null "$url" && break; sleep 0.1; done
    [ "$MODE" = miss ] && WRK_SCRIPT=(-s "$ROOT/benchmarks/wrk-report.lua" "$url" -- unique x "$label-warm")
    taskset -c 1 wrk -t1 -c"$CONNECTIONS" -d2s ${WRK_SCRIPT[@]+"${WRK_SCRIPT[@]}"} "$url" > /dev/null
    read -r u1 s1 < <(awk '{print $14, $15}' "/proc/$pid/stat")
    local perf_pid=""
    if [ "${PERF:-0}" = 1 ]; then
        perf record -e cpu-clock -g -p "$pid" -o "$w/perf.data" -- sleep "$SECONDS_PER_RUN" > /dev/null 2>&1 &
        perf_pid=$!
    fi
    [ "$MODE" = miss ] && WRK_SCRIPT=(-s "$ROOT/benchmarks/wrk-report.lua" "$url" -- unique x "$label")
    taskset -c 1 wrk -t1 -c"$CONNECTIONS" -d"${SECONDS_PER_RUN}s" ${WRK_SCRIPT[@]+"${WRK_SCRIPT[@]}"} "$url" > "$w/wrk.txt"
    [ -n "$perf_pid" ] && wait "$perf_pid"
    read -r u2 s2 < <(awk '{print $14, $15}' "/proc/$pid/stat")
    kill -TERM "$pid"; wait "$pid" 2>/dev/null || true
    nginx -s stop -c "$w/origin.conf" -p "$w" 2>/dev/null || true
    local requests; requests=$(awk '/requests in/ {print $1}' "$w/wrk.txt")
    python3 -c "print('$label', $requests, round((($u2 - $u1) + ($s2 - $s1)) / $(getconf CLK_TCK) / $requests * 1e6, 2))"
}

results=()
for pair in $(seq 1 "$PAIRS"); do
    results+=("$(run "before-$pair" "$BEFORE")")
    results+=("$(run "after-$pair" "$AFTER")")
    echo "${results[-2]}"; echo "${results[-1]}"
done
printf '%s\n' "${results[@]}" | MODE=$MODE python3 -c '
import os, statistics, sys
unit = os.environ["MODE"]
rows = [line.split() for line in sys.stdin if line.strip()]
before = [float(r[2]) for r in rows if r[0].startswith("before")]
after = [float(r[2]) for r in rows if r[0].startswith("after")]
ratios = [a / b for b, a in zip(before, after)]
print("µs per %s, before: %s (median %.2f)" % (unit, ", ".join("%.2f" % x for x in before), statistics.median(before)))
print("µs per %s, after:  %s (median %.2f)" % (unit, ", ".join("%.2f" % x for x in after), statistics.median(after)))
print("after / before per pair: %.3f to %.3f, median %.3f" % (min(ratios), max(ratios), statistics.median(ratios)))'
