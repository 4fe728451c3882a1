#!/usr/bin/env bash
# Calibrates per-format encoder qualities at equal fidelity (issue "Derived images, round 2", item 3).
#
# For each corpus image and each output width, the reference is the image downsampled by libvips to that width,
# saved losslessly (PNG). Each format is encoded from the reference with libvips' own savers, at the settings
# mediactl uses (JPEG optimised Huffman; WebP lossy; AVIF AV1 at effort 2; JPEG XL at effort 4; all stripped), over a
# quality grid, decoded back to PNG by libvips, and scored with SSIMULACRA2 (PyPI `ssimulacra2`, in a venv this
# script makes). JPEG at q 80 sets the target: for each format and width, the lowest grid quality whose median score
# over the images is at least JPEG q80's. The table gives that quality with its median bytes, score and encode time.
#
# Usage: benchmarks/variants/calibrate.sh [OUT.md]   (default: benchmarks/results/<date>-format-calibration.md)
# Corpus: photos (large/hubble-1000.jpg, catalog/{chelsea,coffee,rocket}-*.jpg), a screenshot-like PNG
# (receipts/r-7731.png) and an image with alpha (catalog/chelsea.png with a generated alpha gradient).
set -euo pipefail
cd "$(dirname "$0")/../.."
out="${1:-benchmarks/results/$(date -u +%Y-%m-%d)-format-calibration.md}"
command -v vips >/dev/null || { echo "calibrate.sh: vips is missing (apt-get install libvips-tools)" >&2; exit 2; }
venv="${CALIBRATION_VENV:-.build/calibration-venv}"
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q ssimulacra2
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
corpus=Tests/Fixtures/corpus
cp "$corpus/large/hubble-1000.jpg" "$corpus/catalog/chelsea-5d40df37.jpg" "$corpus/catalog/coffee-237a7131.jpg" \
   "$corpus/catalog/rocket-cfc075d1.jpg" "$corpus/receipts/r-7731.png" "$work/"
# An image with alpha: chelsea.png with a left-to-right alpha gradient.
vips grey "$work/ramp.v" 256 256 2>/dev/null
vips linear "$work/ramp.v" "$work/ramp255.v" 255 0 2>/dev/null
vips cast "$work/ramp255.v" "$work/alpha.v" uchar 2>/dev/null
vips bandjoin "$corpus/catalog/chelsea.png $work/alpha.v" "$work/chelsea-alpha.png" 2>/dev/null
WORK="$work" "$venv/bin/python" - "$out" <<'PYTHON'
import os, statistics, subprocess, sys, time
from ssimulacra2 import compute_ssimulacra2

work = os.environ["WORK"]
out = sys.argv[1]
images = ["hubble-1000.jpg", "chelsea-5d40df37.jpg", "coffee-237a7131.jpg", "rocket-cfc075d1.jpg", "r-7731.png",
          "chelsea-alpha.png"]
widths = [144, 288, 576]
grid = list(range(30, 96, 5))
savers = {
    "jpeg": ("jpg", lambda q: f"[Q={q},optimize_coding,strip]"),
    "webp": ("webp", lambda q: f"[Q={q},strip]"),
    "avif": ("avif", lambda q: f"[Q={q},compression=av1,effort=2,strip]"),
    "jxl":  ("jxl", lambda q: f"[Q={q},effort=4,strip]"),
}

def run(*args):
    subprocess.run(args, check=True, stderr=subprocess.DEVNULL)

def measure(fmt, q, ref, stem):
    ext, options = savers[fmt]
    encoded = os.path.join(work, f"{stem}-{fmt}-{q}.{ext}")
    start = time.perf_counter()
    run("vips", "copy", ref, encoded + options(q))
    ms = (time.perf_counter() - start) * 1000
    decoded = encoded + ".png"
    run("vips", "copy", encoded, decoded)
    score = compute_ssimulacra2(ref, decoded)
    return os.path.getsize(encoded), score, ms

references = {}
for image in images:
    for width in widths:
        ref = os.path.join(work, f"{image}-{width}.png")
        run("vipsthumbnail", os.path.join(work, image), "--size", f"{width}x", "-o", ref + "[strip]")
        references[(image, width)] = ref

rows = []
for width in widths:
    jpeg = [measure("jpeg", 80, references[(i, width)], f"{i}-{width}") for i in images]
    target = statistics.median(s for _, s, _ in jpeg)
    rows.append(("jpeg", width, 80, statistics.median(b for b, _, _ in jpeg), target, statistics.median(m for _, _, m in jpeg)))
    for fmt in ["webp", "avif", "jxl"]:
        chosen = None
        for q in grid:
            results = [measure(fmt, q, references[(i, width)], f"{i}-{width}") for i in images]
            score = statistics.median(s for _, s, _ in results)
            if score >= target:
                chosen = (q, statistics.median(b for b, _, _ in results), score, statistics.median(m for _, _, m in results))
                break
        if chosen is None:
            rows.append((fmt, width, None, None, None, None))
        else:
            rows.append((fmt, width) + chosen)

lines = ["| format | width | quality | median bytes | median SSIMULACRA2 | median encode ms |", "|---|---|---|---|---|---|"]
for fmt, width, q, size, score, ms in rows:
    if q is None:
        lines.append(f"| {fmt} | {width} | none up to 95 | | | |")
    else:
        lines.append(f"| {fmt} | {width} | {q} | {size:,.0f} | {score:.1f} | {ms:.0f} |")
with open(out, "w") as handle:
    handle.write("# Encoder qualities at equal SSIMULACRA2 (JPEG q80 = target)\n\n")
    handle.write("Command: `benchmarks/variants/calibrate.sh` (libvips " +
                 subprocess.run(["vips", "--version"], capture_output=True, text=True).stdout.strip() +
                 f"; {len(images)} images: 4 photos, a screenshot-like PNG, one with alpha; quality grid {grid[0]}–{grid[-1]} step 5; "
                 "encode ms includes libvips start-up, so compare them within a row only).\n\n")
    handle.write("\n".join(lines) + "\n")
print("\n".join(lines))
print(f"written to {out}")
PYTHON
