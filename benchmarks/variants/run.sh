#!/usr/bin/env bash
# benchmarks/variants/run.sh — derived images (issue "Derived images", item 9), goals (a)–(d) in one run.
#
# (a) variant misses in-process (`mediabench variants`: bare ImageTransformer.derive and
#     MediaService.handle with the source stored) against `vipsthumbnail` (libvips-tools) on the same
#     image and size, CPU per image (user + sys), process start excluded: vipsthumbnail converts 1 and
#     IMAGES files in one process each (VIPS_CONCURRENCY=1) and the slope is its cost per image. ROUNDS
#     rounds alternate vipsthumbnail and one mediabench process. Goal: mediactl ≤ 1.15×.
#       astronaut  large/astronaut-4000.jpg (4000×4000) → 144-px JPEG   (vipsthumbnail -s 144, Q=80, optimize_coding, strip)
#       hubble     large/hubble-1000.jpg (1000×872)     → 576-px WebP   (vipsthumbnail -s 576, Q=80, strip; and
#                  with --export-profile srgb, which converts the embedded ICC profile as mediactl does)
#     The outputs are compared: the JPEG must be byte-identical, the WebP the same pixels.
# (b) variant hits through `mediactl serve` (memory tier) at HIT_CONNECTIONS against a plain stored
#     original of the same bytes (the 144-px variant written under the origin's /plain/) and against a
#     catalog JPEG of similar size, same run, pinned like benchmarks/wrk-vs-nginx.sh (PIN=1: mediactl
#     on CPU 0 with one event loop, wrk and the nginx origin on the other CPUs). Goal: ≥ 0.95× plain.
# (c) variant miss throughput over HTTP: mediactl (unpinned: its event loops and one transform worker
#     per CPU) against thumbor (PyPI, in THUMBOR_VENV; file loader, no storage, no result storage, one
#     single-process thumbor per CPU behind nginx round-robin — thumbor's own --processes left one of its
#     two processes idle under wrk's kept-alive connections —, unsafe URLs). Every request is a real derivation: the wrk script
#     (variant-miss.lua) cycles q=1…100 and heights that leave the output size unchanged, so each
#     mediactl request is a new variant key (checked against mediactl_variants_derived_total), and
#     thumbor gets the same q sequence (filters:quality) — plus its literal URL without the filter.
#     Each server's own CPU time during its run is read from /proc. Goal: mediactl ≥ 1.2× thumbor.
# (d) peak RSS: a fresh `mediactl serve` (memoryBytes PUBLIC_MEMORY_BYTES, unpinned: one transform
#     worker per CPU), D_CONCURRENCY concurrent distinct variant misses of the 4000×4000 JPEG (w=144; then
#     w=1152, the tier's largest width), then the tier's memory store filled to its budget with distinct
#     1.48 MB originals (/filler/) and D_CONCURRENCY more w=1152 misses; each phase's peak (VmHWM reset
#     through /proc/PID/clear_refs before it) against budget + 40 MB (MB = 10^6 bytes, as wrk-vs-nginx.sh).
#     The in-process hit comparison of `mediabench variants` (part hits) is reported with (b).
# Everything it started is stopped on exit (by PID); every wait and load loop is bounded.
#
# Usage: benchmarks/variants/run.sh
# Environment (defaults):
#   PARTS="a b c d"                 which goals to measure
#   BUILD=1                         swift build -c release of mediactl and mediabench first (0: use what is built)
#   ORIGIN_PORT=18181 MEDIACTL_PORT=18183 MEDIACTL_ADMIN_PORT=18184 THUMBOR_PORT=18190   loopback ports (must be free)
#   IMAGES=12 ROUNDS=4              (a): images per case and side in each round; rounds
#   PIN=1                           (a) on CPU 0; (b) mediactl on CPU 0, wrk + origin on the others
#   HIT_DURATION=8s HIT_CONNECTIONS=64 HIT_REPS=3   (b)
#   MISS_DURATION=10s MISS_CONNECTIONS=8            (c)
#   THUMBOR_VENV=/tmp/mediactl-thumbor-venv         created with `pip install thumbor==7.8.0` when missing
#   THUMBOR_PROCESSES=$(nproc)      thumbor instances on THUMBOR_PORT+1…, nginx in front on THUMBOR_PORT
#   PUBLIC_MEMORY_BYTES=67108864 PUBLIC_STORAGE=memory   the public tier's budget and storage class
#   D_CONCURRENCY=16                (d)
#   KEEP_WORK=0                     1: keep the work directory (logs, configs, outputs)
#   RESULTS=                        also write the summary (Markdown) to this file
# Exit: 0 when every measurement ran and every check passed; 1 when a check failed; 2 on unusable setup.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
CORPUS="$ROOT/Tests/Fixtures/corpus"
PARTS=${PARTS:-"a b c d"}
BUILD=${BUILD:-1}
ORIGIN_PORT=${ORIGIN_PORT:-18181}
MEDIACTL_PORT=${MEDIACTL_PORT:-18183}
MEDIACTL_ADMIN_PORT=${MEDIACTL_ADMIN_PORT:-18184}   # serve --admin-listen: health and metrics
THUMBOR_PORT=${THUMBOR_PORT:-18190}
IMAGES=${IMAGES:-12}
ROUNDS=${ROUNDS:-4}
PIN=${PIN:-1}
HIT_DURATION=${HIT_DURATION:-8s}
HIT_CONNECTIONS=${HIT_CONNECTIONS:-64}
HIT_REPS=${HIT_REPS:-3}
MISS_DURATION=${MISS_DURATION:-10s}
MISS_CONNECTIONS=${MISS_CONNECTIONS:-8}
THUMBOR_VENV=${THUMBOR_VENV:-/tmp/mediactl-thumbor-venv}
THUMBOR_PROCESSES=${THUMBOR_PROCESSES:-$(nproc)}
PUBLIC_MEMORY_BYTES=${PUBLIC_MEMORY_BYTES:-67108864}
PUBLIC_STORAGE=${PUBLIC_STORAGE:-memory}
D_CONCURRENCY=${D_CONCURRENCY:-16}
KEEP_WORK=${KEEP_WORK:-0}
RESULTS=${RESULTS:-}
MEDIACTL="$ROOT/.build/release/mediactl"
MEDIABENCH="$ROOT/.build/release/mediabench"
CPUTIME="$HERE/cputime.py"
MISS_LUA="$HERE/variant-miss.lua"
HIT_LUA="$ROOT/benchmarks/wrk-report.lua"
ASTRONAUT=/large/astronaut-4000.jpg
HUBBLE=/large/hubble-1000.jpg
CATALOG=/catalog/horse-d29d871c.jpg   # 5,914 B, the catalog JPEG closest to the 144-px variant's 6,667 B

