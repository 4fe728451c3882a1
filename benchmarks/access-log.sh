#!/usr/bin/env bash
# access-log.sh — the cost of `mediactl serve --access-log` on cache hits (issue 16 item 1: hit throughput
# with logging on ≥ 0.9× logging off).
#
# Starts, all on 127.0.0.1:
#   origin  nginx serving Tests/Fixtures/corpus (benchmarks/nginx-origin.conf.in)
#   off     `mediactl serve` (release build) without an access log
#   on      `mediactl serve` with `--access-log FILE` (a file in the work directory; or LOG=- for a pipe to /dev/null)
# both with the policy of benchmarks/mediactl-policy.json.in, each on its own state directory; warms both, then
# runs wrk against them alternately (off, on, off, on, …: REPS rounds, so drift hits both alike) for:
#   catalog-hit  memory hits of a 16 KB catalog JPEG (the event-loop fast path; path logged in clear)
#   receipt-hit  hits of a 20 KB receipt with Authorization: Bearer (private tier; the line carries an HMAC
#                path digest and the partition)
# and prints per scenario and connection count the median req/s of each server, the ratio on/off (goal ≥ 0.90),
# p50/p99, the server's CPU time per request (utime + stime of /proc/PID/stat over the run, divided by the requests
# wrk completed; robust when other processes share the machine, where req/s mostly measures the scheduler), the
# throughput that CPU cost implies (off µs / on µs), and the lines the log wrote and dropped.
# Only one server is under load at a time; the idle one costs nothing (its writer wakes every 50 ms).
#
# Usage: benchmarks/access-log.sh
# Environment (defaults):
#   ORIGIN_PORT=18091 OFF_PORT=18092 ON_PORT=18093   loopback ports (must be free; each serve's admin listener is +1000)
#   DURATION=10s CONNECTIONS="64 16" REPS=3          wrk settings and rounds
#   SCENARIOS="catalog-hit receipt-hit"
#   PIN=1       servers on CPU 0 (--event-loops 1), wrk and the origin on the other CPUs; PIN=0 shares all CPUs
#   LOG=FILE    FILE: a file in the work directory; -: standard output, redirected to /dev/null
#   MEDIACTL=<repo>/.build/release/mediactl  BUILD=1 (0: never build)  KEEP_WORK=0  RESULTS= (copy the table there)
# Exit: 0 when every measurement ran and the log dropped nothing; 1 when a check failed; 2 on unusable setup.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(dirname "$HERE")
CORPUS="$ROOT/Tests/Fixtures/corpus"
ORIGIN_PORT=${ORIGIN_PORT:-18091}
OFF_PORT=${OFF_PORT:-18092}
ON_PORT=${ON_PORT:-18093}
DURATION=${DURATION:-10s}
CONNECTIONS=${CONNECTIONS:-"64 16"}
REPS=${REPS:-3}
SCENARIOS=${SCENARIOS:-"catalog-hit receipt-hit"}
PIN=${PIN:-1}
LOG=${LOG:-FILE}
MEDIACTL=${MEDIACTL:-$ROOT/.build/release/mediactl}
BUILD=${BUILD:-1}
KEEP_WORK=${KEEP_WORK:-0}
RESULTS=${RESULTS:-}
TOKEN="bench-token-1"
CATALOG_PATH="/catalog/chelsea-5d40df37.jpg"   # 16,092 bytes
RECEIPT_PATH="/receipts/r-7732.jpg"            # 20,019 bytes
LUA="$HERE/wrk-report.lua"

