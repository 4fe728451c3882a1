#!/usr/bin/env bash
# Soak test for `mediactl serve` (docs/soak.md). Not part of CI's default run.
#
# Builds the release `mediactl`, starts an nginx origin serving Tests/Fixtures/corpus with per-folder
# cache headers, starts `mediactl serve` with the default policies pointed at it, drives it with wrk
# (benchmarks/soak/mix.lua: catalog, avatars, receipts, one-time in rotation) and samples the serving
# process's resident memory, open file descriptors and threads. At the end it prints wrk's summary
# and the series summary, stops serve with SIGTERM (it must exit 0 within 15 s) and runs
# `mediactl audit` and `mediactl audit verify` (both must exit 0).
#
# Usage: benchmarks/soak/soak.sh            (from anywhere; needs nginx, wrk, curl, ss)
# Environment (all optional):
#   DURATION=600            seconds of load
#   CONNECTIONS=256         wrk connections
#   THREADS=2               wrk threads
#   WRK_TIMEOUT=10s         wrk's per-request timeout (a slower answer counts as a timeout error)
#   SAMPLE_INTERVAL=10      seconds between RSS/fd/thread samples
#   WARMUP=DURATION/10      seconds excluded from the growth check (caches and threads fill up first)
#   TIERS=catalog,avatars,receipts,one-time   the tiers mix.lua rotates through
#   AVATAR_VERSIONS=3       ?v=1..N values per avatar file
#   MAX_RSS_GROWTH_PCT=10   after warm-up, RSS may grow at most this much (percent) or the run fails
#   MAX_FD_GROWTH=16        after warm-up, open fds may grow at most this many or the run fails
#   SKIP_BUILD=0            1: use the existing .build/release/mediactl
#   SOAK_OUT=.build/soak/<UTC time>   where logs, the CSV, the state and policy dirs go
# Exit status: 0 every check passed; 1 a check failed (errors, growth, serve exit, audit); 2 bad variables
# or setup failed.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
HERE="$ROOT/benchmarks/soak"
export PATH="/opt/swift/usr/bin:$PATH"

DURATION="${DURATION:-600}"
CONNECTIONS="${CONNECTIONS:-256}"
THREADS="${THREADS:-2}"
WRK_TIMEOUT="${WRK_TIMEOUT:-10s}"
SAMPLE_INTERVAL="${SAMPLE_INTERVAL:-10}"
WARMUP="${WARMUP:-}"  # default DURATION/10, set once DURATION is checked
TIERS="${TIERS:-catalog,avatars,receipts,one-time}"
AVATAR_VERSIONS="${AVATAR_VERSIONS:-3}"
MAX_RSS_GROWTH_PCT="${MAX_RSS_GROWTH_PCT:-10}"
MAX_FD_GROWTH="${MAX_FD_GROWTH:-16}"
SKIP_BUILD="${SKIP_BUILD:-0}"
OUT="${SOAK_OUT:-$ROOT/.build/soak/$(date -u +%Y%m%dT%H%M%SZ)}"

CORPUS="$ROOT/Tests/Fixtures/corpus"
BIN="$ROOT/.build/release/mediactl"
NGINX=/usr/sbin/nginx

NGINX_PID=""
SERVE_PID=""
SAMPLER_PID=""
WRK_PID=""
FAILURES=()

log() { printf 'soak: %s\n' "$*"; }
die() { printf 'soak: error: %s\n' "$*" >&2; exit 2; }
fail() { FAILURES+=("$*"); printf 'soak: FAIL: %s\n' "$*"; }

# Stops one process this script started: SIGTERM, up to 5 s, then SIGKILL; reaps it.
stop_pid() {
    local pid="$1" i
    [ -n "$pid" ] || return 0
    kill -0 "$pid" 2>/dev/null || { wait "$pid" 2>/dev/null || true; return 0; }
    kill -TERM "$pid" 2>/dev/null || true
    for i in $(seq 1 50); do
        [ "$(proc_state "$pid")" = gone ] && break
        sleep 0.1
    done
    if [ "$(proc_state "$pid")" != gone ]; then kill -KILL "$pid" 2>/dev/null || true; fi
    wait "$pid" 2>/dev/null || true
}

