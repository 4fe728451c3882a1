#!/usr/bin/env bash
# benchmarks/hits/callgrind.sh — instructions per memory hit, in-process, for a public, a bearer and a signed tier
# (issue 41's goal: bearer and signed at most 1.3× public). Runs `mediabench service` with MEDIABENCH_SERVICE=signed-hits
# under callgrind for one kind at a time, at two iteration counts; the slope is one hit through handleIfCached, the
# set-up, the priming miss and the first hit excluded. Note: valgrind does not offer the CPU's SHA extensions, so a
# partition's HMAC-SHA256 (bearer hits whose token is not remembered) counts more instructions here than natively.
# Takes ≈ 2 minutes. Usage: benchmarks/hits/callgrind.sh (BUILD=0: use the built mediabench).
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
MB="$ROOT/.build/release/mediabench"
command -v valgrind >/dev/null || { echo "valgrind is not installed" >&2; exit 2; }
if [ "${BUILD:-1}" = 1 ]; then (cd "$ROOT" && swift build -c release --product mediabench >/dev/null); fi
WORK=$(mktemp -d /tmp/hits-callgrind.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
ROUNDS=7 LOW=1000 HIGH=3000
refs() {  # KIND ITERATIONS -> instructions (Ir) of the whole run
    MEDIABENCH_SERVICE=signed-hits MEDIABENCH_HIT_KINDS=$1 MEDIABENCH_HIT_ITERATIONS=$2 \
        timeout 900 valgrind --tool=callgrind --callgrind-out-file="$WORK/cg.out" "$MB" service 2>&1 >/dev/null \
        | awk '/I +refs:/ { gsub(",", "", $NF); print $NF }'
}
declare -A PER
for kind in public bearer signed; do
    low=$(refs "$kind" $LOW)
    high=$(refs "$kind" $HIGH)
    PER[$kind]=$(awk -v a="$low" -v b="$high" -v n=$(( ROUNDS * (HIGH - LOW) )) 'BEGIN { printf "%.0f", (b - a) / n }')
    echo "$kind hit: ${PER[$kind]} instructions" >&2
done
for kind in bearer signed; do
    awk -v k="$kind" -v a="${PER[$kind]}" -v p="${PER[public]}" 'BEGIN { printf "%s / public: %.2f× (goal ≤ 1.3×)\n", k, a / p }'
done
