#!/usr/bin/env bash
# Calibrates per-format encoder qualities at equal fidelity (issue "Derived images, round 2", item 3).
#
# For each corpus image and each output width, the reference is the image downsampled by libvips to that width,
# saved losslessly (PNG). Each format is encoded from the reference with libvips' own savers, at the settings
# mediactl uses (JPEG optimised Huffman; WebP lossy; AVIF AV1 at effort 2; JPEG XL at effort 4; all stripped), over a
# quality grid, decoded back to PNG by libvips, and scored with SSIMULACRA2 (PyPI `ssimulacra2`, in a venv this
# script makes). JPEG at q 80 sets the target: for each format and width, the lowest grid quality whose median score
# over the images is at least JPEG q80's. The first table gives that quality with its median bytes and score.
#
# The default quality of each format is the median of its per-width qualities (the middle width's, for three): one
# number per format, as a tier declares it, above JPEG q80's fidelity at the narrower widths and a step below at the
# wider. The second table gives, at those defaults, each format's median bytes and the median time to
# make the variant in-process (pyvips: vips_thumbnail_buffer from the source bytes, then the saver, best of 3 runs
# per image), and its ratio to JPEG's. The ranking fmt=auto follows (docs/variants.md) is, per width, the formats
# whose time is at most 3x JPEG's, by median bytes.
#
# Usage: benchmarks/variants/calibrate.sh [OUT.md]   (default: benchmarks/results/<date>-format-calibration.md)
# Corpus: photos (large/hubble-1000.jpg, large/astronaut-4000.jpg, receipts/attachment-3301.jpg, a 1411-px retina
# photo, and catalog/coffee-237a7131.jpg, 256 px), a screenshot-like PNG (receipts/r-7731.png, 384 px) and an image
# with alpha (hubble-1000.jpg with a generated alpha gradient). Sources narrower than a width are encoded at their own
# size, as mediactl serves them (never enlarged).
set -euo pipefail
cd "$(dirname "$0")/../.."
out="${1:-benchmarks/results/$(date -u +%Y-%m-%d)-format-calibration.md}"
command -v vips >/dev/null || { echo "calibrate.sh: vips is missing (apt-get install libvips-tools)" >&2; exit 2; }
venv="${CALIBRATION_VENV:-.build/calibration-venv}"
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q ssimulacra2 pyvips
fi
"$venv/bin/python" -c 'import pyvips' 2>/dev/null || "$venv/bin/pip" install -q pyvips
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
corpus=Tests/Fixtures/corpus
cp "$corpus/large/hubble-1000.jpg" "$corpus/large/astronaut-4000.jpg" "$corpus/receipts/attachment-3301.jpg" \
   "$corpus/catalog/coffee-237a7131.jpg" "$corpus/receipts/r-7731.png" "$work/"
# An image with alpha: hubble-1000.jpg (1000 × 872) with a left-to-right alpha gradient.
vips grey "$work/ramp.v" 1000 872 2>/dev/null
vips linear "$work/ramp.v" "$work/ramp255.v" 255 0 2>/dev/null
vips cast "$work/ramp255.v" "$work/alpha.v" uchar 2>/dev/null
vips bandjoin "$corpus/large/hubble-1000.jpg $work/alpha.v" "$work/hubble-alpha.png" 2>/dev/null
WORK="$work" "$venv/bin/python" - "$out" <<'PYTHON'
import os, statistics, subprocess, sys, time
import pyvips
from ssimulacra2 import compute_ssimulacra2

work = os.environ["WORK"]
out = sys.argv[1]
images = ["hubble-1000.jpg", "astronaut-4000.jpg", "attachment-3301.jpg", "coffee-237a7131.jpg", "r-7731.png",
          "hubble-alpha.png"]
widths = [144, 288, 576]
grid = list(range(30, 96, 5))
formats = ["jpeg", "webp", "avif", "jxl"]
savers = {
    "jpeg": (".jpg", lambda q: f"[Q={q},optimize_coding,strip]"),
    "webp": (".webp", lambda q: f"[Q={q},strip]"),
    "avif": (".avif", lambda q: f"[Q={q},compression=av1,effort=2,strip]"),
    "jxl":  (".jxl", lambda q: f"[Q={q},effort=4,strip]"),
}
sources = {image: open(os.path.join(work, image), "rb").read() for image in images}

def thumbnail(image, width):
    return pyvips.Image.thumbnail_buffer(sources[image], width, height=10_000_000, size="down")

references = {}
for image in images:
    for width in widths:
        ref = os.path.join(work, f"{image}-{width}.png")
        thumbnail(image, width).write_to_file(ref + "[strip]")
        references[(image, width)] = (ref, pyvips.Image.new_from_file(ref).copy_memory())