# `gone` when PID has exited (a zombie counts as exited), `running` otherwise.
proc_state() {
    local state
    state="$(awk '/^State:/ { print $2 }' "/proc/$1/status" 2>/dev/null || true)"
    if [ -z "$state" ] || [ "$state" = Z ]; then echo gone; else echo running; fi
}

cleanup() {
    local status=$?
    trap - EXIT INT TERM
    stop_pid "$WRK_PID"
    stop_pid "$SAMPLER_PID"
    stop_pid "$SERVE_PID"
    stop_pid "$NGINX_PID"
    exit "$status"
}
trap cleanup EXIT
trap 'log "interrupted"; exit 130' INT TERM

is_uint() { [[ "$1" =~ ^[0-9]+$ ]]; }
is_uint "$DURATION" || die "DURATION must be a whole number, not '$DURATION'"
[ -n "$WARMUP" ] || WARMUP=$((DURATION / 10))
for name in DURATION CONNECTIONS THREADS SAMPLE_INTERVAL WARMUP AVATAR_VERSIONS MAX_RSS_GROWTH_PCT MAX_FD_GROWTH; do
    is_uint "${!name}" || die "$name must be a whole number, not '${!name}'"
done
[ "$DURATION" -ge 1 ] || die "DURATION must be at least 1"
[ "$SAMPLE_INTERVAL" -ge 1 ] || die "SAMPLE_INTERVAL must be at least 1"
IFS=, read -r -a tier_list <<<"$TIERS"
[ "${#tier_list[@]}" -gt 0 ] || die "TIERS is empty (allowed: catalog,avatars,receipts,one-time)"
for tier in "${tier_list[@]}"; do
    case "$tier" in
        catalog | avatars | receipts | one-time) ;;
        *) die "unknown tier '$tier' in TIERS (allowed: catalog,avatars,receipts,one-time)" ;;
    esac
done
[ "$CONNECTIONS" -ge "$THREADS" ] || die "CONNECTIONS ($CONNECTIONS) must be at least THREADS ($THREADS)"
for tool in wrk curl ss awk; do command -v "$tool" >/dev/null || die "$tool is not installed (apt-get install $tool)"; done
[ -x "$NGINX" ] || die "nginx is not installed (apt-get install nginx)"
[ -d "$CORPUS/catalog" ] || die "no corpus at $CORPUS"

# A loopback port nobody listens on right now (bounded tries).
free_port() {
    local i port
    for i in $(seq 1 200); do
        port=$((20000 + RANDOM % 40000))
        if [ -z "$(ss -Htan "sport = :$port" 2>/dev/null)" ]; then
            echo "$port"
            return 0
        fi
    done
    return 1
}

# Waits up to $2 seconds for a TCP listener on 127.0.0.1:$1 while process $3 is alive.
wait_listening() {
    local port="$1" seconds="$2" pid="$3" i
    for i in $(seq 1 $((seconds * 10))); do
        [ "$(proc_state "$pid")" = running ] || return 1
        if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then return 0; fi
        sleep 0.1
    done
    return 1
}

mkdir -p "$OUT"
log "output directory: $OUT"
log "load average at start: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"

# 1. Build.
if [ "$SKIP_BUILD" != 1 ]; then
    log "building: swift build -c release --product mediactl"
    (cd "$ROOT" && swift build -c release --product mediactl) >"$OUT/build.log" 2>&1 \
        || { tail -n 30 "$OUT/build.log" >&2; die "release build failed (see $OUT/build.log)"; }
fi
[ -x "$BIN" ] || die "no $BIN (build first or unset SKIP_BUILD)"

