#!/usr/bin/env python3
"""cputime.py — run a command and print its CPU and wall time with microsecond resolution.

Usage: cputime.py [--timeout SECONDS] -- COMMAND [ARGS...]
Prints one line: CPUTIME user_us=N sys_us=N cpu_us=N wall_us=N maxrss_kb=N status=N
(user and system time of the child and its descendants, from wait4's rusage; /usr/bin/time rounds
to 10 ms). The child is killed after --timeout seconds (default 600) and status is then -9.
"""
import os
import signal
import subprocess
import sys
import time


def main() -> int:
    args = sys.argv[1:]
    timeout = 600.0
    if args[:1] == ["--timeout"]:
        timeout = float(args[1])
        args = args[2:]
    if args[:1] == ["--"]:
        args = args[1:]
    if not args:
        print(__doc__, file=sys.stderr)
        return 2
    start = time.monotonic()
    child = subprocess.Popen(args)
    deadline = start + timeout
    while True:
        pid, status, usage = os.wait4(child.pid, os.WNOHANG)
        if pid == child.pid:
            break
        if time.monotonic() > deadline:
            child.send_signal(signal.SIGKILL)
            pid, status, usage = os.wait4(child.pid, 0)
            break
        time.sleep(0.002)
    wall = time.monotonic() - start
    code = os.waitstatus_to_exitcode(status)
    user = int(usage.ru_utime * 1e6)
    system = int(usage.ru_stime * 1e6)
    print(f"CPUTIME user_us={user} sys_us={system} cpu_us={user + system} wall_us={int(wall * 1e6)} "
          f"maxrss_kb={usage.ru_maxrss} status={code}", flush=True)
    return 0 if code == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
