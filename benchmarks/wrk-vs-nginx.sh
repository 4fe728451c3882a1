#!/usr/bin/env bash
# wrk-vs-nginx.sh — `mediactl serve` against nginx proxy_cache, in one run (issue 6 item 8).
#
# Starts, all on 127.0.0.1:
#   origin   nginx serving Tests/Fixtures/corpus (catalog/: public 1 year; receipts/: bearer required)
#   proxy    nginx proxy_cache in front of the origin (catalog cached; receipts proxied uncached)
#   mediactl `mediactl serve` (release build) with a policy whose routes point at the origin
# warms both caches, then runs wrk (-c64 and -c16, 10 s) against each for:
#   catalog-hit  memory hits of a 16 KB catalog JPEG (nginx: proxy_cache hit from its cache files)
#   receipt-hit  encrypted-disk hits of a 20 KB receipt with Authorization: Bearer (nginx: proxied
#                uncached — proxy_cache has no per-credential partition, so it cannot cache it safely)
#   signed-hit   the same receipt through a signed capability URL (tier with signedURLs, encrypted-disk hit),
#                mediactl only: set its CPU per request against receipt-hit's (docs/benchmarks.md, "Signed URLs");
#                skipped for a build that does not know signedURLs (comparing builds)
#   miss         unique URLs (?miss=RUN-THREAD-N, RUN new for every wrk run): every request is a cache miss
#                and an origin fetch; wrk also fetches the same unique URLs from the origin directly, and a
#                second table sets each proxy's miss latency against that direct fetch (issue 5: miss
#                overhead; CONNECTIONS=1 gives sequential latency)
# and prints req/s, p50, p99, the ratios mediactl/nginx, and mediactl's resident memory (VmRSS,
# VmHWM) before and after against its configured memory budget (goal: RSS < budget + 40 MB).
# Everything it started is stopped on exit (by PID); every wait loop is bounded.
#
# Usage: benchmarks/wrk-vs-nginx.sh
# Environment (defaults):
#   ORIGIN_PORT=18081 PROXY_PORT=18082 MEDIACTL_PORT=18083 MEDIACTL_ADMIN_PORT=18084   loopback ports (must be free)
#   DURATION=10s CONNECTIONS="64 16"                         wrk settings
#   THREADS=                                                 wrk threads; default one per CPU wrk runs on
#                                                            (PIN=1: the CPUs besides 0; PIN=0: all)
#   MEDIACTL=<repo>/.build/release/mediactl                  binary; built when missing (BUILD=1)
#   BUILD=1                                                  0: never build
#   PUBLIC_MEMORY_BYTES=67108864 PRIVATE_MEMORY_BYTES=16777216   mediactl tier budgets (memoryBytes)
#   PUBLIC_STORAGE=memory                                    the catalog tier's storage class (disk: files with
#                                                            write-behind, like nginx's cache files)
#   KEEP_WORK=0                                              1: keep the work directory (logs, configs)
#   RESULTS=                                                 also write the Markdown table to this file
#   SCENARIOS="catalog-hit receipt-hit signed-hit miss"      which scenarios to run
#   REPEAT=1                                                 run the scenarios this many times, interleaved (A B A B …);
#                                                            the CPU table lists every run and the mean
#   EVENT_LOOPS=                                             mediactl --event-loops (default: one per CPU; PIN=1: 1)
#   PIN=1                                                    servers on CPU 0 only (nginx proxy
#        worker_processes 1, mediactl --event-loops 1), wrk and the origin on the other CPUs, so the load
#        generator never preempts a server nor, with one thread per CPU, itself (docs/benchmarks.md,
#        "Tail latency"); PIN=0 shares every CPU (nginx worker_processes 2, one event loop per CPU)
# Exit: 0 when every measurement ran; 1 when a server failed a check; 2 on unusable setup.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(dirname "$HERE")
CORPUS="$ROOT/Tests/Fixtures/corpus"
ORIGIN_PORT=${ORIGIN_PORT:-18081}
PROXY_PORT=${PROXY_PORT:-18082}
MEDIACTL_PORT=${MEDIACTL_PORT:-18083}
MEDIACTL_ADMIN_PORT=${MEDIACTL_ADMIN_PORT:-18084}   # serve --admin-listen: health and metrics (docs/operations.md)
DURATION=${DURATION:-10s}
THREADS=${THREADS:-}
CONNECTIONS=${CONNECTIONS:-"64 16"}
MEDIACTL=${MEDIACTL:-$ROOT/.build/release/mediactl}
BUILD=${BUILD:-1}
PUBLIC_MEMORY_BYTES=${PUBLIC_MEMORY_BYTES:-67108864}
PRIVATE_MEMORY_BYTES=${PRIVATE_MEMORY_BYTES:-16777216}
PUBLIC_STORAGE=${PUBLIC_STORAGE:-memory}
case $PUBLIC_STORAGE in memory|disk) ;; *) echo "PUBLIC_STORAGE must be memory or disk, not '$PUBLIC_STORAGE'" >&2; exit 2 ;; esac
PROXY_CACHE_BYTES=${PROXY_CACHE_BYTES:-256m}
KEEP_WORK=${KEEP_WORK:-0}
PIN=${PIN:-1}
RESULTS=${RESULTS:-}
TOKEN="bench-token-1"
BENCH_SECRET="AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8"   # bytes 0x00…0x1F, unpadded base64url (a test key)
SIGNED_SUPPORTED=1
CATALOG_PATH="/catalog/chelsea-5d40df37.jpg"   # 16,092 bytes
RECEIPT_PATH="/receipts/r-7732.jpg"            # 20,019 bytes
LUA="$HERE/wrk-report.lua"