# 2. nginx origin (the configuration of Tests/EndToEndTests/Support/NginxOrigin.swift).
start_nginx() {
    local attempt port prefix="$OUT/nginx" user=""
    mkdir -p "$prefix/tmp"
    [ "$(id -u)" = 0 ] && user="user root root;"
    for attempt in 1 2 3; do
        port="$(free_port)" || die "no free loopback port"
        cat >"$prefix/nginx.conf" <<EOF
$user
worker_processes 1;
daemon off;
pid $prefix/nginx.pid;
error_log $prefix/error.log warn;
events { worker_connections 4096; }
http {
    access_log off;
    client_body_temp_path $prefix/tmp/body;
    proxy_temp_path $prefix/tmp/proxy;
    fastcgi_temp_path $prefix/tmp/fastcgi;
    uwsgi_temp_path $prefix/tmp/uwsgi;
    scgi_temp_path $prefix/tmp/scgi;
    types { image/jpeg jpg; image/png png; image/gif gif; image/webp webp; image/svg+xml svg; }
    default_type application/octet-stream;
    map \$http_authorization \$origin_user { default ""; "Bearer t1" u1; "Bearer t2" u2; }
    server {
        listen 127.0.0.1:$port;
        root $CORPUS;
        location /catalog/ { add_header Cache-Control "public, max-age=31536000, immutable"; }
        location /avatars/ { add_header Cache-Control "max-age=60"; }
        location /receipts/ {
            if (\$origin_user = "") { return 401; }
            add_header Cache-Control "private, max-age=60";
        }
        location /one-time/ {
            alias $CORPUS/catalog/;
            add_header Cache-Control "no-store";
        }
        error_page 401 /_401;
        location = /_401 { internal; add_header WWW-Authenticate "Bearer" always; return 401 "unauthorized"; }
    }
}
EOF
        "$NGINX" -p "$prefix" -c "$prefix/nginx.conf" -e "$prefix/error.log" >"$prefix/stdout.log" 2>&1 &
        NGINX_PID=$!
        if wait_listening "$port" 10 "$NGINX_PID"; then
            NGINX_PORT="$port"
            return 0
        fi
        stop_pid "$NGINX_PID"
        NGINX_PID=""
        log "nginx did not listen on $port (attempt $attempt): $(tail -n 1 "$prefix/error.log" 2>/dev/null || true)"
    done
    die "nginx origin did not start (see $prefix/error.log)"
}
start_nginx
ORIGIN="http://127.0.0.1:$NGINX_PORT"
log "nginx origin on $ORIGIN (pid $NGINX_PID)"
code="$(curl -s -o /dev/null -w '%{http_code}' -H 'Authorization: Bearer t1' "$ORIGIN/receipts/r-7731.png")"
[ "$code" = 200 ] || die "origin sanity check: /receipts/r-7731.png with Bearer t1 answered $code, expected 200"

# 3. Policies and serve.
POLICIES="$OUT/policies"
STATE="$OUT/state"
mkdir -p "$POLICIES" "$STATE"
sed "s#http://127.0.0.1:8081/#$ORIGIN/#g" "$ROOT/Policies/default.json" >"$POLICIES/default.json"
"$BIN" policy check --policies "$POLICIES" >"$OUT/policy-check.log" 2>&1 \
    || { cat "$OUT/policy-check.log" >&2; die "mediactl policy check failed on $POLICIES"; }

SERVE_PORT="$(free_port)" || die "no free loopback port"
ADMIN_PORT="$(free_port)" || die "no free loopback port"
"$BIN" serve --listen "127.0.0.1:$SERVE_PORT" --admin-listen "127.0.0.1:$ADMIN_PORT" --policies "$POLICIES" --state-dir "$STATE" \
    >"$OUT/serve.log" 2>&1 &
SERVE_PID=$!
wait_listening "$SERVE_PORT" 30 "$SERVE_PID" || { cat "$OUT/serve.log" >&2; die "mediactl serve did not listen on $SERVE_PORT"; }
URL="http://127.0.0.1:$SERVE_PORT"
log "mediactl serve on $URL (pid $SERVE_PID)"
for path in /catalog/coffee-237a7131.jpg /avatars/u1001.jpg /one-time/spinner.gif; do
    code="$(curl -s -o /dev/null -w '%{http_code}' "$URL$path")"
    [ "$code" = 200 ] || die "serve sanity check: $path answered $code, expected 200"
done
code="$(curl -s -o /dev/null -w '%{http_code}' -H 'Authorization: Bearer t2' "$URL/receipts/r-7732.jpg")"
[ "$code" = 200 ] || die "serve sanity check: /receipts/r-7732.jpg with Bearer t2 answered $code, expected 200"