log() { printf '%s %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { log "error: $*"; exit 2; }
has_part() { [[ " $PARTS " == *" $1 "* ]]; }

for tool in nginx wrk curl awk python3 taskset; do command -v "$tool" >/dev/null || die "$tool is not installed"; done
if has_part a; then command -v vipsthumbnail >/dev/null || die "vipsthumbnail is not installed (Debian libvips-tools)"; fi
[ "$(nproc)" -ge 2 ] || [ "$PIN" = 0 ] || die "PIN=1 needs at least 2 CPUs"
[ -f "$CORPUS$ASTRONAUT" ] || die "no corpus at $CORPUS"
SERVER_CPU=0
CLIENT_CPUS="1-$(($(nproc) - 1))"
ON_SERVER=(); ON_CLIENT=()
if [ "$PIN" = 1 ]; then ON_SERVER=(taskset -c "$SERVER_CPU"); ON_CLIENT=(taskset -c "$CLIENT_CPUS"); fi

WORK=$(mktemp -d /tmp/variants-bench.XXXXXX)
chmod 755 "$WORK"   # nginx workers (nobody) read below it
mkdir -p "$WORK/plain" "$WORK/vt-in" "$WORK/vt-out" "$WORK/mb"
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
for port in "$ORIGIN_PORT" "$MEDIACTL_PORT" "$MEDIACTL_ADMIN_PORT" "$THUMBOR_PORT"; do
    port_in_use "$port" && die "127.0.0.1:$port is already in use (set ORIGIN_PORT/MEDIACTL_PORT/MEDIACTL_ADMIN_PORT/THUMBOR_PORT)"
done

render() {  # TEMPLATE OUTPUT
    sed -e "s#@WORK@#$WORK#g" -e "s#@CORPUS@#$CORPUS#g" -e "s#@ORIGIN_PORT@#$ORIGIN_PORT#g" \
        -e "s#@PUBLIC_MEMORY_BYTES@#$PUBLIC_MEMORY_BYTES#g" -e "s#@PUBLIC_STORAGE@#$PUBLIC_STORAGE#g" \
        -e "s#@THUMBOR_PORT@#$THUMBOR_PORT#g" \
        "$1" > "$2"
}
status_of() {  # URL [curl args...] -> HTTP status
    local url=$1; shift
    curl -s -o /dev/null -w '%{http_code}' --max-time 30 "$@" "$url" || true
}
wait_for_status() {  # URL STATUS: poll up to 20 s
    local i
    for ((i = 0; i < 200; i++)); do
        [ "$(status_of "$1")" = "$2" ] && return 0
        sleep 0.1
    done
    return 1
}
header_of() {  # URL HEADER -> header value (last one)
    curl -s -D - -o /dev/null --max-time 30 "$1" | tr -d '\r' \
        | awk -v n="$(printf '%s' "$2" | tr 'A-Z' 'a-z')" -F': ' 'tolower($1) == n { v = $2 } END { print v }'
}
rss_kb() { awk -v k="$2:" '$1 == k { print $2 }' "/proc/$1/status" 2>/dev/null || echo 0; }
cpu_ticks() {  # PID... -> utime + stime of those processes, clock ticks
    local total=0 pid t
    for pid in "$@"; do
        t=$(awk '{ print $14 + $15 }' "/proc/$pid/stat" 2>/dev/null || echo 0)
        total=$((total + t))
    done
    echo "$total"
}
metric() {  # NAME-PREFIX -> value of the first metrics line starting with it (awk reads all: no SIGPIPE for curl)
    curl -s --max-time 10 "$MA/_mediactl/metrics" | awk -v p="$1" 'index($0, p) == 1 && !found { print $2; found = 1 }' || true
}
field() { sed -E "s/.* $1=([0-9.]+).*/\\1/" <<<"$2"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "" || b == "" || a == "-" || b == "-" || b == 0) print "-"; else printf "%.3f", a / b }'; }
ms() { awk -v u="$1" 'BEGIN { if (u == "" || u == "-") print "-"; else printf "%.2f", u / 1000 }'; }
verdict() {  # VALUE OP GOAL -> met / MISSED
    awk -v v="$1" -v g="$3" -v op="$2" 'BEGIN { if (v == "-") { print "not measured"; exit }
        ok = (op == "<=") ? (v <= g) : (v >= g); print ok ? "met" : "MISSED" }'
}
FAILED=0
check() {  # DESCRIPTION ACTUAL EXPECTED-PATTERN
    if [[ "$2" == $3 ]]; then log "ok: $1 ($2)"; else log "CHECK FAILED: $1: got '$2', expected $3"; FAILED=1; fi
}

SUMMARY="$WORK/summary.md"
: > "$SUMMARY"
out() { printf '%s\n' "$*" | tee -a "$SUMMARY"; }
CPU_MODEL=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)
LOAD_START=$(cut -d' ' -f1-3 /proc/loadavg)
log "work directory $WORK; load average $LOAD_START"

# --- build -----------------------------------------------------------------------------------------
if [ "$BUILD" = 1 ]; then
    log "building (swift build -c release --product mediactl / mediabench)"
    (cd "$ROOT" && swift build -c release --product mediactl >"$WORK/build.log" 2>&1 \
        && swift build -c release --product mediabench >>"$WORK/build.log" 2>&1) || die "release build failed (see $WORK/build.log)"
fi
[ -x "$MEDIACTL" ] || die "no binary at $MEDIACTL (BUILD=1 builds it)"
[ -x "$MEDIABENCH" ] || die "no binary at $MEDIABENCH (BUILD=1 builds it)"

