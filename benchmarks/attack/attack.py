#!/usr/bin/env python3
"""Attack mixes of hardening items 1-5 (issue 22) against a running `mediactl serve` (benchmarks/attack/run.sh).

Usage: attack.py MIX --port P --pid PID [--seconds S]
Mixes (every attacker connects from 127.0.0.1):
  unread-bodies   100 connections each send GET with Content-Length: 8388608 and try to stream the body (item 1)
  slow-bodies     1,030 connections trickle a POST body to a pass-through route, one byte every 8 s (item 2)
  idle            1,024 keep-alive connections that are answered once, then idle (item 4)
  slow-readers    200 connections read a 9 MB PNG at about 1 KiB/s (item 3)
  range-readers   the same with Range: bytes=1- (206 answers)
  mixed           400 slow bodies, 400 idle, 200 slow readers: 1,000 clients (item 5)
  idle-front      1,100 idle keep-alive connections from 127.0.0.1 run with --front 127.0.0.1 (no per-address cap:
                  the global cap of 1,024 and idle-first shedding; item 4)
Throughout, a well-behaved client on 127.0.0.2 fetches a catalog image every 100 ms (a new connection each time).
Prints one JSON line: the mix, attacker connections, what they got ("503 closed": refused by a cap; "408 closed":
timed out; "400 closed": refused from the head; "200 open": still being served; "none open": held, unanswered),
the good client's requests and 200 answers, and mediactl's RSS before, at its peak (sampled every 100 ms) and after,
in MiB.
"""
import argparse, json, socket, threading, time

def rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0

def connect(port, source="127.0.0.1", rcvbuf=None):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if rcvbuf: s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    s.bind((source, 0))
    s.settimeout(5)
    s.connect(("127.0.0.1", port))
    s.setblocking(False)
    return s

def try_send(s, data):
    try: return s.send(data)
    except (BlockingIOError, OSError): return 0

def try_recv(s, n):
    try: return s.recv(n)
    except BlockingIOError: return None
    except OSError: return b""

class Good(threading.Thread):
    def __init__(self, port, target):
        super().__init__(daemon=True)
        self.port, self.target, self.stop, self.sent, self.ok = port, target, False, 0, 0
    def run(self):
        while not self.stop:
            self.sent += 1
            try:
                s = socket.create_connection(("127.0.0.1", self.port), timeout=5, source_address=("127.0.0.2", 0))
                s.sendall(f"GET {self.target} HTTP/1.1\r\nHost: m\r\nConnection: close\r\n\r\n".encode())
                data = b""
                while True:
                    chunk = s.recv(65536)
                    if not chunk: break
                    data += chunk
                s.close()
                if data.startswith(b"HTTP/1.1 200"): self.ok += 1
            except OSError:
                pass
            time.sleep(0.1)

HEADS = {
    "unread": b"GET /catalog/horse-d29d871c.jpg HTTP/1.1\r\nHost: m\r\nContent-Length: 8388608\r\n\r\n",
    "body": b"POST /files/up HTTP/1.1\r\nHost: m\r\nContent-Length: 100000\r\n\r\n",
    "idle": b"GET /catalog/horse-d29d871c.jpg HTTP/1.1\r\nHost: m\r\n\r\n",
}
PLANS = {"unread-bodies": [("unread", 100)], "slow-bodies": [("body", 1030)], "idle": [("idle", 1024)],
         "slow-readers": [("reader", 200)], "range-readers": [("ranged", 200)], "idle-front": [("idle", 1100)], "mixed": [("body", 400), ("idle", 400), ("reader", 200)]}

def main():
    p = argparse.ArgumentParser()
    p.add_argument("mix", choices=sorted(PLANS)); p.add_argument("--port", type=int, required=True)
    p.add_argument("--pid", type=int, required=True); p.add_argument("--seconds", type=float, default=30)
    p.add_argument("--good", default="/catalog/horse-d29d871c.jpg"); p.add_argument("--large", default="/large/noise-9mb.png")
    a = p.parse_args()
    before = peak = rss_kib(a.pid)
    good = Good(a.port, a.good); good.start()
    conns = []  # (socket, kind)
    failed = 0
    for kind, n in PLANS[a.mix]:
        for _ in range(n):
            try:
                s = connect(a.port, rcvbuf=4096 if kind in ("reader", "ranged") else None)
            except OSError:
                failed += 1; continue
            range_field = "Range: bytes=1-\r\n" if kind == "ranged" else ""
            head = HEADS.get(kind) or f"GET {a.large} HTTP/1.1\r\nHost: m\r\n{range_field}\r\n".encode()
            try_send(s, head)
            conns.append((s, kind))
    junk = b"x" * 65536
    seen = [{"first": b"", "eof": False} for _ in conns]
    def note(i, data):
        if data == b"": seen[i]["eof"] = True
        elif data and len(seen[i]["first"]) < 12: seen[i]["first"] += data[:12]
    deadline, tick = time.time() + a.seconds, 0
    while time.time() < deadline:
        time.sleep(0.1); tick += 1
        peak = max(peak, rss_kib(a.pid))
        for i, (s, kind) in enumerate(conns):
            if seen[i]["eof"]: continue
            if kind == "unread": try_send(s, junk)                      # stream the body as fast as it goes
            elif kind == "body" and tick % 80 == 0: try_send(s, b"x")   # one byte every 8 s
            note(i, try_recv(s, 100 if kind in ("reader", "ranged") else 65536))   # readers: about 1 KiB/s
    for i, (s, _) in enumerate(conns): note(i, try_recv(s, 65536))
    answers = {}
    for entry in seen:
        status = entry["first"][9:12].decode() if entry["first"].startswith(b"HTTP/1.1 ") else "none"
        key = status + (" closed" if entry["eof"] else " open")
        answers[key] = answers.get(key, 0) + 1
    good.stop = True; good.join(6)
    print(json.dumps({"mix": a.mix, "attackers": len(conns) + failed, "connect_failed": failed,
                      "answers": dict(sorted(answers.items())),
                      "good_requests": good.sent, "good_200": good.ok, "rss_before_mib": round(before / 1024, 1),
                      "rss_peak_mib": round(peak / 1024, 1), "rss_after_mib": round(rss_kib(a.pid) / 1024, 1)}))
    for s, _ in conns: s.close()

if __name__ == "__main__":
    main()
