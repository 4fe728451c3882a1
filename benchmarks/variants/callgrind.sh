#!/usr/bin/env bash
# benchmarks/variants/callgrind.sh — instructions per variant miss (load-independent evidence for goal (a)
# of benchmarks/variants/run.sh): callgrind counts of vipsthumbnail over 1 and 5 files (slope = one image,
# process start excluded) and of `mediabench variants` over 2 and 6 images per side (slope = one image,
# the suite's set-up and warm-up excluded), for the same cases as run.sh:
#   astronaut     4000² JPEG → 144-px JPEG (vipsthumbnail -s 144 .jpg[Q=80,optimize_coding,strip]; engine, q=80)
#   hubble        1000×872 JPEG → 576-px WebP (vipsthumbnail -s 576 .webp[Q=80,strip], and with --export-profile srgb;
#                 engine, q=80; hubble-noicc: the engine on the source without its ICC profile)
#   service       MediaService.handle against the bare engine, both cycling q=1…N (MEDIABENCH_VARIANT_KEYS=q)
# Note: valgrind does not offer the CPU's SHA extensions, so OpenSSL's SHA-256 runs its slower path under it:
# the service's per-miss SHA-256 of the source counts ≈ 28 instructions per byte here (≈ 1 ms natively).
# Takes ≈ 5 minutes (one core). Usage: benchmarks/variants/callgrind.sh (BUILD=0: use the built mediabench).
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
C="$ROOT/Tests/Fixtures/corpus/large"
MB="$ROOT/.build/release/mediabench"
for tool in valgrind vipsthumbnail; do command -v "$tool" >/dev/null || { echo "$tool is not installed" >&2; exit 2; }; done
if [ "${BUILD:-1}" = 1 ]; then (cd "$ROOT" && swift build -c release --product mediabench >/dev/null); fi
WORK=$(mktemp -d /tmp/variants-callgrind.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$WORK/in" "$WORK/out"
for i in 1 2 3 4 5; do ln -s "$C/astronaut-4000.jpg" "$WORK/in/astronaut-$i.jpg"; ln -s "$C/hubble-1000.jpg" "$WORK/in/hubble-$i.jpg"; done
refs() {  # COMMAND... -> instructions (Ir) of the whole run
    timeout 900 valgrind --tool=callgrind --callgrind-out-file="$WORK/cg.out" "$@" 2>&1 >/dev/null \
        | awk '/I +refs:/ { gsub(",", "", $NF); print $NF }'
}
slope() { awk -v a="$1" -v b="$2" -v n="$3" 'BEGIN { printf "%.1f", (b - a) / n / 1e6 }'; }
declare -A R
for case in astronaut hubble hubble-e; do
    size=$([ $case = astronaut ] && echo 144 || echo 576)
    ext=$([ $case = astronaut ] && echo "jpg[Q=80,optimize_coding,strip]" || echo "webp[Q=80,strip]")
    extra=(); [ $case = hubble-e ] && extra=(--export-profile srgb)
    src=${case%-e}
    one=$(VIPS_CONCURRENCY=1 refs vipsthumbnail -s "$size" ${extra[@]+"${extra[@]}"} -o "$WORK/out/$case-%s.$ext" "$WORK/in/$src-1.jpg")
    five=$(VIPS_CONCURRENCY=1 refs vipsthumbnail -s "$size" ${extra[@]+"${extra[@]}"} -o "$WORK/out/$case-%s.$ext" "$WORK"/in/"$src"-[1-5].jpg)
    R[vips,$case]=$(slope "$one" "$five" 4)
    echo "vipsthumbnail $case: ${R[vips,$case]} M instructions per image" >&2
done
for case in astronaut hubble hubble-noicc; do
    two=$(MEDIABENCH_VARIANT_CASES=$case MEDIABENCH_VARIANTS=engine MEDIABENCH_VARIANT_IMAGES=2 MEDIABENCH_VARIANT_ROUNDS=1 refs "$MB" variants)
    six=$(MEDIABENCH_VARIANT_CASES=$case MEDIABENCH_VARIANTS=engine MEDIABENCH_VARIANT_IMAGES=6 MEDIABENCH_VARIANT_ROUNDS=1 refs "$MB" variants)
    R[engine,$case]=$(slope "$two" "$six" 4)
    echo "engine $case (q=80): ${R[engine,$case]} M instructions per image" >&2
done
for case in astronaut hubble; do
    for side in engine service; do
        two=$(MEDIABENCH_VARIANT_KEYS=q MEDIABENCH_VARIANT_CASES=$case MEDIABENCH_VARIANTS=$side MEDIABENCH_VARIANT_IMAGES=2 MEDIABENCH_VARIANT_ROUNDS=1 refs "$MB" variants)
        six=$(MEDIABENCH_VARIANT_KEYS=q MEDIABENCH_VARIANT_CASES=$case MEDIABENCH_VARIANTS=$side MEDIABENCH_VARIANT_IMAGES=6 MEDIABENCH_VARIANT_ROUNDS=1 refs "$MB" variants)
        R[q$side,$case]=$(slope "$two" "$six" 4)
        echo "$side $case (q=1…6): ${R[q$side,$case]} M instructions per image" >&2
    done
done
r() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a / b }'; }
echo "| case | vipsthumbnail M instr./image | engine (q=80) | engine / vipsthumbnail | service − engine (same q=1…6) | (engine + that) / vipsthumbnail |"
echo "|---|---|---|---|---|---|"
for case in astronaut hubble hubble-e; do
    mb=${case%-e}
    over=$(awk -v s="${R[qservice,$mb]}" -v e="${R[qengine,$mb]}" 'BEGIN { printf "%.1f", s - e }')
    echo "| $case | ${R[vips,$case]} | ${R[engine,$mb]} | $(r "${R[engine,$mb]}" "${R[vips,$case]}") | $over | $(r "$(awk -v a="${R[engine,$mb]}" -v b="$over" 'BEGIN { print a + b }')" "${R[vips,$case]}") |"
done
echo "| hubble-noicc (engine, no ICC profile) | ${R[vips,hubble]} | ${R[engine,hubble-noicc]} | $(r "${R[engine,hubble-noicc]}" "${R[vips,hubble]}") | | |"