# --- (a) variant misses in-process against vipsthumbnail -------------------------------------------
declare -A A   # A[case,key]
vips_run() {  # SIZE TARGET FILE... -> "cpu_us wall_us" of one vipsthumbnail process over those files
    local size=$1 target=$2 line; shift 2
    line=$(VIPS_CONCURRENCY=1 ${ON_SERVER[@]+"${ON_SERVER[@]}"} python3 "$CPUTIME" --timeout 300 -- vipsthumbnail -s "$size" -o "$target" "$@")
    [[ "$line" == *status=0* ]] || { log "vipsthumbnail failed: $line"; FAILED=1; echo "- -"; return; }
    echo "$(field cpu_us "$line") $(field wall_us "$line")"
}
vips_per_image() {  # CASE: vipsthumbnail's CPU and wall per image (slope between 1 file, median of 3
                    # processes, and IMAGES files in one process) and its process start (CPU of 1 file − 1 image)
    local case=$1 size target one=() c w cn wn i
    case $case in
        astronaut) size=144; target="$WORK/vt-out/%s.jpg[Q=80,optimize_coding,strip]" ;;
        hubble)    size=576; target="$WORK/vt-out/%s.webp[Q=80,strip]" ;;
        hubble-e)  size=576; target="$WORK/vt-out/e-%s.webp[Q=80,strip]" ;;
    esac
    local files=(); for ((i = 1; i <= IMAGES; i++)); do files+=("$WORK/vt-in/${case%-e}-$i.jpg"); done
    local extra=(); [ "$case" = hubble-e ] && extra=(--export-profile srgb)
    vips_run "$size" "$target" ${extra[@]+"${extra[@]}"} "${files[0]}" >/dev/null   # warm-up (page cache, libraries)
    for i in 1 2 3; do one+=("$(vips_run "$size" "$target" ${extra[@]+"${extra[@]}"} "${files[0]}")"); done
    read -r cn wn <<<"$(vips_run "$size" "$target" ${extra[@]+"${extra[@]}"} "${files[@]}")"
    c=$(printf '%s\n' "${one[@]}" | awk '{ print $1 }' | sort -n | sed -n 2p)
    w=$(printf '%s\n' "${one[@]}" | awk '{ print $2 }' | sort -n | sed -n 2p)
    awk -v c1="$c" -v cn="$cn" -v w1="$w" -v wn="$wn" -v n="$IMAGES" \
        'BEGIN { if (c1 == "-" || cn == "-") { print "- - -"; exit }
                 per = (cn - c1) / (n - 1); printf "%.0f %.0f %.0f\n", per, (wn - w1) / (n - 1), c1 - per }'
}
mean_of() { awk '{ s += $1; n++ } END { if (n == 0) print "-"; else printf "%.0f", s / n }'; }
range_of() { sort -g | awk 'NR == 1 { lo = $1 } { hi = $1 } END { if (NR == 0) print "-"; else printf "%s–%s", lo, hi }'; }
if has_part a; then
    [ "$IMAGES" -ge 2 ] || die "IMAGES must be at least 2"
    for ((i = 1; i <= IMAGES; i++)); do
        ln -s "$CORPUS$ASTRONAUT" "$WORK/vt-in/astronaut-$i.jpg"
        ln -s "$CORPUS$HUBBLE" "$WORK/vt-in/hubble-$i.jpg"
    done
    # ROUNDS rounds, each: vipsthumbnail (the three references), then one mediabench process (IMAGES images
    # per case and side, engine block then service block), so the machine's drift hits both alike.
    : > "$WORK/a-rounds.txt"   # ROUND CASE KIND cpu_us wall_us [start_us]
    for ((round = 1; round <= ROUNDS; round++)); do
        log "(a) round $round of $ROUNDS: vipsthumbnail, then mediabench variants ($IMAGES images per case and side)"
        for case in astronaut hubble hubble-e; do
            read -r c w st <<<"$(vips_per_image $case)"
            echo "$round $case vips $c $w $st" >> "$WORK/a-rounds.txt"
        done
        MEDIABENCH_VARIANT_IMAGES=$IMAGES MEDIABENCH_VARIANT_ROUNDS=1 MEDIABENCH_VARIANT_SAVE="$WORK/mb" \
            MEDIABENCH_VARIANT_STORAGE=$PUBLIC_STORAGE MEDIABENCH_VARIANTS=engine,service \
            ${ON_SERVER[@]+"${ON_SERVER[@]}"} timeout 600 "$MEDIABENCH" variants >"$WORK/mediabench-$round.txt" 2>&1 \
            || { log "mediabench variants failed: $(tail -c 400 "$WORK/mediabench-$round.txt")"; FAILED=1; }
        grep -v '^RESULT' "$WORK/mediabench-$round.txt" | grep -v '^==\|^libvips' >&2 || true
        for case in astronaut hubble hubble-noicc; do
            for side in engine service; do
                line=$(grep "^RESULT variants case=$case side=$side " "$WORK/mediabench-$round.txt" || true)
                [ -n "$line" ] && echo "$round $case $side $(field cpu_us "$line") $(field wall_us "$line")" >> "$WORK/a-rounds.txt"
            done
        done
    done
    # The in-process hit comparison for (b), once.
    MEDIABENCH_VARIANTS=hits ${ON_SERVER[@]+"${ON_SERVER[@]}"} timeout 600 "$MEDIABENCH" variants >"$WORK/mediabench.txt" 2>&1 \
        || { log "mediabench variants (hits) failed: $(tail -c 400 "$WORK/mediabench.txt")"; FAILED=1; }
    pick() { awk -v c="$1" -v k="$2" -v f="$3" '$2 == c && $3 == k { print $f }' "$WORK/a-rounds.txt"; }
    for case in astronaut hubble hubble-e; do
        mb=${case%-e}
        A[$case,vcpu]=$(pick "$case" vips 4 | mean_of); A[$case,vwall]=$(pick "$case" vips 5 | mean_of)
        A[$case,vstart]=$(pick "$case" vips 6 | mean_of)
        A[$case,vrange]=$(pick "$case" vips 4 | awk '{ printf "%.1f\n", $1 / 1000 }' | range_of)
        for side in engine service; do
            A[$case,${side}cpu]=$(pick "$mb" "$side" 4 | mean_of); A[$case,${side}wall]=$(pick "$mb" "$side" 5 | mean_of)
            A[$case,${side}range]=$(pick "$mb" "$side" 4 | awk '{ printf "%.1f\n", $1 / 1000 }' | range_of)
        done
        # The ratio round by round (each round's own reference), its range.
        A[$case,rrange]=$(awk -v c="$case" -v m="$mb" '$2 == c && $3 == "vips" { v[$1] = $4 } $2 == m && $3 == "service" { s[$1] = $4 }
            END { for (r in s) if (v[r] > 0) printf "%.3f\n", s[r] / v[r] }' "$WORK/a-rounds.txt" | range_of)
    done
    A[noicc]=$(pick hubble-noicc engine 4 | mean_of)
    # libjpeg-turbo alone (Debian's, which libvips uses): djpeg -scale 1/8 of the 4000² JPEG, the decode that
    # both vipsthumbnail and mediactl start with; per process, its own start (≈ 1 ms) included. Optional.
    A[djpeg]="-"
    if command -v djpeg >/dev/null; then
        d1=$(${ON_SERVER[@]+"${ON_SERVER[@]}"} python3 "$CPUTIME" -- sh -c "djpeg -scale 1/8 '$CORPUS$ASTRONAUT' >/dev/null")
        dn=$(${ON_SERVER[@]+"${ON_SERVER[@]}"} python3 "$CPUTIME" -- sh -c "for i in \$(seq 1 11); do djpeg -scale 1/8 '$CORPUS$ASTRONAUT' >/dev/null; done")
        A[djpeg]=$(awk -v a="$(field cpu_us "$d1")" -v b="$(field cpu_us "$dn")" 'BEGIN { printf "%.0f", (b - a) / 10 }')
    fi
    # Same work: the JPEG byte for byte, the WebP the same pixels (vipsthumbnail's WebP also carries
    # the ICC, EXIF and XMP chunks that libvips 8.14.1's webpsave writes whatever `strip` says).
    if cmp -s "$WORK/mb/astronaut-engine.jpg" "$WORK/vt-out/astronaut-1.jpg" && cmp -s "$WORK/mb/astronaut-service.jpg" "$WORK/vt-out/astronaut-1.jpg"; then
        A[astronaut,same]="byte-identical JPEG"
    else
        A[astronaut,same]="JPEG bytes differ"; log "the 144-px JPEGs of mediactl and vipsthumbnail differ"
    fi
    maxdiff=$(cd "$WORK" && vips subtract mb/hubble-service.webp vt-out/hubble-1.webp diff.v 2>/dev/null \
        && vips abs diff.v absdiff.v 2>/dev/null && vips max absdiff.v 2>/dev/null || echo failed)
    if awk -v d="$maxdiff" 'BEGIN { exit !(d != "failed" && d + 0 == 0) }'; then
        A[hubble,same]="same pixels (VP8 data)"
    else
        A[hubble,same]="pixels differ"; log "the 576-px WebPs of mediactl and vipsthumbnail decode differently"
    fi
fi

# --- origin ----------------------------------------------------------------------------------------
O="http://127.0.0.1:$ORIGIN_PORT"
M="http://127.0.0.1:$MEDIACTL_PORT"
MA="http://127.0.0.1:$MEDIACTL_ADMIN_PORT"   # the admin listener
T="http://127.0.0.1:$THUMBOR_PORT"
if has_part b || has_part c || has_part d; then
    render "$HERE/nginx-origin.conf.in" "$WORK/origin.conf"
    render "$HERE/mediactl-policy.json.in" "$WORK/bench.json"
    mkdir -p "$WORK/policies"; cp "$WORK/bench.json" "$WORK/policies/bench.json"
    nginx -t -q -p "$WORK" -c "$WORK/origin.conf" 2>/dev/null || die "origin nginx config invalid (nginx -t -p $WORK -c $WORK/origin.conf)"
    ${ON_CLIENT[@]+"${ON_CLIENT[@]}"} nginx -p "$WORK" -c "$WORK/origin.conf" -g 'daemon off;' 2>>"$WORK/origin-error.log" &
    STARTED+=($!)
    wait_for_status "$O$ASTRONAUT" 200 || die "origin nginx did not answer (see $WORK/origin-error.log)"
    log "origin nginx on 127.0.0.1:$ORIGIN_PORT"
fi

MEDIACTL_PID=""
start_mediactl() {  # NAME [--event-loops N] : a fresh state directory; pinned to CPU 0 when PIN_SERVER=1
    local name=$1; shift
    rm -rf "$WORK/state-$name"; mkdir -p "$WORK/state-$name"
    if [ "${PIN_SERVER:-0}" = 1 ]; then
        ${ON_SERVER[@]+"${ON_SERVER[@]}"} "$MEDIACTL" serve --listen "127.0.0.1:$MEDIACTL_PORT" --admin-listen "127.0.0.1:$MEDIACTL_ADMIN_PORT" --policies "$WORK/policies" \
            --state-dir "$WORK/state-$name" "$@" >"$WORK/mediactl-$name.log" 2>&1 &
    else
        "$MEDIACTL" serve --listen "127.0.0.1:$MEDIACTL_PORT" --admin-listen "127.0.0.1:$MEDIACTL_ADMIN_PORT" --policies "$WORK/policies" \
            --state-dir "$WORK/state-$name" "$@" >"$WORK/mediactl-$name.log" 2>&1 &
    fi
    MEDIACTL_PID=$!
    STARTED+=("$MEDIACTL_PID")
    wait_for_status "$MA/_mediactl/health" 200 || die "mediactl serve did not answer: $(tail -c 300 "$WORK/mediactl-$name.log" | tr '\n' ' ')"
    log "mediactl serve ($name) on 127.0.0.1:$MEDIACTL_PORT, PID $MEDIACTL_PID"
}
stop_mediactl() {
    [ -n "$MEDIACTL_PID" ] || return 0
    kill -0 "$MEDIACTL_PID" 2>/dev/null || { log "mediactl exited during the run"; FAILED=1; }
    stop_pid "$MEDIACTL_PID" TERM
    MEDIACTL_PID=""
}

# --- (b) variant hits against plain hits -----------------------------------------------------------
declare -A B   # B[row,rep] = "rps p50 p99"
if has_part b; then
    PIN_SERVER=$PIN
    if [ "$PIN" = 1 ]; then start_mediactl hits --event-loops 1; else start_mediactl hits; fi
    check "(b) variant first request" "$(header_of "$M$ASTRONAUT?w=144" Cache-Status)" "mediactl;*stored*"
    check "(b) variant second request" "$(header_of "$M$ASTRONAUT?w=144" Cache-Status)" "mediactl; hit*"
    curl -s --max-time 30 -o "$WORK/plain/astronaut-144.jpg" "$M$ASTRONAUT?w=144"
    VARIANT_BYTES=$(stat -c %s "$WORK/plain/astronaut-144.jpg")
    chmod 644 "$WORK/plain/astronaut-144.jpg"
    status_of "$M/plain/astronaut-144.jpg" >/dev/null
    check "(b) plain copy second request" "$(header_of "$M/plain/astronaut-144.jpg" Cache-Status)" "mediactl; hit*"
    check "(b) plain copy is the variant's bytes" "$(curl -s --max-time 30 "$M/plain/astronaut-144.jpg" | cmp - "$WORK/plain/astronaut-144.jpg" && echo same)" "same"
    status_of "$M$CATALOG" >/dev/null
    check "(b) catalog second request" "$(header_of "$M$CATALOG" Cache-Status)" "mediactl; hit*"
    CATALOG_BYTES=$(stat -c %s "$CORPUS$CATALOG")
    threads=$([ "$PIN" = 1 ] && echo $(($(nproc) - 1)) || nproc)
    for url in "$M$ASTRONAUT?w=144" "$M/plain/astronaut-144.jpg" "$M$CATALOG"; do   # warm-up, discarded
        ${ON_CLIENT[@]+"${ON_CLIENT[@]}"} timeout 30 wrk -t"$threads" -c"$HIT_CONNECTIONS" -d2s "$url" >/dev/null 2>&1 || true
    done
    B_LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg)
    for ((rep = 1; rep <= HIT_REPS; rep++)); do
        rows="variant plain catalog"; [ $((rep % 2)) = 0 ] && rows="catalog plain variant"
        for row in $rows; do
            case $row in
                variant) url="$M$ASTRONAUT?w=144" ;;
                plain)   url="$M/plain/astronaut-144.jpg" ;;
                catalog) url="$M$CATALOG" ;;
            esac
            ticks0=$(cpu_ticks "$MEDIACTL_PID")
            res=$(${ON_CLIENT[@]+"${ON_CLIENT[@]}"} timeout 120 wrk -t"$threads" -c"$HIT_CONNECTIONS" -d"$HIT_DURATION" --timeout 5s \
                -s "$HIT_LUA" "$url" -- plain 2>&1 | awk '/^RESULT /') || true
            ticks1=$(cpu_ticks "$MEDIACTL_PID")
            if [ -z "$res" ]; then log "(b) wrk failed for $row"; FAILED=1; B[$row,$rep]="- - - -"; continue; fi
            [ "$(field errors_status "$res")" = 0 ] && [ "$(field errors_socket "$res")" = 0 ] || { log "(b) $row: errors in $res"; FAILED=1; }
            cpu_us=$(awk -v t=$((ticks1 - ticks0)) -v hz="$(getconf CLK_TCK)" -v n="$(field requests "$res")" 'BEGIN { printf "%.2f", t * 1e6 / hz / n }')
            B[$row,$rep]="$(field rps "$res") $(field p50_us "$res") $(field p99_us "$res") $cpu_us"
            log "(b) rep $rep $row: ${B[$row,$rep]} (req/s p50_us p99_us mediactl-cpu_us/request)"
        done
    done
    B_LOAD_AFTER=$(cut -d' ' -f1-3 /proc/loadavg)
    B_HWM=$(rss_kb "$MEDIACTL_PID" VmHWM)
    check "(b) variant still served as a hit" "$(header_of "$M$ASTRONAUT?w=144" Cache-Status)" "mediactl; hit*"
    stop_mediactl
    PIN_SERVER=0
