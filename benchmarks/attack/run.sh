#!/usr/bin/env bash
# run.sh — the attack mixes of hardening items 1–5 (issue 22) against `mediactl serve`, with the bounds next to them.
#
# Starts, on 127.0.0.1: an nginx origin (Tests/Fixtures/corpus, plus /large/noise-9mb.png, a 9 MB PNG made here) and,
# fresh for each mix, `mediactl serve` (release build) with a catalog tier (memory), a large-image tier (disk) and a
# pass-through route (/files/, methods all). Then runs benchmarks/attack/attack.py for each mix (unread-bodies,
# slow-bodies, idle, slow-readers, mixed): attackers from 127.0.0.1, a good client from 127.0.0.2 every 100 ms.
# Prints one JSON line per mix and a Markdown table: the good client's success rate and mediactl's peak RSS above
# its idle RSS, against the bounds (docs/benchmarks.md, "Hardening: attack mixes").
#
# Usage: benchmarks/attack/run.sh
# Environment (defaults): ORIGIN_PORT=18091 MEDIACTL_PORT=18093 MEDIACTL_ADMIN_PORT=18094 SECONDS_PER_MIX=30
#   MIXES="unread-bodies slow-bodies idle idle-front slow-readers range-readers mixed"  MEDIACTL=<repo>/.build/release/mediactl  BUILD=1
#   RESULTS= (also write the table to this file)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
ORIGIN_PORT=${ORIGIN_PORT:-18091}
MEDIACTL_PORT=${MEDIACTL_PORT:-18093}
MEDIACTL_ADMIN_PORT=${MEDIACTL_ADMIN_PORT:-18094}
SECONDS_PER_MIX=${SECONDS_PER_MIX:-30}
MIXES=${MIXES:-"unread-bodies slow-bodies idle idle-front slow-readers range-readers mixed"}
MEDIACTL=${MEDIACTL:-$ROOT/.build/release/mediactl}
BUILD=${BUILD:-1}
RESULTS=${RESULTS:-}
log() { echo "attack: $*" >&2; }
die() { log "$*"; exit 1; }
for tool in nginx python3 curl; do command -v "$tool" >/dev/null || die "$tool is not installed"; done
if [ ! -x "$MEDIACTL" ]; then
    [ "$BUILD" = 1 ] || die "no binary at $MEDIACTL"
    (cd "$ROOT" && swift build -c release --product mediactl >&2)
fi
ulimit -n 8192
WORK=$(mktemp -d /tmp/attack.XXXXXX)
chmod 755 "$WORK"
mkdir -p "$WORK/large" "$WORK/tmp"
PIDS=()
cleanup() {
    local pid
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
    rm -rf "$WORK"
}
trap cleanup EXIT

# A 9 MB PNG of noise (incompressible, so the file is as large as the security test's 9.2 MB one).
python3 - "$WORK/large/noise-9mb.png" <<'PY'
import os, struct, sys, zlib
w, h = 1750, 1750
raw = b"".join(b"\x00" + os.urandom(w * 3) for _ in range(h))
def chunk(kind, data): return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)) + chunk(b"IDAT", zlib.compress(raw, 1)) + chunk(b"IEND", b"")
open(sys.argv[1], "wb").write(png)
PY

