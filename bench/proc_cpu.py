#!/usr/bin/env python3
"""CPU seconds a server has used: the process (all its threads), the
children it reaped and its live descendants. For hekla serve that is the
one process; for PostgreSQL the postmaster and its backends (those that
already exited are in the postmaster's reaped ticks). Used by
bench/compare/compare.py and, as `proc_cpu.py PID`, by bench/ycsb/run.sh."""

import os
import sys
from pathlib import Path

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def _stat(pid):
    """(parent pid, own ticks, reaped children's ticks) of a process."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    # The command name may hold spaces: the fields start after the last ')'.
    fields = text[text.rfind(")") + 1 :].split()
    return int(fields[1]), int(fields[11]) + int(fields[12]), int(fields[13]) + int(fields[14])


def tree_cpu_seconds(root):
    """CPU seconds of `root` (all its threads), the children it reaped, and
    its live descendants: hekla serve, or PostgreSQL's postmaster and its
    backends (those that already exited are in the postmaster's reaped
    ticks)."""
    children = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            stat = _stat(entry)
            if stat:
                children.setdefault(stat[0], []).append(int(entry))
    own = _stat(root)
    if own is None:
        return 0.0
    ticks = own[1] + own[2]
    pending = list(children.get(root, []))
    while pending:
        pid = pending.pop()
        stat = _stat(pid)
        if stat:
            ticks += stat[1]
        pending.extend(children.get(pid, []))
    return ticks / CLOCK_TICKS


if __name__ == "__main__":
    print(f"{tree_cpu_seconds(int(sys.argv[1])):.2f}")
