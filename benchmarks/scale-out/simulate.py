#!/usr/bin/env python3
"""simulate.py — hit ratio and origin load of a mediactl fleet against its number of replicas (issue 17, item 5).

Compares two ways of putting N replicas behind one load balancer:

  hash  nginx `upstream { hash $uri consistent; }`: every key lives on one replica (a ketama ring,
        160 points per server, built exactly as nginx's ngx_http_upstream_hash_module does: CRC32 of
        "host\\0port" + the previous point, the key's CRC32 looked up clockwise);
  rr    round robin: every replica sees every key and ends up caching the same hot set.

Model (deterministic: one seeded RNG, the same request stream for every configuration):
  - OBJECTS distinct objects, requested with Zipf popularity (rank k has weight 1 / k^s, for each --zipf s);
    ranks are shuffled onto names so popularity is unrelated to the ring position;
  - object sizes log-normal, fitted to the log of the image sizes in Tests/Fixtures/corpus/{catalog,avatars}
    (the median and spread of real catalog images), capped at 10 MiB (the public tier's maxObjectBytes);
  - each replica a disk tier with a hot memory copy: an LRU memory store of --memory-mib in front of an
    LRU disk store of --disk-mib (both counted in body bytes); a memory miss that hits disk is copied to memory;
    a miss is one origin request and stores the object in both;
  - REQUESTS client requests from a cold fleet; the first --warmup fraction only fills the caches, the figures
    are counted over the rest ("warm"); the cold-start figure counts every request.

Output: one Markdown table per Zipf exponent: replicas, strategy, warm hit ratio (memory / any), origin
requests per 1000 client requests (warm and from cold), disk bytes stored per replica (mean, max), the
busiest replica's share of requests against the mean, and for `hash` the share of keys that move when one
replica is removed (averaged over removing each replica in turn for N <= 8, else 8 evenly spaced ones).
Then the sizing figures: mean object size, objects per GiB, and the fleet's distinct bytes.

Usage: python3 benchmarks/scale-out/simulate.py [--objects 200000] [--requests 1200000] [--zipf 0.8 1.0]
        [--replicas 1 2 3 4 8 16 32 64] [--memory-mib 64] [--disk-mib 1024] [--seed 17] [--warmup 0.5]
Runtime: about 60–100 s with the defaults on the project's 2-core machine (python3 stdlib only).
"""

import argparse
import bisect
import math
import os
import random
import struct
import sys
import time
import zlib
from collections import OrderedDict

MIB = 1 << 20
GIB = 1 << 30
MAX_OBJECT_BYTES = 10 * MIB
POINTS_PER_SERVER = 160  # nginx: weight * 160


class Ring:
    """nginx `hash $key consistent` (ngx_http_upstream_init_chash / get_chash_peer), weights 1."""

    def __init__(self, servers):
        points = {}
        for index, server in enumerate(servers):
            host, _, port = server.rpartition(":")
            base = (host + "\0" + port).encode()
            prev = 0
            for _ in range(POINTS_PER_SERVER):
                value = zlib.crc32(base + struct.pack("<I", prev))
                # nginx sorts the points and drops equal hashes after the first; first server wins.
                points.setdefault(value, index)
                prev = value
        self.hashes = sorted(points)
        self.owners = [points[h] for h in self.hashes]

    def owner(self, key_hash):
        """The index of the server owning a key's CRC32: the first point >= the hash, wrapping around."""
        i = bisect.bisect_left(self.hashes, key_hash)
        if i == len(self.hashes):
            i = 0
        return self.owners[i]