# 4. Sampler: one CSV row every SAMPLE_INTERVAL seconds until the stop file appears (bounded).
CSV="$OUT/samples.csv"
STOP_FILE="$OUT/.stop-sampling"
START_EPOCH="$(date +%s)"
sample() {
    local rss threads fds state_kib
    rss="$(awk '/^VmRSS:/ { print $2 }' "/proc/$SERVE_PID/status" 2>/dev/null || true)"
    threads="$(awk '/^Threads:/ { print $2 }' "/proc/$SERVE_PID/status" 2>/dev/null || true)"
    [ -n "$rss" ] || return 1
    fds="$(ls "/proc/$SERVE_PID/fd" 2>/dev/null | wc -l)"
    state_kib="$(du -sk "$STATE" 2>/dev/null | cut -f1)"
    printf '%s,%s,%s,%s,%s,%s\n' "$(($(date +%s) - START_EPOCH))" "$rss" "$fds" "$threads" "${state_kib:-0}" \
        "$(cut -d' ' -f1 /proc/loadavg)" >>"$CSV"
}
echo "elapsed_s,rss_kib,fds,threads,state_kib,load1" >"$CSV"
rm -f "$STOP_FILE"
sample || die "cannot read /proc/$SERVE_PID"
(
    nap=""
    trap 'kill "$nap" 2>/dev/null; exit 0' TERM
    for _ in $(seq 1 $((DURATION / SAMPLE_INTERVAL + 30))); do
        sleep "$SAMPLE_INTERVAL" &
        nap=$!
        wait "$nap"
        [ -e "$STOP_FILE" ] && break
        sample || break
    done
) &
SAMPLER_PID=$!

# 5. Load.
log "wrk: ${DURATION}s, $CONNECTIONS connections, $THREADS threads, tiers $TIERS"
wrk -t"$THREADS" -c"$CONNECTIONS" -d"${DURATION}s" --timeout "$WRK_TIMEOUT" --latency \
    -s "$HERE/mix.lua" "$URL" -- "corpus=$CORPUS" "tiers=$TIERS" "versions=$AVATAR_VERSIONS" \
    >"$OUT/wrk.log" 2>&1 &
WRK_PID=$!
wrk_status=0
wait "$WRK_PID" || wrk_status=$?
WRK_PID=""
touch "$STOP_FILE"
wait "$SAMPLER_PID" 2>/dev/null || true
SAMPLER_PID=""
sample || true
curl -s "http://127.0.0.1:$ADMIN_PORT/_mediactl/metrics" >"$OUT/metrics.txt" || true
log "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"

# 6. Report.
echo
echo "== wrk =="
grep -v '^SOAK ' "$OUT/wrk.log" || true
echo
echo "== summary =="
grep '^SOAK ' "$OUT/wrk.log" | sed 's/^SOAK /  /' || true
[ "$wrk_status" = 0 ] || fail "wrk exited $wrk_status (see $OUT/wrk.log)"
soak_value() { awk -v k="$1" '$1 == "SOAK" && $2 == k { print $3 }' "$OUT/wrk.log"; }
requests="$(soak_value requests)"
[ -n "$requests" ] && [ "$requests" -gt 0 ] || fail "wrk reported no requests"
for kind in connect read write timeout; do
    n="$(soak_value "errors_$kind")"
    [ "${n:-0}" = 0 ] || fail "wrk socket errors ($kind): $n"
done
n="$(soak_value non2xx_total)"
[ "${n:-0}" = 0 ] || fail "non-2xx responses: $n ($(grep '^SOAK non2xx ' "$OUT/wrk.log" | sed 's/^SOAK non2xx //' | paste -sd ';' -))"

