#!/usr/bin/env bash
# run.sh — aggregate hit throughput of 1, 2 and 3 `mediactl serve` replicas behind one nginx
# `hash $uri$is_args$args consistent` front, with nginx proxy_cache alone as the reference, in one run
# (issue 17 item 5a; docs/benchmarks.md, "Scale-out").
#
# Starts, all on 127.0.0.1 (ports picked free at random, so nothing collides with other runs or tests):
#   origin    nginx serving Tests/Fixtures/corpus (benchmarks/nginx-origin.conf.in)
#   reference nginx proxy_cache in front of the origin (benchmarks/nginx-proxy.conf.in, worker_processes 2)
#   replicas  3 × `mediactl serve` (release build), each with its own state directory (and its own admin
#             port when the build has --admin-listen), the policy benchmarks/mediactl-policy.json.in
#             (catalog: memory tier)
#   fronts    nginx per fleet size N = 1, 2, 3 (benchmarks/scale-out/nginx-front.conf.in: the documented
#             front, docs/scale-out.md, listing the first N replicas; worker_processes 2)
# Every setup is warmed (each key fetched once, then 2 s of wrk), then measured with
#   wrk -t1 -c$CONNECTIONS -d$DURATION -s keys.lua URL -- $KEYS
# over KEYS distinct keys (/catalog/chelsea-5d40df37.jpg?k=0..KEYS-1, 16,092 bytes each), so the keys
# spread over the replicas. Setups: nginx proxy_cache (reference), mediactl direct (one replica, no
# front), front → 1, 2, 3 replicas. For each run it reports req/s, p50/p99, the ratio to the reference, and the
# CPU used during the run (from /proc: utime + stime of the replicas, of the front's or reference's nginx
# processes, of wrk; and the whole machine's busy share), so a fleet bound by this machine's cores shows it.
#
# Usage: benchmarks/scale-out/run.sh
# Environment (defaults): DURATION=10s CONNECTIONS=64 KEYS=300 REPLICAS=3
#   MEDIACTL=<repo>/.build/release/mediactl (built with `swift build -c release --product mediactl` when missing; BUILD=0 never)
#   KEEP_WORK=0 (1 keeps the work directory) RESULTS= (also write the Markdown table there)
# Exit: 0 when every measurement ran without errors; 1 when a check or a run failed; 2 on unusable setup.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
BENCH=$(dirname "$HERE")
ROOT=$(dirname "$BENCH")
CORPUS="$ROOT/Tests/Fixtures/corpus"
DURATION=${DURATION:-10s}
CONNECTIONS=${CONNECTIONS:-64}
KEYS=${KEYS:-300}
REPLICAS=${REPLICAS:-3}
MEDIACTL=${MEDIACTL:-$ROOT/.build/release/mediactl}
BUILD=${BUILD:-1}
KEEP_WORK=${KEEP_WORK:-0}
RESULTS=${RESULTS:-}
PATH_UNDER_TEST="/catalog/chelsea-5d40df37.jpg"   # 16,092 bytes
CLK_TCK=$(getconf CLK_TCK)