def server_names(count):
    return ["10.0.%d.%d:8080" % (i // 250, i % 250 + 1) for i in range(count)]


class Replica:
    """A disk tier with a hot memory copy: two byte-bounded LRUs, inclusive."""

    __slots__ = ("memory", "disk", "memory_bytes", "disk_bytes", "memory_limit", "disk_limit", "requests")

    def __init__(self, memory_limit, disk_limit):
        self.memory = OrderedDict()
        self.disk = OrderedDict()
        self.memory_bytes = 0
        self.disk_bytes = 0
        self.memory_limit = memory_limit
        self.disk_limit = disk_limit
        self.requests = 0

    def _put_memory(self, key, size):
        if size > self.memory_limit:
            return
        memory = self.memory
        memory[key] = size
        self.memory_bytes += size
        while self.memory_bytes > self.memory_limit:
            _, evicted = memory.popitem(last=False)
            self.memory_bytes -= evicted

    def get(self, key, size):
        """0 memory hit, 1 disk hit, 2 miss (an origin request; the object is then stored)."""
        self.requests += 1
        memory = self.memory
        if key in memory:
            memory.move_to_end(key)
            self.disk.move_to_end(key)
            return 0
        disk = self.disk
        if key in disk:
            disk.move_to_end(key)
            self._put_memory(key, size)
            return 1
        if size <= self.disk_limit:
            disk[key] = size
            self.disk_bytes += size
            while self.disk_bytes > self.disk_limit:
                evicted_key, evicted = disk.popitem(last=False)
                self.disk_bytes -= evicted
                if evicted_key in memory:
                    del memory[evicted_key]
                    self.memory_bytes -= evicted
            self._put_memory(key, size)
        return 2


def corpus_log_sizes(root):
    sizes = []
    for folder in ("catalog", "avatars"):
        path = os.path.join(root, "Tests", "Fixtures", "corpus", folder)
        if not os.path.isdir(path):
            continue
        for name in sorted(os.listdir(path)):
            if name.rsplit(".", 1)[-1] in ("jpg", "png", "gif", "webp", "avif"):
                size = os.path.getsize(os.path.join(path, name))
                if size > 0:
                    sizes.append(math.log(size))
    return sizes


def fit_sizes(root):
    """(mu, sigma, source) of the log-normal object size; the corpus's own when it is there."""
    logs = corpus_log_sizes(root)
    if len(logs) >= 2:
        mu = sum(logs) / len(logs)
        sigma = math.sqrt(sum((x - mu) ** 2 for x in logs) / (len(logs) - 1))
        return mu, sigma, "fitted to %d corpus images" % len(logs)
    return math.log(16384), 0.9, "default (no corpus found)"


def simulate(stream, sizes, names_hash, replica_count, strategy, ring, memory_limit, disk_limit, warm_from):
    replicas = [Replica(memory_limit, disk_limit) for _ in range(replica_count)]
    counts = [0, 0, 0]          # warm: memory hits, disk hits, misses
    cold_misses = 0
    owners = None
    if strategy == "hash":
        owners = {}
    for t, key in enumerate(stream):
        if strategy == "hash":
            owner = owners.get(key)
            if owner is None:
                owner = ring.owner(names_hash[key])
                owners[key] = owner
            replica = replicas[owner]
        else:
            replica = replicas[t % replica_count]
        outcome = replica.get(key, sizes[key])
        if outcome == 2:
            cold_misses += 1
        if t >= warm_from:
            counts[outcome] += 1
    warm = sum(counts)
    disk_bytes = [r.disk_bytes for r in replicas]
    request_counts = [r.requests for r in replicas]
    return {
        "memory_hit": counts[0] / warm,
        "hit": (counts[0] + counts[1]) / warm,
        "origin_per_1000": 1000.0 * counts[2] / warm,
        "cold_origin_per_1000": 1000.0 * cold_misses / len(stream),
        "bytes_mean": sum(disk_bytes) / replica_count,
        "bytes_max": max(disk_bytes),
        "busiest": max(request_counts) / (len(stream) / replica_count),
    }


def keys_moved(names_hash, replica_count):
    """Mean share of keys whose replica changes when one replica of replica_count is removed."""
    if replica_count < 2:
        return None
    servers = server_names(replica_count)
    full = Ring(servers)
    before = [full.owner(h) for h in names_hash]
    if replica_count <= 8:
        removed_set = list(range(replica_count))
    else:
        removed_set = [round(i * (replica_count - 1) / 7) for i in range(8)]
    shares = []
    for removed in removed_set:
        remaining = [s for i, s in enumerate(servers) if i != removed]
        ring = Ring(remaining)
        index_of = {servers.index(s): i for i, s in enumerate(remaining)}
        moved = 0
        for key, h in enumerate(names_hash):
            owner = before[key]
            after = ring.owner(h)
            # A key moves when it was on the removed replica or (never, with a ring) lands elsewhere.
            if owner == removed or index_of[owner] != after:
                moved += 1
        shares.append(moved / len(names_hash))
    return sum(shares) / len(shares)


def human_bytes(n):
    if n >= GIB:
        return "%.2f GiB" % (n / GIB)
    return "%.0f MiB" % (n / MIB)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--objects", type=int, default=200_000)
    parser.add_argument("--requests", type=int, default=1_200_000)
    parser.add_argument("--zipf", type=float, nargs="+", default=[0.8, 1.0])
    parser.add_argument("--replicas", type=int, nargs="+", default=[1, 2, 3, 4, 8, 16, 32, 64])
    parser.add_argument("--memory-mib", type=float, default=64)
    parser.add_argument("--disk-mib", type=float, default=1024)
    parser.add_argument("--warmup", type=float, default=0.5)
    parser.add_argument("--seed", type=int, default=17)
    args = parser.parse_args()
    if args.objects < 1 or args.requests < 2 or not 0 <= args.warmup < 1 or min(args.replicas) < 1:
        parser.error("--objects >= 1, --requests >= 2, 0 <= --warmup < 1, --replicas >= 1")

    started = time.monotonic()
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    mu, sigma, source = fit_sizes(root)
    rng = random.Random(args.seed)
    sizes = [min(MAX_OBJECT_BYTES, max(100, int(rng.lognormvariate(mu, sigma)))) for _ in range(args.objects)]
    names_hash = [zlib.crc32(("/catalog/object-%07d.jpg" % i).encode()) for i in range(args.objects)]
    memory_limit = int(args.memory_mib * MIB)
    disk_limit = int(args.disk_mib * MIB)
    warm_from = int(args.requests * args.warmup)
    mean_size = sum(sizes) / len(sizes)
    total_bytes = sum(sizes)

    print("# mediactl scale-out simulation")
    print()
    print("objects %d, requests %d (figures over the last %d%%), seed %d; per replica: memory %s, disk %s"
          % (args.objects, args.requests, round(100 * (1 - args.warmup)), args.seed,
             human_bytes(memory_limit), human_bytes(disk_limit)))
    print("object sizes log-normal, %s: median %.1f KiB, sigma %.2f; mean of the simulated objects %.1f KiB; "
          "all objects together %s" % (source, math.exp(mu) / 1024, sigma, mean_size / 1024, human_bytes(total_bytes)))
    print()

    moved = {n: keys_moved(names_hash, n) for n in args.replicas}
    for s in args.zipf:
        stream_rng = random.Random("%d-%s" % (args.seed, s))
        cumulative = []
        total = 0.0
        for k in range(1, args.objects + 1):
            total += 1.0 / k ** s
            cumulative.append(total)
        ranks = list(range(args.objects))
        stream_rng.shuffle(ranks)   # rank -> object: popularity unrelated to name or ring position
        stream = [ranks[r] for r in stream_rng.choices(range(args.objects), cum_weights=cumulative, k=args.requests)]
        distinct = len(set(stream))
        print("## Zipf s = %.2f (%d distinct objects requested)" % (s, distinct))
        print()
        print("| replicas | strategy | hit ratio (memory / any) | origin req per 1000 (warm / from cold) | "
              "disk bytes per replica (mean / max) | busiest replica, requests vs mean | keys moved when one is removed |")
        print("|---|---|---|---|---|---|---|")
        for n in args.replicas:
            ring = Ring(server_names(n)) if n > 1 else None
            for strategy in (("hash", "rr") if n > 1 else ("hash",)):
                r = simulate(stream, sizes, names_hash, n, strategy if n > 1 else "rr", ring,
                             memory_limit, disk_limit, warm_from)
                label = "one replica" if n == 1 else ("consistent hash" if strategy == "hash" else "round robin")
                move = "-"
                if n > 1:
                    move = "%.1f%% (1/N = %.1f%%)" % (100 * moved[n], 100 / n) if strategy == "hash" else "none: each replica holds its own copy"
                print("| %d | %s | %.3f / %.3f | %.1f / %.1f | %s / %s | %.2f× | %s |" % (
                    n, label, r["memory_hit"], r["hit"], r["origin_per_1000"], r["cold_origin_per_1000"],
                    human_bytes(r["bytes_mean"]), human_bytes(r["bytes_max"]), r["busiest"], move))
                sys.stdout.flush()
        print()

    print("## Sizing figures")
    print()
    print("- mean object size %.1f KiB: %d objects per GiB of disk budget (body bytes; add each entry's stored head "
          "and file-system block rounding)" % (mean_size / 1024, GIB // mean_size))
    print("- all %d objects together: %s = %.1f replicas' disk budgets of %s" % (
        args.objects, human_bytes(total_bytes), total_bytes / disk_limit, human_bytes(disk_limit)))
    print()
    print("runtime %.0f s" % (time.monotonic() - started))


if __name__ == "__main__":
    main()