echo
echo "== process series ($CSV, every ${SAMPLE_INTERVAL}s; growth measured after ${WARMUP}s) =="
series="$(awk -F, -v warmup="$WARMUP" '
    NR == 1 { next }
    {
        n++; t[n] = $1; rss[n] = $2; fds[n] = $3; thr[n] = $4; st[n] = $5
        if (n == 1 || $2 > maxrss) maxrss = $2
        if (n == 1 || $3 > maxfd) maxfd = $3
        if (n == 1 || $4 > maxthr) maxthr = $4
        if ($1 >= warmup && !w) { w = n }
    }
    END {
        if (!w) w = n
        # least-squares slope of RSS over the post-warm-up samples, KiB per minute
        m = 0; sx = 0; sy = 0; sxx = 0; sxy = 0
        for (i = w; i <= n; i++) { m++; sx += t[i]; sy += rss[i]; sxx += t[i] * t[i]; sxy += t[i] * rss[i] }
        den = m * sxx - sx * sx
        slope = den > 0 ? (m * sxy - sx * sy) / den * 60 : 0
        printf "samples %d\n", n
        printf "rss_kib first %d warm %d last %d max %d\n", rss[1], rss[w], rss[n], maxrss
        printf "fds first %d warm %d last %d max %d\n", fds[1], fds[w], fds[n], maxfd
        printf "threads first %d warm %d last %d max %d\n", thr[1], thr[w], thr[n], maxthr
        printf "state_kib first %d warm %d last %d\n", st[1], st[w], st[n]
        printf "rss_slope_kib_per_min %.1f\n", slope
        printf "warm_rss %d\nlast_rss %d\nwarm_fds %d\nlast_fds %d\n", rss[w], rss[n], fds[w], fds[n]
    }' "$CSV")"
echo "$series" | grep -vE '^(warm|last)_' | sed 's/^/  /'
series_value() { echo "$series" | awk -v k="$1" '$1 == k { print $2 }'; }
warm_rss="$(series_value warm_rss)"; last_rss="$(series_value last_rss)"
warm_fds="$(series_value warm_fds)"; last_fds="$(series_value last_fds)"
if [ "$((last_rss - warm_rss))" -gt "$((warm_rss * MAX_RSS_GROWTH_PCT / 100))" ]; then
    fail "RSS grew from $warm_rss KiB (after warm-up) to $last_rss KiB (more than $MAX_RSS_GROWTH_PCT%)"
fi
if [ "$((last_fds - warm_fds))" -gt "$MAX_FD_GROWTH" ]; then
    fail "open fds grew from $warm_fds (after warm-up) to $last_fds (more than $MAX_FD_GROWTH)"
fi

# 7. Stop serve: SIGTERM, it must exit 0 within 15 s.
echo
echo "== shutdown and audit =="
stop_start="$(date +%s%N)"
kill -TERM "$SERVE_PID"
for _ in $(seq 1 150); do
    [ "$(proc_state "$SERVE_PID")" = gone ] && break
    sleep 0.1
done
stop_ms=$((($(date +%s%N) - stop_start) / 1000000))
serve_killed=0
if [ "$(proc_state "$SERVE_PID")" != gone ]; then
    serve_killed=1
    kill -KILL "$SERVE_PID" 2>/dev/null || true
fi
serve_status=0
wait "$SERVE_PID" || serve_status=$?
SERVE_PID=""
log "serve exited $serve_status after SIGTERM in ${stop_ms} ms: $(tail -n 1 "$OUT/serve.log")"
if [ "$serve_killed" = 1 ]; then fail "serve did not exit within 15 s of SIGTERM (killed)"
elif [ "$serve_status" != 0 ]; then fail "serve exited $serve_status after SIGTERM (see $OUT/serve.log)"; fi

audit_status=0
"$BIN" audit --state-dir "$STATE" --policies "$POLICIES" >"$OUT/audit.txt" 2>&1 || audit_status=$?
sed 's/^/  /' "$OUT/audit.txt" | head -n 40
log "mediactl audit exited $audit_status"
[ "$audit_status" = 0 ] || fail "mediactl audit exited $audit_status (see $OUT/audit.txt)"
verify_status=0
"$BIN" audit verify --state-dir "$STATE" >"$OUT/audit-verify.txt" 2>&1 || verify_status=$?
sed 's/^/  /' "$OUT/audit-verify.txt" | head -n 10
log "mediactl audit verify exited $verify_status"
[ "$verify_status" = 0 ] || fail "mediactl audit verify exited $verify_status (see $OUT/audit-verify.txt)"

stop_pid "$NGINX_PID"
NGINX_PID=""

echo
if [ "${#FAILURES[@]}" -gt 0 ]; then
    log "${#FAILURES[@]} check(s) failed:"
    printf '  - %s\n' "${FAILURES[@]}"
    exit 1
fi
log "all checks passed (results in $OUT)"