log() { printf '%s %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { log "error: $*"; exit 2; }

for tool in nginx wrk curl awk sort; do command -v "$tool" >/dev/null || die "$tool is not installed"; done
ON_SERVER=(); ON_CLIENT=(); LOOP_ARGS=(); THREADS=$(nproc)
if [ "$PIN" = 1 ]; then
    command -v taskset >/dev/null || die "PIN=1 needs taskset (util-linux)"
    [ "$(nproc)" -ge 2 ] || die "PIN=1 needs at least 2 CPUs"
    ON_SERVER=(taskset -c 0); ON_CLIENT=(taskset -c "1-$(($(nproc) - 1))"); LOOP_ARGS=(--event-loops 1)
    THREADS=$(($(nproc) - 1))
fi
[ -d "$CORPUS/catalog" ] || die "no corpus at $CORPUS"

WORK=$(mktemp -d /tmp/access-log-bench.XXXXXX)
chmod 755 "$WORK"
mkdir -p "$WORK/policies" "$WORK/state-off" "$WORK/state-on"
STARTED=()

stop_pid() {  # PID: SIGTERM, wait up to 15 s, then SIGKILL
    local pid=$1 i
    kill -0 "$pid" 2>/dev/null || { wait "$pid" 2>/dev/null || true; return 0; }
    kill -TERM "$pid" 2>/dev/null || true
    for ((i = 0; i < 150; i++)); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -0 "$pid" 2>/dev/null && kill -KILL "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
}
cleanup() {
    local i
    for ((i = ${#STARTED[@]} - 1; i >= 0; i--)); do stop_pid "${STARTED[$i]}"; done
    STARTED=()
    if [ "$KEEP_WORK" = 1 ]; then log "work directory kept: $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

port_in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
for port in "$ORIGIN_PORT" "$OFF_PORT" "$ON_PORT"; do
    port_in_use "$port" && die "127.0.0.1:$port is already in use (set ORIGIN_PORT/OFF_PORT/ON_PORT)"
done
render() {  # TEMPLATE OUTPUT
    sed -e "s#@WORK@#$WORK#g" -e "s#@CORPUS@#$CORPUS#g" -e "s#@ORIGIN_PORT@#$ORIGIN_PORT#g" \
        -e "s#@PUBLIC_MEMORY_BYTES@#67108864#g" -e "s#@PRIVATE_MEMORY_BYTES@#16777216#g" \
        -e "s#@PUBLIC_STORAGE@#memory#g" "$1" > "$2"
}
status_of() { local url=$1; shift; curl -s -o /dev/null -w '%{http_code}' --max-time 5 "$@" "$url" || true; }
wait_for_status() { local i; for ((i = 0; i < 100; i++)); do [ "$(status_of "$1")" = "$2" ] && return 0; sleep 0.1; done; return 1; }
header_of() {
    local url=$1 name=$2; shift 2
    curl -s -D - -o /dev/null --max-time 5 "$@" "$url" | tr -d '\r' \
        | awk -v n="$(printf '%s' "$name" | tr 'A-Z' 'a-z')" -F': ' 'tolower($1) == n { v = $2 } END { print v }'
}
metric() { curl -s --max-time 5 "$1/_mediactl/metrics" | awk -v m="$2" '$1 == m { print $2 }'; }

render "$HERE/nginx-origin.conf.in" "$WORK/origin.conf"
${ON_CLIENT[@]+"${ON_CLIENT[@]}"} nginx -p "$WORK" -c "$WORK/origin.conf" -g 'daemon off;' 2>>"$WORK/origin-error.log" &
STARTED+=($!)
wait_for_status "http://127.0.0.1:$ORIGIN_PORT$CATALOG_PATH" 200 || die "origin nginx did not answer (see $WORK/origin-error.log)"

if [ ! -x "$MEDIACTL" ] && [ "$BUILD" = 1 ]; then
    log "building mediactl (swift build -c release --product mediactl)"
    (cd "$ROOT" && swift build -c release --product mediactl >"$WORK/build.log" 2>&1) || die "release build failed (see $WORK/build.log)"
fi
[ -x "$MEDIACTL" ] || die "no binary at $MEDIACTL"
"$MEDIACTL" serve --help | grep -q -- '--access-log' || die "$MEDIACTL has no --access-log"
render "$HERE/mediactl-policy.json.in" "$WORK/policies/bench.json"

declare -A PID
start_serve() {  # NAME PORT [extra args...]
    local name=$1 port=$2; shift 2
    # The service's own endpoints are on the admin listener (docs/operations.md): the public port + 1000.
    ${ON_SERVER[@]+"${ON_SERVER[@]}"} "$MEDIACTL" serve --listen "127.0.0.1:$port" --admin-listen "127.0.0.1:$((port + 1000))" \
        --policies "$WORK/policies" --state-dir "$WORK/state-$name" ${LOOP_ARGS[@]+"${LOOP_ARGS[@]}"} "$@" \
        >"$WORK/mediactl-$name.out" 2>"$WORK/mediactl-$name.err" &
    STARTED+=($!)
    PID[$name]=$!
    wait_for_status "http://127.0.0.1:$((port + 1000))/_mediactl/health" 200 || die "mediactl $name did not start (see $WORK/mediactl-$name.err)"
}
start_serve off "$OFF_PORT"
if [ "$LOG" = - ]; then
    ${ON_SERVER[@]+"${ON_SERVER[@]}"} "$MEDIACTL" serve --listen "127.0.0.1:$ON_PORT" --admin-listen "127.0.0.1:$((ON_PORT + 1000))" \
        --policies "$WORK/policies" --state-dir "$WORK/state-on" ${LOOP_ARGS[@]+"${LOOP_ARGS[@]}"} --access-log - \
        >/dev/null 2>"$WORK/mediactl-on.err" &
    STARTED+=($!)
    PID[on]=$!
    wait_for_status "http://127.0.0.1:$((ON_PORT + 1000))/_mediactl/health" 200 || die "mediactl on did not start"
else
    start_serve on "$ON_PORT" --access-log "$WORK/access.log"
fi

FAILED=0
check() { if [[ "$2" == $3 ]]; then log "ok: $1 ($2)"; else log "CHECK FAILED: $1: got '$2', expected $3"; FAILED=1; fi; }
for port in "$OFF_PORT" "$ON_PORT"; do
    base="http://127.0.0.1:$port"
    status_of "$base$CATALOG_PATH" >/dev/null
    check "$port catalog second request" "$(header_of "$base$CATALOG_PATH" Cache-Status)" "mediactl; hit*"
    status_of "$base$RECEIPT_PATH" -H "Authorization: Bearer $TOKEN" >/dev/null
    check "$port receipt second request" "$(header_of "$base$RECEIPT_PATH" Cache-Status -H "Authorization: Bearer $TOKEN")" "mediactl; hit*"
    ${ON_CLIENT[@]+"${ON_CLIENT[@]}"} timeout 30 wrk -t"$THREADS" -c16 -d2s -s "$LUA" "$base$CATALOG_PATH" -- plain >/dev/null 2>&1 || true
done
if [ "$LOG" != - ]; then
    check "access log has lines" "$(wc -l <"$WORK/access.log")" "[1-9]*"
    check "no token in the access log" "$(grep -c -e "$TOKEN" -e Bearer "$WORK/access.log" || true)" "0"
fi

LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg)
declare -A RPS P50 P99 CPU   # [server,scenario,c] = space-separated values of every round
TICK=$(getconf CLK_TCK)
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }   # utime + stime of the whole process (all threads)
run_wrk() {  # SERVER URL MODE SCENARIO C
    local server=$1 url=$2 mode=$3 scenario=$4 c=$5 out line threads=$THREADS
    [ "$c" -lt "$threads" ] && threads=$c
    local before after
    before=$(cpu_ticks "${PID[$server]}")
    out=$(${ON_CLIENT[@]+"${ON_CLIENT[@]}"} timeout 120 wrk -t"$threads" -c"$c" -d"$DURATION" --timeout 5s -s "$LUA" "$url" -- "$mode" "$TOKEN" 0 2>&1) || true
    after=$(cpu_ticks "${PID[$server]}")
    line=$(printf '%s\n' "$out" | awk '/^RESULT /')
    [ -n "$line" ] || { log "wrk failed for $server $scenario -c$c: $(printf '%s' "$out" | tail -c 200)"; FAILED=1; return; }
    local rps p50 p99 es ek
    rps=$(sed -E 's/.* rps=([0-9.]+).*/\1/' <<<"$line"); p50=$(sed -E 's/.* p50_us=([0-9]+).*/\1/' <<<"$line")
    p99=$(sed -E 's/.* p99_us=([0-9]+).*/\1/' <<<"$line"); es=$(sed -E 's/.* errors_status=([0-9]+).*/\1/' <<<"$line")
    ek=$(sed -E 's/.* errors_socket=([0-9]+).*/\1/' <<<"$line")
    local n cpu
    n=$(sed -E 's/.* requests=([0-9]+).*/\1/' <<<"$line")
    cpu=$(awk -v t=$((after - before)) -v hz="$TICK" -v n="$n" 'BEGIN { if (n == 0) print "-"; else printf "%.2f", t / hz * 1e6 / n }')
    CPU[$server,$scenario,$c]="${CPU[$server,$scenario,$c]:-} $cpu"
    RPS[$server,$scenario,$c]="${RPS[$server,$scenario,$c]:-} $rps"
    P50[$server,$scenario,$c]="${P50[$server,$scenario,$c]:-} $p50"
    P99[$server,$scenario,$c]="${P99[$server,$scenario,$c]:-} $p99"
    log "$server $scenario -c$c: $rps req/s, p50 ${p50} us, p99 ${p99} us, server CPU ${cpu} us/request, non-2xx $es, socket errors $ek"
    [ "$es" = 0 ] || FAILED=1
}
for scenario in $SCENARIOS; do
    case $scenario in
        catalog-hit) path=$CATALOG_PATH; mode=plain ;;
        receipt-hit) path=$RECEIPT_PATH; mode=bearer ;;
        *) die "unknown scenario $scenario" ;;
    esac
    for c in $CONNECTIONS; do
        for ((round = 1; round <= REPS; round++)); do
            run_wrk off "http://127.0.0.1:$OFF_PORT$path" "$mode" "$scenario" "$c"
            run_wrk on "http://127.0.0.1:$ON_PORT$path" "$mode" "$scenario" "$c"
        done
    done