fi

# --- (c) variant miss throughput against thumbor ---------------------------------------------------
declare -A C   # C[server,case] = "rps p50 p99 requests cpu_ms_per_request derived"
if has_part c; then
    if [ ! -x "$THUMBOR_VENV/bin/thumbor" ]; then
        log "(c) installing thumbor into $THUMBOR_VENV (python3 -m venv; pip install thumbor==7.8.0)"
        python3 -m venv "$THUMBOR_VENV" >"$WORK/venv.log" 2>&1 \
            && timeout 600 "$THUMBOR_VENV/bin/pip" install -q 'thumbor==7.8.0' >>"$WORK/venv.log" 2>&1 \
            || die "could not install thumbor (see $WORK/venv.log)"
    fi
    THUMBOR_VERSION=$("$THUMBOR_VENV/bin/thumbor" --version 2>&1 | head -1)
    render "$HERE/thumbor.conf.in" "$WORK/thumbor.conf"
    # One single-process thumbor per CPU on THUMBOR_PORT+1…, nginx round-robin in front on THUMBOR_PORT
    # (thumbor's --processes shares one socket: wrk's kept-alive connections all landed on one process).
    THUMBOR_PIDS=(); upstreams=""
    for ((i = 1; i <= THUMBOR_PROCESSES; i++)); do
        port=$((THUMBOR_PORT + i))
        port_in_use "$port" && die "127.0.0.1:$port is already in use (set THUMBOR_PORT)"
        "$THUMBOR_VENV/bin/thumbor" -c "$WORK/thumbor.conf" -i 127.0.0.1 -p "$port" -l error >"$WORK/thumbor-$i.log" 2>&1 &
        THUMBOR_PIDS+=($!); STARTED+=($!)
        upstreams="$upstreams        server 127.0.0.1:$port;\n"
    done
    render "$HERE/nginx-thumbor.conf.in" "$WORK/thumbor-proxy.conf.tmp"
    awk -v u="$upstreams" '{ if ($0 == "@THUMBOR_UPSTREAMS@") printf "%s", u; else print }' "$WORK/thumbor-proxy.conf.tmp" \
        | sed 's/\\n/\n/g' > "$WORK/thumbor-proxy.conf"
    nginx -t -q -p "$WORK" -c "$WORK/thumbor-proxy.conf" 2>"$WORK/thumbor-proxy-test.log" || die "thumbor proxy config invalid ($WORK/thumbor-proxy.conf: $(tr "\n" " " <"$WORK/thumbor-proxy-test.log"))"
    nginx -p "$WORK" -c "$WORK/thumbor-proxy.conf" -g 'daemon off;' 2>>"$WORK/thumbor-proxy-error.log" &
    THUMBOR_PROXY_PID=$!; STARTED+=($!)
    for ((i = 1; i <= THUMBOR_PROCESSES; i++)); do
        wait_for_status "http://127.0.0.1:$((THUMBOR_PORT + i))/unsafe/144x0$ASTRONAUT" 200 || die "thumbor $i did not answer (see $WORK/thumbor-$i.log)"
    done
    wait_for_status "$T/unsafe/144x0$ASTRONAUT" 200 || die "the nginx in front of thumbor did not answer (see $WORK/thumbor-proxy-error.log)"
    THUMBOR_PROXY_WORKERS=$(pgrep -P "$THUMBOR_PROXY_PID" | tr '\n' ' ')
    log "$THUMBOR_VERSION: $THUMBOR_PROCESSES processes (PIDs ${THUMBOR_PIDS[*]}) behind nginx on 127.0.0.1:$THUMBOR_PORT (PID $THUMBOR_PROXY_PID, workers $THUMBOR_PROXY_WORKERS)"
    start_mediactl misses
    check "(c) astronaut source" "$(status_of "$M$ASTRONAUT")" "200"
    check "(c) hubble source" "$(status_of "$M$HUBBLE")" "200"
    check "(c) mediactl warm-up variant" "$(header_of "$M$ASTRONAUT?w=144&fmt=jpeg" Cache-Status)" "mediactl;*stored*"
    check "(c) mediactl warm-up WebP variant" "$(status_of "$M$HUBBLE?w=576&h=576&fit=cover&fmt=webp")" "200"
    check "(c) thumbor astronaut" "$(curl -s -o "$WORK/thumbor-astronaut.jpg" -w '%{http_code}' --max-time 30 "$T/unsafe/144x0$ASTRONAUT")" "200"
    check "(c) thumbor hubble WebP" "$(curl -s -o "$WORK/thumbor-hubble.webp" -w '%{http_code} %{content_type}' --max-time 30 "$T/unsafe/576x0/filters:format(webp)$HUBBLE")" "200 image/webp"
    # Warm-up load (discarded): both cases on both servers; mediactl's keys from 1500 on, the measured runs' from 0.
    for case in astronaut hubble; do
        timeout 30 wrk -t1 -c"$MISS_CONNECTIONS" -d2s -s "$MISS_LUA" "$M" -- mediactl "$case" 1500 >/dev/null 2>&1 || true
        timeout 30 wrk -t1 -c"$MISS_CONNECTIONS" -d2s -s "$MISS_LUA" "$T" -- thumbor "$case" 0 >/dev/null 2>&1 || true
    done
    C_LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg)
    TICKS=$(getconf CLK_TCK)
    for case in astronaut hubble; do
        for server in mediactl thumbor thumbor-fixed; do
            if [ "$server" = mediactl ]; then
                base=$M; pids=("$MEDIACTL_PID"); derived0=$(metric 'mediactl_variants_derived_total{tier="public"}')
            else
                base=$T; pids=("${THUMBOR_PIDS[@]}" "$THUMBOR_PROXY_PID" $THUMBOR_PROXY_WORKERS)
            fi
            ticks0=$(cpu_ticks "${pids[@]}")
            res=$(timeout 120 wrk -t1 -c"$MISS_CONNECTIONS" -d"$MISS_DURATION" --timeout 10s -s "$MISS_LUA" "$base" \
                -- "$server" "$case" 0 2>&1 | awk '/^RESULT /') || true
            ticks1=$(cpu_ticks "${pids[@]}")
            if [ "$server" != mediactl ]; then
                per=""; for pid in "${THUMBOR_PIDS[@]}"; do per="$per $(cpu_ticks "$pid")"; done
                log "(c) $server $case: thumbor processes' CPU ticks so far:$per (balanced by the nginx in front)"
            fi
            if [ -z "$res" ]; then log "(c) wrk failed for $server $case"; FAILED=1; C[$server,$case]="- - - - - -"; continue; fi
            n=$(field requests "$res")
            [ "$(field errors_status "$res")" = 0 ] && [ "$(field errors_socket "$res")" = 0 ] || { log "(c) $server $case: errors in $res"; FAILED=1; }
            cpu_per=$(awk -v t=$((ticks1 - ticks0)) -v hz="$TICKS" -v n="$n" 'BEGIN { if (n == 0) print "-"; else printf "%.1f", t * 1000 / hz / n }')
            derived="-"
            if [ "$server" = mediactl ]; then
                sleep 1   # requests still in flight when wrk stopped finish their derivations
                derived=$(awk -v a="$(metric 'mediactl_variants_derived_total{tier="public"}')" -v b="$derived0" 'BEGIN { printf "%d", a - b }')
                # Every completed request derived (in-flight ones at the end derive too): requests ≤ derived ≤ requests + connections.
                ok=$(awk -v d="$derived" -v n="$n" -v c="$MISS_CONNECTIONS" 'BEGIN { print (d >= n && d <= n + c) ? "yes" : "no" }')
                check "(c) mediactl $case: every request a new derivation ($n requests, $derived derived)" "$ok" "yes"
                [ "$(field keys "$res")" -le 1500 ] || { log "(c) more than 1,500 keys used: some requests were hits"; FAILED=1; }
            fi
            C[$server,$case]="$(field rps "$res") $(field p50_us "$res") $(field p99_us "$res") $n $cpu_per $derived"
            log "(c) $server $case: ${C[$server,$case]} (req/s p50_us p99_us requests cpu_ms/req derived)"
        done
    done
    C_LOAD_AFTER=$(cut -d' ' -f1-3 /proc/loadavg)
    # thumbor's engine without thumbor (Pillow, with its own bundled libjpeg-turbo and libwebp), per image, in its
    # venv: decode with draft + LANCZOS + save; the decode alone (4000² at 1/8); the WebP encode alone of the
    # 576×502 pixels. Beside it, Debian's libraries, which libvips uses: djpeg -scale 1/8 and cwebp -q 80 -m 4
    # of the same pixels (per process, its start of ≈ 1 ms included; optional: libjpeg-turbo-progs, webp).
    vips thumbnail "$CORPUS$HUBBLE" "$WORK/hubble-576.ppm" 576 2>/dev/null || true
    PILLOW=$("$THUMBOR_VENV/bin/python3" - "$CORPUS" "$WORK/hubble-576.ppm" <<'PY' 2>/dev/null || echo "- - - - - -"
import io, sys, time
from PIL import Image, features
root, ppm = sys.argv[1], sys.argv[2]
def best(f, n):
    out = None
    for _ in range(3):
        t = time.process_time()
        for _ in range(n): f()
        d = (time.process_time() - t) / n
        out = d if out is None else min(out, d)
    return out * 1e6
def full(path, size, fmt):
    data = open(root + path, "rb").read()
    def one():
        im = Image.open(io.BytesIO(data)); im.draft("RGB", size); im = im.convert("RGB")
        w = size[0]; h = round(im.height * w / im.width)
        im = im.resize((w, h), Image.LANCZOS); b = io.BytesIO(); im.save(b, fmt, quality=80)
    return best(one, 10)
astronaut = open(root + "/large/astronaut-4000.jpg", "rb").read()
def decode():
    im = Image.open(io.BytesIO(astronaut)); im.draft("RGB", (144, 144)); im.load()
pixels = Image.open(ppm); pixels.load()
def encode():
    b = io.BytesIO(); pixels.save(b, "WEBP", quality=80, method=4)
print("%.0f %.0f %.0f %.0f %s %s" % (full("/large/astronaut-4000.jpg", (144, 144), "JPEG"), full("/large/hubble-1000.jpg", (576, 502), "WEBP"),
                                     best(decode, 10), best(encode, 10), features.version("jpg") or "?", features.version("webp") or "?"))
PY
)
    read -r C[pillow,astronaut] C[pillow,hubble] C[pillow,decode] C[pillow,encode] C[pillow,jpegver] C[pillow,webpver] <<<"$PILLOW"
    C[djpeg]=${A[djpeg]:--}
    if [ "${C[djpeg]}" = - ] && command -v djpeg >/dev/null; then
        d1=$(python3 "$CPUTIME" -- sh -c "djpeg -scale 1/8 '$CORPUS$ASTRONAUT' >/dev/null")
        dn=$(python3 "$CPUTIME" -- sh -c "for i in \$(seq 1 11); do djpeg -scale 1/8 '$CORPUS$ASTRONAUT' >/dev/null; done")
        C[djpeg]=$(awk -v a="$(field cpu_us "$d1")" -v b="$(field cpu_us "$dn")" 'BEGIN { printf "%.0f", (b - a) / 10 }')
    fi
    C[cwebp]="-"
    if command -v cwebp >/dev/null && [ -s "$WORK/hubble-576.ppm" ]; then
        e1=$(python3 "$CPUTIME" -- sh -c "cwebp -quiet -q 80 -m 4 '$WORK/hubble-576.ppm' -o '$WORK/c.webp'")
        en=$(python3 "$CPUTIME" -- sh -c "for i in \$(seq 1 11); do cwebp -quiet -q 80 -m 4 '$WORK/hubble-576.ppm' -o '$WORK/c.webp'; done")
        C[cwebp]=$(awk -v a="$(field cpu_us "$e1")" -v b="$(field cpu_us "$en")" 'BEGIN { printf "%.0f", (b - a) / 10 }')
        C[cwebpver]=$(cwebp -version 2>/dev/null | head -1)
    fi
    stop_mediactl
    stop_pid "$THUMBOR_PROXY_PID" TERM
    for pid in "${THUMBOR_PIDS[@]}"; do stop_pid "$pid" TERM; done