cat > "$WORK/origin.conf" <<NGINX
worker_processes 1;
pid $WORK/origin.pid;
error_log $WORK/origin-error.log warn;
events { worker_connections 4096; }
http {
    access_log off;
    client_body_temp_path $WORK/tmp; proxy_temp_path $WORK/tmp; fastcgi_temp_path $WORK/tmp;
    uwsgi_temp_path $WORK/tmp; scgi_temp_path $WORK/tmp;
    types { image/jpeg jpg; image/png png; }
    server {
        listen 127.0.0.1:$ORIGIN_PORT;
        location /catalog/ { root $ROOT/Tests/Fixtures/corpus; add_header Cache-Control "public, max-age=31536000"; }
        location /large/ { root $WORK; add_header Cache-Control "public, max-age=31536000"; }
        location /files/ { return 200 "ok"; }
    }
}
NGINX
nginx -p "$WORK" -c "$WORK/origin.conf" -g 'daemon off;' &
PIDS+=($!)
mkdir -p "$WORK/policies"
cat > "$WORK/policies/attack.json" <<JSON
{ "tiers": {
    "public": { "storage": "memory", "cache": "shared", "maxTTL": 31536000 },
    "large": { "storage": "disk", "cache": "shared", "maxTTL": 31536000, "maxPixels": 50000000, "maxObjectBytes": 20000000 },
    "files": { "storage": "none", "contentTypes": ["*/*"] } },
  "routes": [
    { "name": "catalog", "mount": "/catalog/", "origin": "http://127.0.0.1:$ORIGIN_PORT/catalog/", "tier": "public" },
    { "name": "large", "mount": "/large/", "origin": "http://127.0.0.1:$ORIGIN_PORT/large/", "tier": "large" },
    { "name": "files", "mount": "/files/", "origin": "http://127.0.0.1:$ORIGIN_PORT/files/", "tier": "files", "methods": "all" } ] }
JSON
for _ in $(seq 50); do curl -s -o /dev/null "http://127.0.0.1:$ORIGIN_PORT/catalog/horse-d29d871c.jpg" && break; sleep 0.1; done

TABLE="| mix | attackers (from 127.0.0.1): what they got at the end | good client: 200 / requests | mediactl RSS idle → peak (MiB) | peak above idle | bound |
|---|---|---|---|---|---|"
for mix in $MIXES; do
    rm -rf "$WORK/state"; mkdir -p "$WORK/state"
    FRONT=(); if [ "$mix" = idle-front ]; then FRONT=(--front 127.0.0.1); fi
    "$MEDIACTL" serve "${FRONT[@]}" --listen "127.0.0.1:$MEDIACTL_PORT" --admin-listen "127.0.0.1:$MEDIACTL_ADMIN_PORT" \
        --policies "$WORK/policies" --state-dir "$WORK/state" >"$WORK/serve-$mix.log" 2>&1 &
    SERVE=$!
    PIDS+=($SERVE)
    for _ in $(seq 100); do curl -s -o /dev/null "http://127.0.0.1:$MEDIACTL_PORT/catalog/horse-d29d871c.jpg" && break; sleep 0.1; done
    curl -s -o /dev/null "http://127.0.0.1:$MEDIACTL_PORT/large/noise-9mb.png"   # stored before the readers come
    sleep 1
    line=$(python3 "$ROOT/benchmarks/attack/attack.py" "$mix" --port "$MEDIACTL_PORT" --pid "$SERVE" --seconds "$SECONDS_PER_MIX")
    echo "$line"
    kill -TERM "$SERVE"; wait "$SERVE" 2>/dev/null || true
    row=$(python3 - "$line" <<'PY'
import json, sys
r = json.loads(sys.argv[1])
bounds = {"unread-bodies": "≤ 64 MB above idle", "slow-bodies": "good client 100 %", "idle": "good client 100 %", "idle-front": "good client 100 %",
          "slow-readers": "≤ 32 MB above idle", "range-readers": "≤ 32 MB above idle", "mixed": "good client 100 %, ≤ budget + 64 MB"}
above = r["rss_peak_mib"] - r["rss_before_mib"]
answers = ", ".join(f"{v} {k}" for k, v in r["answers"].items())
print(f"| {r['mix']} | {r['attackers']}: {answers} | {r['good_200']} / {r['good_requests']} | "
      f"{r['rss_before_mib']} → {r['rss_peak_mib']} | {above:.1f} | {bounds[r['mix']]} |")
PY
)
    TABLE+=$'\n'"$row"
done
echo
echo "$TABLE"
if [ -n "$RESULTS" ]; then echo "$TABLE" > "$RESULTS"; fi