def score(fmt, q, image, width):
    ext, options = savers[fmt]
    ref, reference = references[(image, width)]
    encoded = reference.write_to_buffer(ext + options(q))
    decoded = os.path.join(work, f"{image}-{width}-{fmt}-{q}.png")
    pyvips.Image.new_from_buffer(encoded, "").write_to_file(decoded)
    return len(encoded), compute_ssimulacra2(ref, decoded)

def derive_ms(fmt, q, image, width):
    ext, options = savers[fmt]
    thumbnail(image, width).write_to_buffer(ext + options(q))  # warm-up: loaders, savers and caches
    best = None
    for _ in range(3):
        start = time.perf_counter()
        thumbnail(image, width).write_to_buffer(ext + options(q))
        elapsed = (time.perf_counter() - start) * 1000
        best = elapsed if best is None else min(best, elapsed)
    return best

calibrated = {}  # (fmt, width) -> (q, bytes, score)
for width in widths:
    jpeg = [score("jpeg", 80, i, width) for i in images]
    target = statistics.median(s for _, s in jpeg)
    calibrated[("jpeg", width)] = (80, statistics.median(b for b, _ in jpeg), target)
    for fmt in formats[1:]:
        calibrated[(fmt, width)] = None
        for q in grid:
            results = [score(fmt, q, i, width) for i in images]
            median = statistics.median(s for _, s in results)
            if median >= target:
                calibrated[(fmt, width)] = (q, statistics.median(b for b, _ in results), median)
                break

defaults = {"jpeg": 80}
for fmt in formats[1:]:
    found = [calibrated[(fmt, w)][0] for w in widths if calibrated[(fmt, w)] is not None]
    defaults[fmt] = statistics.median_low(found) if len(found) == len(widths) else 95

at_defaults = {}  # (fmt, width) -> (bytes, score, ms)
for width in widths:
    for fmt in formats:
        results = [score(fmt, defaults[fmt], i, width) for i in images]
        ms = [derive_ms(fmt, defaults[fmt], i, width) for i in images]
        at_defaults[(fmt, width)] = (statistics.median(b for b, _ in results), statistics.median(s for _, s in results),
                                     statistics.median(ms))

lines = ["| format | width | quality | median bytes | median SSIMULACRA2 |", "|---|---|---|---|---|"]
for width in widths:
    for fmt in formats:
        row = calibrated[(fmt, width)]
        if row is None:
            lines.append(f"| {fmt} | {width} | none up to 95 | | |")
        else:
            lines.append(f"| {fmt} | {width} | {row[0]} | {row[1]:,.0f} | {row[2]:.1f} |")
second = ["| format | width | default quality | median bytes | median SSIMULACRA2 | median variant ms | × JPEG's time |",
          "|---|---|---|---|---|---|---|"]
ranking = []
for width in widths:
    jpeg_ms = at_defaults[("jpeg", width)][2]
    for fmt in formats:
        size, sscore, ms = at_defaults[(fmt, width)]
        second.append(f"| {fmt} | {width} | {defaults[fmt]} | {size:,.0f} | {sscore:.1f} | {ms:.1f} | {ms / jpeg_ms:.1f} |")
    eligible = sorted((at_defaults[(f, width)][0], f) for f in formats if at_defaults[(f, width)][2] <= 3 * jpeg_ms)
    ranking.append(f"- {width} px: " + " < ".join(f"{f} ({b:,.0f} B)" for b, f in eligible)
                   + "; over 3× JPEG's time: " + (", ".join(f for f in formats if at_defaults[(f, width)][2] > 3 * jpeg_ms) or "none"))

version = subprocess.run(["vips", "--version"], capture_output=True, text=True).stdout.strip()
text = ("# Encoder qualities at equal SSIMULACRA2 (JPEG q80 = target)\n\n"
        f"Command: `benchmarks/variants/calibrate.sh` ({version}, pyvips {pyvips.__version__}; {len(images)} images: "
        "hubble-1000.jpg, astronaut-4000.jpg, attachment-3301.jpg (1411 px), coffee (256 px), a screenshot-like PNG "
        f"(384 px), hubble with an alpha gradient; quality grid {grid[0]}–{grid[-1]} step 5).\n\n"
        "## Quality per format and width at JPEG q80's median score\n\n" + "\n".join(lines) + "\n\n"
        "## At the default qualities (each format's median quality above)\n\n"
        "Variant ms: source bytes to encoded variant in-process (thumbnail + save), best of 3 per image, median over images.\n\n"
        + "\n".join(second) + "\n\n"
        "## fmt=auto ranking (fewest bytes among formats within 3× JPEG's time)\n\n" + "\n".join(ranking) + "\n\n"
        "Default qualities: " + ", ".join(f"{f} {defaults[f]}" for f in formats) + "\n")
with open(out, "w") as handle:
    handle.write(text)
print(text)
print(f"written to {out}")
PYTHON