fi

# --- (d) peak RSS with concurrent downsamples ------------------------------------------------------
# Each phase's peak: VmHWM reset to the current RSS (`echo 5 > /proc/PID/clear_refs`) before it, read after it.
declare -A D
if has_part d; then
    # The engine alone first, in a process of its own (unpinned): libvips' start, one derivation, two at once,
    # D_CONCURRENCY two at a time.
    MEDIABENCH_VARIANTS=memory MEDIABENCH_VARIANT_CONCURRENT=$D_CONCURRENCY timeout 300 "$MEDIABENCH" variants \
        >"$WORK/mediabench-memory.txt" 2>&1 || { log "mediabench variants (memory) failed: $(tail -c 300 "$WORK/mediabench-memory.txt")"; FAILED=1; }
    grep '^engine memory' "$WORK/mediabench-memory.txt" >&2 || true
    start_mediactl memory
    check "(d) source stored" "$(status_of "$M$ASTRONAUT")" "200"
    D[start_hwm]=$(rss_kb "$MEDIACTL_PID" VmHWM)
    BURST=0
    burst() {  # NAME COUNT WIDTH FIRST-Q: COUNT concurrent distinct variant misses; sets D[NAME_*]
        local name=$1 count=$2 width=$3 first=$4 q pids=() i
        BURST=$((BURST + 1))
        sleep 1.2   # serve's once-a-second malloc_trim returns what the previous phase freed
        D[${name}_before]=$(rss_kb "$MEDIACTL_PID" VmRSS)
        echo 5 > "/proc/$MEDIACTL_PID/clear_refs" 2>/dev/null || D[${name}_reset]=no
        for ((i = 0; i < count; i++)); do
            q=$((first + i))
            curl -s -o /dev/null -w '%{http_code}\n' --max-time 60 "$M$ASTRONAUT?w=$width&q=$q" >"$WORK/burst-$BURST-$i.status" &
            pids+=($!)
        done
        for i in "${pids[@]}"; do wait "$i" || true; done
        D[${name}_peak]=$(rss_kb "$MEDIACTL_PID" VmHWM)
        D[${name}_status]=$(cat "$WORK"/burst-"$BURST"-*.status | sort | uniq -c | awk '{ printf "%s×%s ", $1, $2 }')
        [[ "${D[${name}_status]}" == "$count×200 " ]] || { log "(d) $name: not every request answered 200: ${D[${name}_status]}"; FAILED=1; }
        log "(d) $name: RSS before $((D[${name}_before] / 1024)) MiB, peak $((D[${name}_peak] / 1024)) MiB, answers ${D[${name}_status]}"
    }
    burst first 1 144 100                          # the first derivation of the process (libvips' first use)
    burst small "$D_CONCURRENCY" 144 1
    burst one 1 1152 100
    burst large "$D_CONCURRENCY" 1152 1
    # Fill the tier's memory store to its budget: distinct 1.48 MB originals (bounded count).
    fill=$((PUBLIC_MEMORY_BYTES / 1475990 + 4))
    for ((i = 1; i <= fill; i++)); do status_of "$M/filler/f-$i.jpg" >/dev/null; done
    D[stored]=$(metric 'mediactl_stored_bytes{tier="public",store="memory"}')
    burst full "$D_CONCURRENCY" 1152 $((D_CONCURRENCY + 1))
    D[end_rss]=$(rss_kb "$MEDIACTL_PID" VmRSS)
    D[stored_end]=$(metric 'mediactl_stored_bytes{tier="public",store="memory"}')
    D[derived]=$(metric 'mediactl_variants_derived_total{tier="public"}')
    D[threads]=$(awk '$1 == "Threads:" { print $2 }' "/proc/$MEDIACTL_PID/status")
    stop_mediactl