log() { printf '%s %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { log "error: $*"; exit 2; }

for tool in nginx wrk curl awk; do command -v "$tool" >/dev/null || die "$tool is not installed"; done
SERVER_CPUS=""; CLIENT_CPUS=""; PROXY_WORKERS=$(nproc); LOOP_ARGS=(); ON_SERVER=(); ON_CLIENT=()
if [ "$PIN" = 1 ]; then
    command -v taskset >/dev/null || die "PIN=1 needs taskset (util-linux)"
    [ "$(nproc)" -ge 2 ] || die "PIN=1 needs at least 2 CPUs"
    SERVER_CPUS=0; CLIENT_CPUS="1-$(($(nproc) - 1))"; PROXY_WORKERS=1; LOOP_ARGS=(--event-loops 1)
    ON_SERVER=(taskset -c "$SERVER_CPUS"); ON_CLIENT=(taskset -c "$CLIENT_CPUS")   # taskset execs: $! stays the server's PID
fi
if [ -n "${EVENT_LOOPS:-}" ]; then LOOP_ARGS=(--event-loops "$EVENT_LOOPS"); fi
if [ -z "$THREADS" ]; then THREADS=$([ "$PIN" = 1 ] && echo $(($(nproc) - 1)) || nproc); fi
[ -d "$CORPUS/catalog" ] || die "no corpus at $CORPUS"

WORK=$(mktemp -d /tmp/wrk-vs-nginx.XXXXXX)
chmod 755 "$WORK"   # nginx workers (nobody) read and write below it
mkdir -p "$WORK/policies" "$WORK/state"   # nginx creates its own temp and cache folders
STARTED=()          # PIDs this script started, stopped in reverse order on exit

stop_pid() {  # PID SIGNAL: signal, wait up to 15 s, then SIGKILL
    local pid=$1 signal=$2 i
    kill -0 "$pid" 2>/dev/null || { wait "$pid" 2>/dev/null || true; return 0; }
    kill "-$signal" "$pid" 2>/dev/null || true
    for ((i = 0; i < 150; i++)); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
    done
    if kill -0 "$pid" 2>/dev/null; then
        log "PID $pid ignored SIG$signal for 15 s; sending SIGKILL"
        kill -KILL "$pid" 2>/dev/null || true
    fi
    wait "$pid" 2>/dev/null || true
}

cleanup() {
    local i
    for ((i = ${#STARTED[@]} - 1; i >= 0; i--)); do stop_pid "${STARTED[$i]}" TERM; done
    STARTED=()
    if [ "$KEEP_WORK" = 1 ]; then log "work directory kept: $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

port_in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
for port in "$ORIGIN_PORT" "$PROXY_PORT" "$MEDIACTL_PORT" "$MEDIACTL_ADMIN_PORT"; do
    port_in_use "$port" && die "127.0.0.1:$port is already in use (set ORIGIN_PORT/PROXY_PORT/MEDIACTL_PORT/MEDIACTL_ADMIN_PORT)"
done

render() {  # TEMPLATE OUTPUT
    sed -e "s#@WORK@#$WORK#g" -e "s#@CORPUS@#$CORPUS#g" -e "s#@ORIGIN_PORT@#$ORIGIN_PORT#g" \
        -e "s#@PROXY_PORT@#$PROXY_PORT#g" -e "s#@PROXY_CACHE_BYTES@#$PROXY_CACHE_BYTES#g" \
        -e "s#@PUBLIC_MEMORY_BYTES@#$PUBLIC_MEMORY_BYTES#g" -e "s#@PRIVATE_MEMORY_BYTES@#$PRIVATE_MEMORY_BYTES#g" \
        -e "s#@PROXY_WORKERS@#$PROXY_WORKERS#g" -e "s#@PUBLIC_STORAGE@#$PUBLIC_STORAGE#g" \
        "$1" > "$2"
}

status_of() {  # URL [curl args...] -> HTTP status
    local url=$1; shift
    curl -s -o /dev/null -w '%{http_code}' --max-time 5 "$@" "$url" || true
}

wait_for_status() {  # URL STATUS NAME: poll up to 10 s
    local i
    for ((i = 0; i < 100; i++)); do
        [ "$(status_of "$1")" = "$2" ] && return 0
        sleep 0.1
    done
    return 1
}

header_of() {  # URL HEADER [curl args...] -> header value (last one)
    local url=$1 name=$2; shift 2
    curl -s -D - -o /dev/null --max-time 5 "$@" "$url" | tr -d '\r' \
        | awk -v n="$(printf '%s' "$name" | tr 'A-Z' 'a-z')" -F': ' 'tolower($1) == n { v = $2 } END { print v }'
}

cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat" 2>/dev/null || echo 0; }   # PID -> utime + stime, clock ticks
rss_kb() { awk -v k="$2:" '$1 == k { print $2 }' "/proc/$1/status" 2>/dev/null || echo 0; }

# --- origin and proxy -------------------------------------------------------------------------
render "$HERE/nginx-origin.conf.in" "$WORK/origin.conf"
render "$HERE/nginx-proxy.conf.in" "$WORK/proxy.conf"
nginx -t -q -p "$WORK" -c "$WORK/origin.conf" 2>/dev/null || die "origin nginx config invalid (nginx -t -p $WORK -c $WORK/origin.conf)"
${ON_CLIENT[@]+"${ON_CLIENT[@]}"} nginx -p "$WORK" -c "$WORK/origin.conf" -g 'daemon off;' 2>>"$WORK/origin-error.log" &
STARTED+=($!)
${ON_SERVER[@]+"${ON_SERVER[@]}"} nginx -p "$WORK" -c "$WORK/proxy.conf" -g 'daemon off;' 2>>"$WORK/proxy-error.log" &
STARTED+=($!)
wait_for_status "http://127.0.0.1:$ORIGIN_PORT$CATALOG_PATH" 200 || die "origin nginx did not answer (see $WORK/origin-error.log)"
wait_for_status "http://127.0.0.1:$PROXY_PORT$CATALOG_PATH" 200 || die "nginx proxy did not answer (see $WORK/proxy-error.log)"
[ "$(status_of "http://127.0.0.1:$ORIGIN_PORT$RECEIPT_PATH")" = 401 ] || die "origin serves receipts without a bearer token"
[ "$(status_of "http://127.0.0.1:$ORIGIN_PORT$RECEIPT_PATH" -H "Authorization: Bearer $TOKEN")" = 200 ] \
    || die "origin refuses receipts with a bearer token"
log "origin nginx on 127.0.0.1:$ORIGIN_PORT, nginx proxy_cache on 127.0.0.1:$PROXY_PORT"

# --- mediactl ---------------------------------------------------------------------------------
MEDIACTL_REASON=""
MEDIACTL_PID=""
if [ ! -x "$MEDIACTL" ] && [ "$BUILD" = 1 ]; then
    log "building mediactl (swift build -c release --product mediactl)"
    (cd "$ROOT" && swift build -c release --product mediactl >"$WORK/build.log" 2>&1) \
        || MEDIACTL_REASON="release build failed (see build.log)"
fi
if [ -z "$MEDIACTL_REASON" ] && [ ! -x "$MEDIACTL" ]; then MEDIACTL_REASON="no binary at $MEDIACTL"; fi
if [ -z "$MEDIACTL_REASON" ] && ! "$MEDIACTL" serve --help >/dev/null 2>&1; then
    MEDIACTL_REASON="this build has no working 'mediactl serve' (serve --help failed)"
fi
if [ -z "$MEDIACTL_REASON" ]; then
    # The signed tier's keys (a test secret, 0600) and the origin token; a build without signedURLs gets the
    # policy without it and skips signed-hit.
    mkdir -p "$WORK/secrets" && chmod 700 "$WORK/secrets"
    (umask 077; printf 'bench %s\n' "$BENCH_SECRET" >"$WORK/secrets/bench.keys"; printf '%s\n' "$TOKEN" >"$WORK/secrets/origin.token")
    render "$HERE/mediactl-policy-signed.json.in" "$WORK/policies/bench.json"
    if ! "$MEDIACTL" policy check --policies "$WORK/policies" >/dev/null 2>&1; then
        render "$HERE/mediactl-policy.json.in" "$WORK/policies/bench.json"
        SIGNED_SUPPORTED=0
    fi
    ADMIN_ARGS=(--admin-listen "127.0.0.1:$MEDIACTL_ADMIN_PORT")
    # A build from before the admin listener (to compare builds) serves health and metrics on its public port.
    if ! "$MEDIACTL" serve --help 2>&1 | grep -q -- --admin-listen; then ADMIN_ARGS=(); MEDIACTL_ADMIN_PORT=$MEDIACTL_PORT; fi
    ${ON_SERVER[@]+"${ON_SERVER[@]}"} "$MEDIACTL" serve --listen "127.0.0.1:$MEDIACTL_PORT" ${ADMIN_ARGS[@]+"${ADMIN_ARGS[@]}"} --policies "$WORK/policies" --state-dir "$WORK/state" \
        ${LOOP_ARGS[@]+"${LOOP_ARGS[@]}"} \
        >"$WORK/mediactl.log" 2>&1 &
    MEDIACTL_PID=$!
    STARTED+=("$MEDIACTL_PID")
    if ! wait_for_status "http://127.0.0.1:$MEDIACTL_ADMIN_PORT/_mediactl/health" 200; then
        MEDIACTL_REASON="mediactl serve did not answer /_mediactl/health within 10 s: $(tail -c 300 "$WORK/mediactl.log" | tr '\n' ' ')"
        stop_pid "$MEDIACTL_PID" TERM
        MEDIACTL_PID=""
    fi
fi
[ -n "$MEDIACTL_REASON" ] && log "mediactl not measured: $MEDIACTL_REASON"

# --- warm both caches and check what each server does -----------------------------------------
FAILED=0
check() {  # DESCRIPTION ACTUAL EXPECTED-PATTERN
    if [[ "$2" == $3 ]]; then log "ok: $1 ($2)"; else log "CHECK FAILED: $1: got '$2', expected $3"; FAILED=1; fi
}
P="http://127.0.0.1:$PROXY_PORT"
O="http://127.0.0.1:$ORIGIN_PORT"
M="http://127.0.0.1:$MEDIACTL_PORT"
MA="http://127.0.0.1:$MEDIACTL_ADMIN_PORT"   # the admin listener
status_of "$P$CATALOG_PATH" >/dev/null
check "nginx catalog second request" "$(header_of "$P$CATALOG_PATH" X-Cache-Status)" "HIT"
check "nginx receipt with bearer (proxied)" "$(status_of "$P$RECEIPT_PATH" -H "Authorization: Bearer $TOKEN")" "200"
check "nginx receipt cache status" "$(header_of "$P$RECEIPT_PATH" X-Cache-Status -H "Authorization: Bearer $TOKEN")" ""
if [ -n "$MEDIACTL_PID" ]; then
    status_of "$M$CATALOG_PATH" >/dev/null
    check "mediactl catalog second request" "$(header_of "$M$CATALOG_PATH" Cache-Status)" "mediactl; hit*"
    check "mediactl receipt without bearer" "$(status_of "$M$RECEIPT_PATH")" "401"
    status_of "$M$RECEIPT_PATH" -H "Authorization: Bearer $TOKEN" >/dev/null
    check "mediactl receipt second request" "$(header_of "$M$RECEIPT_PATH" Cache-Status -H "Authorization: Bearer $TOKEN")" "mediactl; hit*"
    # Write-behind: the sealed file lands after the answer; wait (bounded) until nothing is pending.
    for ((i = 0; i < 100; i++)); do
        curl -s --max-time 5 "$MA/_mediactl/metrics" | awk '/^mediactl_pending_write_bytes/ && $2 != 0 { p = 1 } END { exit p }' && break
        sleep 0.1
    done
    sealed_files=$(find "$WORK/state/sealed" -type f 2>/dev/null | wc -l)
    check "mediactl sealed files after warming" "$sealed_files" "[1-9]*"
    check "mediactl miss" "$(header_of "$M$CATALOG_PATH?miss=warm" Cache-Status)" "mediactl; fwd=uri-miss*"
    if [ "$SIGNED_SUPPORTED" = 1 ]; then
        # A URL for subject bench-user, valid for the whole run (docs/signed-urls.md, "The algorithm").
        SIGNED_TARGET=$(python3 - "$BENCH_SECRET" "/signed-${RECEIPT_PATH#/}" "$(($(date +%s) + 3000))" <<'PY'
import base64, hashlib, hmac, sys
secret = base64.urlsafe_b64decode(sys.argv[1] + "=" * (-len(sys.argv[1]) % 4))
path, exp = sys.argv[2], sys.argv[3]
text = "\n".join(["mediactl-url-v1", "bench", exp, "bench-user", path, ""])
sig = base64.urlsafe_b64encode(hmac.new(secret, text.encode(), hashlib.sha256).digest()).rstrip(b"=").decode()
print(f"{path}?exp={exp}&sub=bench-user&kid=bench&sig={sig}")
PY
)
        status_of "$M$SIGNED_TARGET" >/dev/null
        check "mediactl signed receipt second request" "$(header_of "$M$SIGNED_TARGET" Cache-Status)" "mediactl; hit*"
    fi
fi
check "nginx miss" "$(header_of "$P$CATALOG_PATH?miss=warm" X-Cache-Status)" "MISS"

# Warm-up load (discarded): connection threads, page cache, JIT of the Lua script.
for base in "$P" ${MEDIACTL_PID:+"$M"}; do
    ${ON_CLIENT[@]+"${ON_CLIENT[@]}"} timeout 30 wrk -t"$THREADS" -c16 -d2s -s "$LUA" "$base$CATALOG_PATH" -- plain >/dev/null 2>&1 || true
done

# --- measure ----------------------------------------------------------------------------------
RSS_BEFORE=0; HWM_BEFORE=0
if [ -n "$MEDIACTL_PID" ]; then RSS_BEFORE=$(rss_kb "$MEDIACTL_PID" VmRSS); HWM_BEFORE=$(rss_kb "$MEDIACTL_PID" VmHWM); fi
LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg)
declare -A CPU # CPU[scenario,c] = mediactl's CPU microseconds (user + system) per request
declare -A R   # R[server,scenario,c] = "rps p50 p99 status_errors socket_errors requests"
RUN_ID=0       # a new ?miss= prefix for every wrk run, so no run requests a URL an earlier run stored

run_wrk() {  # SERVER SCENARIO CONNECTIONS URL MODE
    local server=$1 scenario=$2 c=$3 url=$4 mode=$5 out line
    local threads=$THREADS
    [ "$c" -lt "$threads" ] && threads=$c   # wrk needs at least one connection per thread
    RUN_ID=$((RUN_ID + 1))
    local ticks_before=0
    [ "$server" = mediactl ] && ticks_before=$(cpu_ticks "$MEDIACTL_PID")
    out=$(${ON_CLIENT[@]+"${ON_CLIENT[@]}"} timeout 120 wrk -t"$threads" -c"$c" -d"$DURATION" --timeout 5s -s "$LUA" "$url" -- "$mode" "$TOKEN" "$$-$RUN_ID" \
        "$server-$c-$RANDOM" 2>&1) || true
    line=$(printf '%s\n' "$out" | awk '/^RESULT /')
    if [ -z "$line" ]; then
        log "wrk failed for $server $scenario -c$c: $(printf '%s' "$out" | tail -c 200)"
        R[$server,$scenario,$c]="- - - - - -"
        FAILED=1
        return
    fi
    local rps p50 p99 es ek n
    rps=$(sed -E 's/.* rps=([0-9.]+).*/\1/' <<<"$line"); p50=$(sed -E 's/.* p50_us=([0-9]+).*/\1/' <<<"$line")
    p99=$(sed -E 's/.* p99_us=([0-9]+).*/\1/' <<<"$line"); es=$(sed -E 's/.* errors_status=([0-9]+).*/\1/' <<<"$line")
    ek=$(sed -E 's/.* errors_socket=([0-9]+).*/\1/' <<<"$line"); n=$(sed -E 's/.* requests=([0-9]+).*/\1/' <<<"$line")
    R[$server,$scenario,$c]="$rps $p50 $p99 $es $ek $n"
    CPU[$scenario,$c]="-"
    log "$server $scenario -c$c: $rps req/s, p50 ${p50} us, p99 ${p99} us, non-2xx $es, socket errors $ek"
    if [ "$server" = mediactl ] && [ "$n" -gt 0 ]; then
        # mediactl's own CPU time (user + system) per request over the run: far less sensitive to other load
        # on the machine than req/s, so two binaries can be compared on a busy machine.
        CPU[$scenario,$c]=$(awk -v t="$(( $(cpu_ticks "$MEDIACTL_PID") - ticks_before ))" -v hz="$(getconf CLK_TCK)" -v n="$n" 'BEGIN { printf "%.2f", t * 1e6 / hz / n }')
        log "$server $scenario -c$c: CPU ${CPU[$scenario,$c]} us per request"
    fi
    [ "$es" = 0 ] || { log "  $server answered $es non-2xx/3xx responses in $scenario"; FAILED=1; }
}

SCENARIOS=${SCENARIOS:-"catalog-hit receipt-hit signed-hit miss"}
REPEAT=${REPEAT:-1}
declare -A CPU_RUNS   # CPU_RUNS[scenario,c] = every run's CPU µs per request, space-separated
for ((rep = 1; rep <= REPEAT; rep++)); do
for scenario in $SCENARIOS; do
    case $scenario in
        catalog-hit) path=$CATALOG_PATH; mode=plain ;;
        receipt-hit) path=$RECEIPT_PATH; mode=bearer ;;
        signed-hit)
            if [ "$SIGNED_SUPPORTED" != 1 ] || [ -z "$MEDIACTL_PID" ]; then log "signed-hit skipped: this build has no signedURLs"; continue; fi
            for c in $CONNECTIONS; do
                run_wrk mediactl "$scenario" "$c" "$M$SIGNED_TARGET" plain
                CPU_RUNS[$scenario,$c]="${CPU_RUNS[$scenario,$c]:-} ${CPU[$scenario,$c]}"
            done
            continue ;;
        miss)        path=$CATALOG_PATH; mode=unique ;;
    esac
    for c in $CONNECTIONS; do
        if [ -n "$MEDIACTL_PID" ]; then
            run_wrk mediactl "$scenario" "$c" "$M$path" "$mode"
            CPU_RUNS[$scenario,$c]="${CPU_RUNS[$scenario,$c]:-} ${CPU[$scenario,$c]}"
        fi
        run_wrk nginx "$scenario" "$c" "$P$path" "$mode"
        [ "$scenario" = miss ] && run_wrk origin "$scenario" "$c" "$O$path" "$mode"
    done
done
done
LOAD_AFTER=$(cut -d' ' -f1-3 /proc/loadavg)
RSS_AFTER=0; HWM_AFTER=0
if [ -n "$MEDIACTL_PID" ]; then
    kill -0 "$MEDIACTL_PID" 2>/dev/null || { log "mediactl exited during the run"; FAILED=1; }
    RSS_AFTER=$(rss_kb "$MEDIACTL_PID" VmRSS); HWM_AFTER=$(rss_kb "$MEDIACTL_PID" VmHWM)
    THREADS_AFTER=$(awk '$1 == "Threads:" { print $2 }' "/proc/$MEDIACTL_PID/status")
    # What the stores hold (bytes of bodies + metadata per store), to set RSS against.
    STORED=$(curl -s --max-time 5 "$MA/_mediactl/metrics" | awk '/^mediactl_(stored|pending_write)_bytes/ { printf "%s=%.2f MiB; ", $1, $2 / 1048576 }')
fi
NGINX_RSS_KB=0
for pid in $(cat "$WORK/proxy.pid" 2>/dev/null) $(pgrep -P "$(cat "$WORK/proxy.pid" 2>/dev/null || echo 0)" 2>/dev/null); do
    NGINX_RSS_KB=$((NGINX_RSS_KB + $(rss_kb "$pid" VmRSS)))
done

# --- report -----------------------------------------------------------------------------------
describe() {
    case $1 in
        catalog-hit) echo "catalog JPEG 16 KB, hit (mediactl: $PUBLIC_STORAGE tier; nginx: proxy_cache)" ;;
        receipt-hit) echo "receipt JPEG 20 KB + Bearer (mediactl: encrypted-disk hit; nginx: proxied UNCACHED)" ;;
        signed-hit)  echo "the same receipt through a signed URL (mediactl: encrypted-disk hit; nginx: not comparable)" ;;
        miss)        echo "catalog JPEG, unique URL per request (miss + origin fetch + store)" ;;
    esac
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "-" || b == "-" || b == 0) print "-"; else printf "%.2f", a / b }'; }
ms() { awk -v u="$1" 'BEGIN { if (u == "-") print "-"; else printf "%.2f", u / 1000 }'; }
{
    if [ "$PIN" = 1 ]; then
        layout="servers pinned to CPU $SERVER_CPUS (nginx worker_processes 1, mediactl --event-loops ${EVENT_LOOPS:-1}), wrk and origin on CPUs $CLIENT_CPUS"
    else
        layout="$(nproc) cores shared by wrk and the servers (nginx worker_processes $PROXY_WORKERS, mediactl ${EVENT_LOOPS:-one per CPU} event loops)"
    fi
    echo "### wrk -t$THREADS -d$DURATION, $layout; load average before $LOAD_BEFORE, after $LOAD_AFTER"
    echo
    echo "| scenario | conns | mediactl req/s | p50 ms | p99 ms | nginx req/s | p50 ms | p99 ms | req/s ratio m/n | p50 ratio | p99 ratio |"
    echo "|---|---|---|---|---|---|---|---|---|---|---|"
    for scenario in $SCENARIOS; do
        for c in $CONNECTIONS; do
            [ "$scenario" = signed-hit ] && [ -z "${R[mediactl,$scenario,$c]:-}" ] && continue
            read -r nr n50 n99 _ _ _ <<<"${R[nginx,$scenario,$c]:-- - - - - -}"
            if [ -n "$MEDIACTL_PID" ]; then
                read -r mr m50 m99 _ _ _ <<<"${R[mediactl,$scenario,$c]}"
                echo "| $(describe "$scenario") | $c | $mr | $(ms "$m50") | $(ms "$m99") | $nr | $(ms "$n50") | $(ms "$n99") | $(ratio "$mr" "$nr") | $(ratio "$m50" "$n50") | $(ratio "$m99" "$n99") |"
            else
                echo "| $(describe "$scenario") | $c | not measured | | | $nr | $(ms "$n50") | $(ms "$n99") | - | - | - |"
            fi
        done
    done
    echo
    if [[ " $SCENARIOS " == *" miss "* ]]; then
        echo "Miss latency against a direct fetch of the same unique URLs from the origin (wrk → origin nginx):"
        echo
        echo "| conns | origin direct p50 ms | p99 ms | mediactl miss p50 ms | p50 ratio to direct | p99 ratio | nginx proxy_cache miss p50 ms | p50 ratio to direct | p99 ratio |"
        echo "|---|---|---|---|---|---|---|---|---|"
        for c in $CONNECTIONS; do
            read -r _ o50 o99 _ _ _ <<<"${R[origin,miss,$c]}"
            read -r _ n50 n99 _ _ _ <<<"${R[nginx,miss,$c]}"
            m50="-"; m99="-"
            [ -n "$MEDIACTL_PID" ] && read -r _ m50 m99 _ _ _ <<<"${R[mediactl,miss,$c]}"
            echo "| $c | $(ms "$o50") | $(ms "$o99") | $(ms "$m50") | $(ratio "$m50" "$o50") | $(ratio "$m99" "$o99") | $(ms "$n50") | $(ratio "$n50" "$o50") | $(ratio "$n99" "$o99") |"
        done
        echo
    fi
    if [ -n "$MEDIACTL_PID" ]; then
        echo "mediactl CPU time (user + system) per request, µs:"
        echo
        echo "| scenario | $(for c in $CONNECTIONS; do printf -- '-c%s | ' "$c"; done)"
        echo "|---|$(for c in $CONNECTIONS; do printf -- '---|'; done)"
        for scenario in $SCENARIOS; do
            [ -n "${CPU[$scenario,${CONNECTIONS%% *}]:-}" ] || continue
            echo "| $scenario | $(for c in $CONNECTIONS; do
                printf '%s | ' "$(awk -v runs="${CPU_RUNS[$scenario,$c]:-}" 'BEGIN { n = split(runs, v, " "); if (n == 0) { print "-"; exit }
                    for (i = 1; i <= n; i++) s += v[i]; if (n == 1) print v[1]; else printf "%.2f (%s)", s / n, runs }')"; done)"
        done
        echo
        budget=$((PUBLIC_MEMORY_BYTES + PRIVATE_MEMORY_BYTES))
        goal_kb=$(((budget + 40000000) / 1024))
        verdict=$([ "$HWM_AFTER" -lt "$goal_kb" ] && echo "met" || echo "MISSED")
        echo "mediactl resident memory: VmRSS $((RSS_BEFORE / 1024)) MiB after warming, $((RSS_AFTER / 1024)) MiB after the runs;" \
             "peak VmHWM $((HWM_AFTER / 1024)) MiB; configured budget $((budget / 1048576)) MiB (memoryBytes public + private);" \
             "goal: < budget + 40 MB = $((goal_kb / 1024)) MiB: $verdict (judged on the peak)."
        echo
        echo "mediactl at the end: $THREADS_AFTER threads; stores: ${STORED:-metrics unavailable}"
    else
        echo "mediactl: not measured — $MEDIACTL_REASON"
    fi
    echo
    echo "nginx proxy (master + workers) VmRSS at the end: $((NGINX_RSS_KB / 1024)) MiB; its cache lives in files (page cache), max_size=$PROXY_CACHE_BYTES."
} | tee "$WORK/results.md"
[ -n "$RESULTS" ] && cp "$WORK/results.md" "$RESULTS"
[ "$FAILED" = 0 ] || { log "some checks failed (see above)"; exit 1; }