log() { printf '%s %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { log "error: $*"; exit 2; }
for tool in nginx wrk curl awk python3; do command -v "$tool" >/dev/null || die "$tool is not installed"; done
[ -d "$CORPUS/catalog" ] || die "no corpus at $CORPUS"

if [ ! -x "$MEDIACTL" ]; then
    [ "$BUILD" = 1 ] || die "no binary at $MEDIACTL (BUILD=0)"
    log "building mediactl (swift build -c release --product mediactl)"
    (cd "$ROOT" && swift build -c release --product mediactl >&2) || die "release build failed"
fi

WORK=$(mktemp -d /tmp/scale-out.XXXXXX)
chmod 755 "$WORK"
mkdir -p "$WORK/policies"
STARTED=()

stop_pid() {  # PID: SIGTERM, wait up to 15 s, then SIGKILL
    local pid=$1 i
    kill -0 "$pid" 2>/dev/null || { wait "$pid" 2>/dev/null || true; return 0; }
    kill -TERM "$pid" 2>/dev/null || true
    for ((i = 0; i < 150; i++)); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -0 "$pid" 2>/dev/null && { log "PID $pid ignored SIGTERM for 15 s; SIGKILL"; kill -KILL "$pid" 2>/dev/null || true; }
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

# Free loopback ports, chosen by the kernel (bound, then released at once).
free_ports() {
    python3 -c 'import socket, sys
socks = [socket.socket() for _ in range(int(sys.argv[1]))]
for s in socks: s.bind(("127.0.0.1", 0))
print(" ".join(str(s.getsockname()[1]) for s in socks))' "$1"
}
read -r -a PORTS <<<"$(free_ports $((2 + 2 * REPLICAS + REPLICAS)))"
ORIGIN_PORT=${PORTS[0]}; PROXY_PORT=${PORTS[1]}
REPLICA_PORTS=("${PORTS[@]:2:$REPLICAS}")
ADMIN_PORTS=("${PORTS[@]:$((2 + REPLICAS)):$REPLICAS}")
FRONT_PORTS=("${PORTS[@]:$((2 + 2 * REPLICAS)):$REPLICAS}")

render() {  # TEMPLATE OUTPUT [sed args...]
    local template=$1 output=$2; shift 2
    sed -e "s#@WORK@#$WORK#g" -e "s#@CORPUS@#$CORPUS#g" -e "s#@ORIGIN_PORT@#$ORIGIN_PORT#g" \
        -e "s#@PROXY_PORT@#$PROXY_PORT#g" -e "s#@PROXY_CACHE_BYTES@#256m#g" -e "s#@PROXY_WORKERS@#2#g" \
        -e "s#@PUBLIC_MEMORY_BYTES@#67108864#g" -e "s#@PRIVATE_MEMORY_BYTES@#16777216#g" -e "s#@PUBLIC_STORAGE@#memory#g" \
        "$@" "$template" > "$output"
}
status_of() { curl -s -o /dev/null -w '%{http_code}' --max-time 5 "$@" || true; }
wait_for_200() {  # URL: poll up to 10 s
    local i
    for ((i = 0; i < 100; i++)); do [ "$(status_of "$1")" = 200 ] && return 0; sleep 0.1; done
    return 1
}
header_of() {  # URL HEADER
    curl -s -D - -o /dev/null --max-time 5 "$1" | tr -d '\r' \
        | awk -v n="$(printf '%s' "$2" | tr 'A-Z' 'a-z')" -F': ' 'tolower($1) == n { v = $2 } END { print v }'
}

# --- origin, reference, replicas -----------------------------------------------------------------
render "$BENCH/nginx-origin.conf.in" "$WORK/origin.conf"
render "$BENCH/nginx-proxy.conf.in" "$WORK/proxy.conf"
nginx -p "$WORK" -c "$WORK/origin.conf" -g 'daemon off;' 2>>"$WORK/origin-error.log" & STARTED+=($!)
nginx -p "$WORK" -c "$WORK/proxy.conf" -g 'daemon off;' 2>>"$WORK/proxy-error.log" & STARTED+=($!)
REFERENCE_PID=$!
wait_for_200 "http://127.0.0.1:$ORIGIN_PORT$PATH_UNDER_TEST" || die "origin nginx did not answer"
wait_for_200 "http://127.0.0.1:$PROXY_PORT$PATH_UNDER_TEST" || die "nginx proxy_cache did not answer"

render "$BENCH/mediactl-policy.json.in" "$WORK/policies/bench.json"
ADMIN_FLAG=0
"$MEDIACTL" serve --help 2>/dev/null | grep -q -- '--admin-listen' && ADMIN_FLAG=1
REPLICA_PIDS=()
for ((i = 0; i < REPLICAS; i++)); do
    extra=()
    [ "$ADMIN_FLAG" = 1 ] && extra=(--admin-listen "127.0.0.1:${ADMIN_PORTS[$i]}")
    mkdir -p "$WORK/state-$((i + 1))"
    "$MEDIACTL" serve --listen "127.0.0.1:${REPLICA_PORTS[$i]}" --policies "$WORK/policies" \
        --state-dir "$WORK/state-$((i + 1))" ${extra[@]+"${extra[@]}"} >"$WORK/replica-$((i + 1)).log" 2>&1 &
    STARTED+=($!); REPLICA_PIDS+=($!)
done
for ((i = 0; i < REPLICAS; i++)); do
    wait_for_200 "http://127.0.0.1:${REPLICA_PORTS[$i]}$PATH_UNDER_TEST" \
        || die "replica $((i + 1)) did not answer: $(tail -c 300 "$WORK/replica-$((i + 1)).log")"
done
log "origin :$ORIGIN_PORT, proxy_cache :$PROXY_PORT, replicas :${REPLICA_PORTS[*]} (admin listeners: $([ "$ADMIN_FLAG" = 1 ] && echo "${ADMIN_PORTS[*]}" || echo "none in this build"))"

FRONT_PIDS=()
for ((n = 1; n <= REPLICAS; n++)); do
    servers=""
    for ((i = 0; i < n; i++)); do servers+="        server 127.0.0.1:${REPLICA_PORTS[$i]} max_fails=3 fail_timeout=10s;\\n"; done
    render "$HERE/nginx-front.conf.in" "$WORK/front-$n.conf" -e "s#@SERVERS@#$servers#" -e "s#@RUN@#$n#g" \
        -e "s#@FRONT_PORT@#${FRONT_PORTS[$((n - 1))]}#g" -e "s#@FRONT_WORKERS@#2#g"
    nginx -t -q -p "$WORK" -c "$WORK/front-$n.conf" 2>>"$WORK/front-error.log" || die "front $n config invalid"
    nginx -p "$WORK" -c "$WORK/front-$n.conf" -g 'daemon off;' 2>>"$WORK/front-error.log" & STARTED+=($!); FRONT_PIDS+=($!)
done
for ((n = 1; n <= REPLICAS; n++)); do
    wait_for_200 "http://127.0.0.1:${FRONT_PORTS[$((n - 1))]}$PATH_UNDER_TEST" || die "front $n did not answer"
done

FAILED=0
check() { if [[ "$2" == $3 ]]; then log "ok: $1 ($2)"; else log "CHECK FAILED: $1: got '$2', expected $3"; FAILED=1; fi; }

warm() {  # BASE URL: every key once
    local k
    for ((k = 0; k < KEYS; k++)); do curl -s -o /dev/null --max-time 5 "$1$PATH_UNDER_TEST?k=$k"; done
}

# --- CPU accounting -------------------------------------------------------------------------------
cpu_ticks() {  # PID... (and their children): utime + stime in clock ticks
    local total=0 pid child
    for pid in "$@"; do
        for child in $pid $(pgrep -P "$pid" 2>/dev/null || true); do
            [ -r "/proc/$child/stat" ] || continue
            total=$((total + $(awk '{ sub(/^.*\) /, ""); print $12 + $13 }' "/proc/$child/stat")))
        done
    done
    echo "$total"
}
machine_ticks() { awk '/^cpu / { busy = $2 + $3 + $4 + $7 + $8 + $9; print busy, busy + $5 + $6 }' /proc/stat; }

declare -A R
run_setup() {  # NAME BASE-URL SERVER-PIDS (space separated) NGINX-PIDS
    local name=$1 base=$2 servers=$3 proxies=$4 out line
    timeout 30 wrk -t1 -c16 -d2s -s "$HERE/keys.lua" "$base$PATH_UNDER_TEST" -- "$KEYS" >/dev/null 2>&1 || true
    local s0 p0 m0 mt0 s1 p1 m1 mt1
    s0=$(cpu_ticks $servers); p0=$(cpu_ticks $proxies); read -r m0 mt0 <<<"$(machine_ticks)"
    out=$(timeout 120 wrk -t1 -c"$CONNECTIONS" -d"$DURATION" --timeout 5s -s "$HERE/keys.lua" "$base$PATH_UNDER_TEST" -- "$KEYS" 2>&1) || true
    s1=$(cpu_ticks $servers); p1=$(cpu_ticks $proxies); read -r m1 mt1 <<<"$(machine_ticks)"
    line=$(printf '%s\n' "$out" | awk '/^RESULT /')
    if [ -z "$line" ]; then log "wrk failed for $name: $(printf '%s' "$out" | tail -c 200)"; FAILED=1; R[$name]="- - - - - - - - -"; return; fi
    local rps p50 p99 es ek seconds
    rps=$(sed -E 's/.* rps=([0-9.]+).*/\1/' <<<"$line"); p50=$(sed -E 's/.* p50_us=([0-9]+).*/\1/' <<<"$line")
    p99=$(sed -E 's/.* p99_us=([0-9]+).*/\1/' <<<"$line"); es=$(sed -E 's/.* errors_status=([0-9]+).*/\1/' <<<"$line")
    ek=$(sed -E 's/.* errors_socket=([0-9]+).*/\1/' <<<"$line")
    seconds=$(sed -E 's/.* duration_us=([0-9]+).*/\1/' <<<"$line")
    local server_cores proxy_cores busy other
    server_cores=$(awk -v a="$s0" -v b="$s1" -v t="$CLK_TCK" -v d="$seconds" 'BEGIN { printf "%.2f", (b - a) / t / (d / 1e6) }')
    proxy_cores=$(awk -v a="$p0" -v b="$p1" -v t="$CLK_TCK" -v d="$seconds" 'BEGIN { printf "%.2f", (b - a) / t / (d / 1e6) }')
    busy=$(awk -v a="$m0" -v b="$m1" -v ta="$mt0" -v tb="$mt1" 'BEGIN { printf "%.0f", 100 * (b - a) / (tb - ta) }')
    # The rest of the busy time: wrk itself (and anything else running on the machine).
    other=$(awk -v busy="$busy" -v n="$(nproc)" -v s="$server_cores" -v p="$proxy_cores" 'BEGIN { v = busy / 100 * n - s - p; printf "%.2f", v < 0 ? 0 : v }')
    R[$name]="$rps $p50 $p99 $es $ek $server_cores $proxy_cores $busy $other"
    log "$name: $rps req/s, p50 $p50 us, p99 $p99 us, non-2xx $es, socket errors $ek; CPU mediactl $server_cores, nginx $proxy_cores, rest $other cores; machine busy $busy %"
    [ "$es" = 0 ] && [ "$ek" = 0 ] || FAILED=1
}

# --- warm and check --------------------------------------------------------------------------------
P="http://127.0.0.1:$PROXY_PORT"
warm "$P"
check "proxy_cache hit" "$(header_of "$P$PATH_UNDER_TEST?k=1" X-Cache-Status)" "HIT"
for ((n = 1; n <= REPLICAS; n++)); do
    F="http://127.0.0.1:${FRONT_PORTS[$((n - 1))]}"
    warm "$F"
    check "front $n: hit" "$(header_of "$F$PATH_UNDER_TEST?k=1" Cache-Status)" "mediactl; hit*"
done
M1="http://127.0.0.1:${REPLICA_PORTS[0]}"
warm "$M1"

LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg)
run_setup "nginx proxy_cache" "$P" "" "$REFERENCE_PID"
run_setup "mediactl direct" "$M1" "${REPLICA_PIDS[0]}" ""
for ((n = 1; n <= REPLICAS; n++)); do
    run_setup "front + $n" "http://127.0.0.1:${FRONT_PORTS[$((n - 1))]}" "${REPLICA_PIDS[*]:0:$n}" "${FRONT_PIDS[$((n - 1))]}"
done
LOAD_AFTER=$(cut -d' ' -f1-3 /proc/loadavg)

# How the keys spread: objects per replica (memory tier: the stored-bytes gauge, or the hits seen).
SPREAD=""
for ((i = 0; i < REPLICAS; i++)); do
    metrics_port=${REPLICA_PORTS[$i]}; [ "$ADMIN_FLAG" = 1 ] && metrics_port=${ADMIN_PORTS[$i]}
    hits=$(curl -s --max-time 5 "http://127.0.0.1:$metrics_port/_mediactl/metrics" | awk '/^mediactl_hits_total\{tier="public"\}/ { print $2 }')
    SPREAD+="replica $((i + 1)): ${hits:-?} hits; "
done

# --- report ----------------------------------------------------------------------------------------
ref_rps=$(cut -d' ' -f1 <<<"${R[nginx proxy_cache]}")
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "-" || b == "-" || b == 0) print "-"; else printf "%.2f", a / b }'; }
ms() { awk -v u="$1" 'BEGIN { if (u == "-") print "-"; else printf "%.2f", u / 1000 }'; }
{
    echo "### wrk -t1 -c$CONNECTIONS -d$DURATION over $KEYS keys (16 KB JPEG, memory tier), $(nproc) cores shared by everything; load average before $LOAD_BEFORE, after $LOAD_AFTER"
    echo
    echo "| setup | req/s | ratio to nginx proxy_cache | p50 ms | p99 ms | CPU of the replicas (cores) | CPU of the front / proxy nginx (cores) | rest: wrk and others (cores) | machine busy |"
    echo "|---|---|---|---|---|---|---|---|---|"
    for name in "nginx proxy_cache" "mediactl direct" $(for ((n = 1; n <= REPLICAS; n++)); do echo "front+$n"; done); do
        key=${name/front+/front + }
        read -r rps p50 p99 _ _ sc pc busy other <<<"${R[$key]}"
        echo "| $key | $rps | $(ratio "$rps" "$ref_rps") | $(ms "$p50") | $(ms "$p99") | $sc | $pc | $other | $busy % |"
    done
    echo
    echo "Public-tier hits per replica at the end (warming and every run): $SPREAD"
} | tee "$WORK/results.md"
[ -n "$RESULTS" ] && cp "$WORK/results.md" "$RESULTS"
[ "$FAILED" = 0 ] || { log "some checks or runs failed (see above)"; exit 1; }