fi
LOAD_END=$(cut -d' ' -f1-3 /proc/loadavg)

# --- report ----------------------------------------------------------------------------------------
out "### Derived images: benchmarks/variants/run.sh, $(date -u '+%Y-%m-%d %H:%M UTC')"
out ""
out "$(nproc) CPUs ($CPU_MODEL), libvips $(vips --version 2>/dev/null | sed 's/vips-//'), load average at the start $LOAD_START, at the end $LOAD_END; PIN=$PIN."
out ""
if has_part a; then
    out "(a) Variant misses, one at a time, CPU per image (user + sys), $ROUNDS rounds, each: vipsthumbnail (slope between 1 file — median of 3 processes — and $IMAGES files in one process, VIPS_CONCURRENCY=1), then one \`mediabench variants\` process ($IMAGES images per case and side, engine block then service block)$([ "$PIN" = 1 ] && echo ", all on CPU $SERVER_CPU"). Figures: mean of the rounds (range of the rounds)."
    out ""
    out "| case | reference | reference CPU ms/image | wall ms | process start, ms CPU | engine CPU ms/image | service CPU ms/image | service wall ms | engine / reference | **service / reference** (goal ≤ 1.15; rounds) | service / engine | same output |"
    out "|---|---|---|---|---|---|---|---|---|---|---|---|"
    for case in astronaut hubble hubble-e; do
        case $case in
            astronaut) label="4000×4000 JPEG → 144-px JPEG"; ref="vipsthumbnail -s 144, .jpg[Q=80,optimize_coding,strip]"; same=${A[astronaut,same]:-} ;;
            hubble)    label="1000×872 JPEG → 576-px WebP"; ref="vipsthumbnail -s 576, .webp[Q=80,strip]"; same=${A[hubble,same]:-} ;;
            hubble-e)  label="same"; ref="vipsthumbnail -s 576 --export-profile srgb (converts the embedded profile, as mediactl does)"; same="" ;;
        esac
        r=$(ratio "${A[$case,servicecpu]}" "${A[$case,vcpu]}")
        out "| $label | $ref | $(ms "${A[$case,vcpu]}") (${A[$case,vrange]}) | $(ms "${A[$case,vwall]}") | $(ms "${A[$case,vstart]}") | $(ms "${A[$case,enginecpu]}") (${A[$case,enginerange]}) | $(ms "${A[$case,servicecpu]}") (${A[$case,servicerange]}) | $(ms "${A[$case,servicewall]}") | $(ratio "${A[$case,enginecpu]}" "${A[$case,vcpu]}") | **$r** $(verdict "$r" "<=" 1.15) (${A[$case,rrange]}) | $(ratio "${A[$case,servicecpu]}" "${A[$case,enginecpu]}") | $same |"
    done
    out ""
    out "Engine, the hubble source without its embedded sRGB ICC profile (APP2 removed, pixels otherwise the same): $(ms "${A[noicc]}") ms CPU/image, so ColourStep's profile conversion costs $(awk -v a="${A[hubble,enginecpu]}" -v b="${A[noicc]}" 'BEGIN { if (a == "-" || b == "-") print "-"; else printf "%.2f", (a - b) / 1000 }') ms of the $(ms "${A[hubble,enginecpu]}"). libjpeg-turbo alone, \`djpeg -scale 1/8\` of the 4000² JPEG (per process, start included): $(ms "${A[djpeg]}") ms CPU."
    out ""