done
LOAD_AFTER=$(cut -d' ' -f1-3 /proc/loadavg)
WRITTEN=$(metric "http://127.0.0.1:$((ON_PORT + 1000))" mediactl_access_log_lines_total)
DROPPED=$(metric "http://127.0.0.1:$((ON_PORT + 1000))" mediactl_access_log_dropped_total)
[ "${DROPPED:-x}" = 0 ] || { log "the access log dropped ${DROPPED:-?} lines"; FAILED=1; }

median() { tr ' ' '\n' <<<"$1" | awk 'NF' | sort -n | awk '{ v[NR] = $1 } END { if (NR == 0) print "-"; else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "-" || b == "-" || b == 0) print "-"; else printf "%.3f", a / b }'; }
ms() { awk -v u="$1" 'BEGIN { if (u == "-") print "-"; else printf "%.2f", u / 1000 }'; }
{
    layout=$([ "$PIN" = 1 ] && echo "servers pinned to CPU 0 (--event-loops 1), wrk and origin on CPUs 1-$(($(nproc) - 1))" || echo "$(nproc) cores shared")
    echo "### access log on vs off: wrk -t$THREADS -d$DURATION, $REPS rounds alternating off/on, $layout, log to $([ "$LOG" = - ] && echo "stdout → /dev/null" || echo "a file"); load average before $LOAD_BEFORE, after $LOAD_AFTER"
    echo
    echo "| scenario | conns | off req/s (median) | on req/s (median) | on/off | off CPU µs/req (median) | on CPU µs/req | implied on/off (CPU off/on) | off p50/p99 ms | on p50/p99 ms | off req/s rounds | on req/s rounds |"
    echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
    for scenario in $SCENARIOS; do
        for c in $CONNECTIONS; do
            off=$(median "${RPS[off,$scenario,$c]:-}"); on=$(median "${RPS[on,$scenario,$c]:-}")
            offc=$(median "${CPU[off,$scenario,$c]:-}"); onc=$(median "${CPU[on,$scenario,$c]:-}")
            echo "| $scenario | $c | $off | $on | $(ratio "$on" "$off") | $offc | $onc | $(ratio "$offc" "$onc") | $(ms "$(median "${P50[off,$scenario,$c]:-}")")/$(ms "$(median "${P99[off,$scenario,$c]:-}")") | $(ms "$(median "${P50[on,$scenario,$c]:-}")")/$(ms "$(median "${P99[on,$scenario,$c]:-}")") | ${RPS[off,$scenario,$c]:-} | ${RPS[on,$scenario,$c]:-} |"
        done
    done
    echo
    echo "Access log: ${WRITTEN:-?} lines written, ${DROPPED:-?} dropped$([ "$LOG" != - ] && echo ", $(du -h "$WORK/access.log" | cut -f1) on disk")."
} | tee "$WORK/results.md"
[ -n "$RESULTS" ] && cp "$WORK/results.md" "$RESULTS"
[ "$FAILED" = 0 ] || { log "some checks failed (see above)"; exit 1; }
