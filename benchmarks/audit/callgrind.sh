#!/usr/bin/env bash
# benchmarks/audit/callgrind.sh — instructions per audit record written, in-process (issue 42's goal: the Merkle tree,
# with a signed checkpoint every 4,096 records, adds at most 5 % per record). Runs `mediabench audit` under callgrind
# at 20,000 and 40,000 records; the slope is one record: its entry, the canonical JSON, the chain hash, the write, and
# the tree's leaf hash, frontier and checkpoints. With BEFORE=PATH (a mediabench built from an earlier commit) it
# counts that binary too and prints the ratio. Valgrind does not offer the CPU's SHA extensions, so each SHA-256
# call counts about 2,000 instructions a block here, several times what it costs natively.
# Takes ≈ 1 minute a binary. Usage: [BUILD=0] [BEFORE=PATH] benchmarks/audit/callgrind.sh
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
MB="$ROOT/.build/release/mediabench"
command -v valgrind >/dev/null || { echo "valgrind is not installed" >&2; exit 2; }
if [ "${BUILD:-1}" = 1 ]; then (cd "$ROOT" && swift build -c release --product mediabench >/dev/null); fi
WORK=$(mktemp -d /tmp/audit-callgrind.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
refs() {  # BINARY RECORDS -> instructions (Ir) of the whole run
    rm -rf "$WORK/state" && mkdir "$WORK/state"
    MEDIABENCH_AUDIT_DIR="$WORK/state" MEDIABENCH_AUDIT_RECORDS=$2 \
        timeout 900 valgrind --tool=callgrind --callgrind-out-file="$WORK/cg.out" "$1" audit 2>&1 >/dev/null \
        | awk '/I +refs:/ { gsub(",", "", $NF); print $NF }'
}
per_record() {  # BINARY -> instructions per record
    local low high
    low=$(refs "$1" 20000)
    high=$(refs "$1" 40000)
    awk -v a="$low" -v b="$high" 'BEGIN { printf "%.0f", (b - a) / 20000 }'
}
after=$(per_record "$MB")
echo "this build: $after instructions per record"
if [ -n "${BEFORE:-}" ]; then
    before=$(per_record "$BEFORE")
    echo "before: $before instructions per record"
    awk -v a="$after" -v b="$before" 'BEGIN { printf "this build / before: %.3f× (goal ≤ 1.05×)\n", a / b }'
fi