fi
if has_part b; then
    out "(b) Hits through \`mediactl serve\` ($PUBLIC_STORAGE tier), wrk -c$HIT_CONNECTIONS -d$HIT_DURATION, $([ "$PIN" = 1 ] && echo "mediactl on CPU 0 (--event-loops 1), wrk and origin on CPUs $CLIENT_CPUS" || echo "unpinned"); load $B_LOAD_BEFORE → $B_LOAD_AFTER; order alternated per repetition."
    out ""
    out "| row | bytes | req/s per run | mean req/s | p50 ms | p99 ms | mediactl CPU µs/request per run | mean |"
    out "|---|---|---|---|---|---|---|---|"
    declare -A BM BC
    for row in variant plain catalog; do
        runs=""; sum=0; n=0; p50=""; p99=""; cpus=""; csum=0
        for ((rep = 1; rep <= HIT_REPS; rep++)); do
            read -r r5 r50 r99 rc <<<"${B[$row,$rep]}"
            runs="$runs${runs:+ / }$r5"; p50="$p50${p50:+ / }$(ms "$r50")"; p99="$p99${p99:+ / }$(ms "$r99")"; cpus="$cpus${cpus:+ / }$rc"
            [ "$r5" != - ] && { sum=$(awk -v a="$sum" -v b="$r5" 'BEGIN { print a + b }'); csum=$(awk -v a="$csum" -v b="$rc" 'BEGIN { print a + b }'); n=$((n + 1)); }
        done
        BM[$row]=$(awk -v s="$sum" -v n="$n" 'BEGIN { if (n == 0) print "-"; else printf "%.0f", s / n }')
        BC[$row]=$(awk -v s="$csum" -v n="$n" 'BEGIN { if (n == 0) print "-"; else printf "%.2f", s / n }')
        case $row in
            variant) label="variant hit \`$ASTRONAUT?w=144\`"; bytes=$VARIANT_BYTES ;;
            plain)   label="plain hit, the same bytes as an original (\`/plain/astronaut-144.jpg\`)"; bytes=$VARIANT_BYTES ;;
            catalog) label="plain hit, catalog JPEG (\`$CATALOG\`)"; bytes=$CATALOG_BYTES ;;
        esac
        out "| $label | $bytes | $runs | ${BM[$row]} | $p50 | $p99 | $cpus | ${BC[$row]} |"
    done
    rb=$(ratio "${BM[variant]}" "${BM[plain]}")
    hv=$(grep '^RESULT variants case=hits side=variant ' "$WORK/mediabench.txt" 2>/dev/null | sed -E 's/.* ns=([0-9.]+).*/\1/' || true)
    hp=$(grep '^RESULT variants case=hits side=plain ' "$WORK/mediabench.txt" 2>/dev/null | sed -E 's/.* ns=([0-9.]+).*/\1/' || true)
    out ""
    cb=$(ratio "${BC[plain]}" "${BC[variant]}")
    out "Variant / plain (same bytes), req/s: **$rb** (goal ≥ 0.95: $(verdict "$rb" ">=" 0.95)); by mediactl's CPU per request (plain / variant, the req/s ratio when mediactl has CPU 0 to itself): **$cb** ($(verdict "$cb" ">=" 0.95)); variant / catalog JPEG, req/s: $(ratio "${BM[variant]}" "${BM[catalog]}"). mediactl VmHWM after (b): $((B_HWM / 1024)) MiB.$([ -n "$hv" ] && [ -n "$hp" ] && echo " In-process (\`mediabench variants\`, part hits, \`handleIfCached\` on one thread): variant $hv ns/hit, the same bytes as an original $hp ns/hit, variant / plain hits per second $(ratio "$hp" "$hv").")"
    out ""
fi
if has_part c; then
    out "(c) Variant misses over HTTP, wrk -t1 -c$MISS_CONNECTIONS -d$MISS_DURATION, unpinned (mediactl: one event loop and one transform worker per CPU; $THUMBOR_VERSION: $THUMBOR_PROCESSES single-process instances behind nginx round-robin, file loader, no storage, no result storage); every request a new derivation (q=1…100 cycled on both, mediactl also cycling heights that keep the size); load $C_LOAD_BEFORE → $C_LOAD_AFTER. CPU ms/request: the server's own processes (utime + stime from /proc; thumbor: its processes and the nginx in front) over the run, divided by the completed requests."
    out ""
    out "| case | server | req/s | p50 ms | p99 ms | requests | CPU ms/request | variants derived |"
    out "|---|---|---|---|---|---|---|---|"
    for case in astronaut hubble; do
        label=$([ $case = astronaut ] && echo "4000² → 144 JPEG" || echo "1000×872 → 576 WebP")
        for server in mediactl thumbor thumbor-fixed; do
            read -r r5 r50 r99 rn rc rd <<<"${C[$server,$case]}"
            name=$server
            [ "$server" = thumbor ] && name="thumbor, filters:quality(q) cycled"
            [ "$server" = thumbor-fixed ] && name="thumbor, literal URL (quality 80)"
            [ "$server" = mediactl ] && name="mediactl, q and h cycled"
            out "| $label | $name | $r5 | $(ms "$r50") | $(ms "$r99") | $rn | $rc | $rd |"
        done
    done
    out ""
    out "| case | req/s mediactl / thumbor, same q sequence (goal ≥ 1.2) | req/s mediactl / thumbor literal URL | **CPU per request thumbor / mediactl** (the req/s ratio with both CPUs to each server; goal ≥ 1.2) | Pillow alone (decode with draft, LANCZOS, save), CPU ms/image |"
    out "|---|---|---|---|---|"
    for case in astronaut hubble; do
        read -r mr _ _ _ mc _ <<<"${C[mediactl,$case]}"; read -r tr _ _ _ tc _ <<<"${C[thumbor,$case]}"; read -r fr _ _ _ _ _ <<<"${C[thumbor-fixed,$case]}"
        rc=$(ratio "$mr" "$tr"); cc=$(ratio "$tc" "$mc")
        out "| $([ $case = astronaut ] && echo "4000² → 144 JPEG" || echo "1000×872 → 576 WebP") | $rc $(verdict "$rc" ">=" 1.2) | $(ratio "$mr" "$fr") | **$cc** $(verdict "$cc" ">=" 1.2) | $(ms "${C[pillow,$case]:-}") |"
    done
    out ""
    out "The measured req/s is the share of the two CPUs each server got beside the machine's other load (CPU ms/request × req/s = CPUs used); the CPU per request does not depend on that share."
    out ""
    out "Codec floors, CPU ms per image: the 4000² JPEG decoded at 1/8 — Pillow (bundled libjpeg-turbo, jpeg API ${C[pillow,jpegver]:-?}) $(ms "${C[pillow,decode]:-}"), Debian's libjpeg-turbo (which libvips uses) \`djpeg -scale 1/8\` $(ms "${C[djpeg]}"); the 576×502 pixels encoded as WebP q80 method 4 — Pillow (bundled libwebp ${C[pillow,webpver]:-?}) $(ms "${C[pillow,encode]:-}"), Debian's \`cwebp\` (libwebp ${C[cwebpver]:-?}) $(ms "${C[cwebp]}") (djpeg and cwebp per process, start included)."
    out ""
fi
if has_part d; then
    goal_kb=$(((PUBLIC_MEMORY_BYTES + 40000000) / 1024))
    out "(d) Peak RSS of a fresh \`mediactl serve\` (unpinned: $(nproc) transform workers), public tier memoryBytes $((PUBLIC_MEMORY_BYTES / 1048576)) MiB; goal: VmHWM ≤ budget + 40 MB = $(awk -v k="$goal_kb" 'BEGIN { printf "%.1f", k / 1024 }') MiB. Each phase's peak is VmHWM after it, reset to the RSS before it (\`/proc/PID/clear_refs\`); VmHWM after start with the source stored: $(awk -v k="${D[start_hwm]}" 'BEGIN { printf "%.1f", k / 1024 }') MiB."
    out ""
    out "| phase | answers | RSS before, MiB | peak VmHWM, MiB | peak − RSS before | margin to the goal, MiB | status |"
    out "|---|---|---|---|---|---|---|"
    row() {  # LABEL NAME
        local b=${D[$2_before]} k=${D[$2_peak]}
        out "| $1 | ${D[$2_status]} | $(awk -v k="$b" 'BEGIN { printf "%.1f", k / 1024 }') | $(awk -v k="$k" 'BEGIN { printf "%.1f", k / 1024 }') | $(awk -v a="$k" -v b="$b" 'BEGIN { printf "%+.1f", (a - b) / 1024 }') | $(awk -v k="$k" -v g="$goal_kb" 'BEGIN { printf "%.1f", (g - k) / 1024 }') | $([ "$k" -le "$goal_kb" ] && echo met || echo MISSED) |"
    }
    row "the process's first derivation (\`?w=144\`, libvips' first use)" first
    row "**$D_CONCURRENCY concurrent \`?w=144&q=1…$D_CONCURRENCY\` (144×144)**" small
    row "one \`?w=1152\` (1152×1152, decoded at 2000×2000)" one
    row "$D_CONCURRENCY concurrent \`?w=1152&q=1…$D_CONCURRENCY\`" large
    row "$D_CONCURRENCY concurrent \`?w=1152\` after filling the store with $fill distinct 1.48 MB originals (stored $(awk -v b="${D[stored]:-0}" 'BEGIN { printf "%.1f", b / 1048576 }') MiB)" full
    out ""
    out "At the end: VmRSS $((D[end_rss] / 1024)) MiB, stored $(awk -v b="${D[stored_end]:-0}" 'BEGIN { printf "%.1f", b / 1048576 }') MiB, ${D[derived]} variants derived, ${D[threads]} threads."
    out ""
    out "The engine alone (\`MEDIABENCH_VARIANTS=memory mediabench variants\`, its own process, \`DispatchQueue.concurrentPerform\`: at most $(nproc) at once):"
    out ""
    grep '^engine memory' "$WORK/mediabench-memory.txt" 2>/dev/null | sed 's/^/- /' | tee -a "$SUMMARY" || true
    out ""
fi
[ -n "$RESULTS" ] && cp "$SUMMARY" "$RESULTS"
[ "$FAILED" = 0 ] || { log "some checks failed (see above)"; exit 1; }
