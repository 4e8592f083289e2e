#!/usr/bin/env python3
"""Dynamic against static tasking in ordo-dist: the experiment of the dynamic-tasking paper
(Drocco et al., SC'18 poster, Fig. 3), triangle counting on Erdos-Renyi graphs.

Each round runs, one after the other, every configuration of both designs on the same
generated graph and rank count:
* dynamic (the default): reservation-free spawning, with --buffer-limit swept (the memory it
  may buffer, its one sizing parameter);
* static (`--tasking static`, GMT's reservation protocol): --task-pool swept at GMT's block of
  1024, then --reserve-block swept at GMT's pool.
The table gives the median time of each configuration, its ratio to dynamic's default, the
reservation traffic, and for each design the spread (slowest over fastest configuration).

    cargo build --release -p ordo-dist
    scripts/tasking_bench.py --scale 16 --ranks 2,4 --rounds 3

More ranks than cores run oversubscribed: the times then measure the protocol's waiting
more than the work. Every run passes --no-verify (the tests check the answers).
"""

import argparse
import json
import os
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DIST = os.path.join(ROOT, "target/release/ordo-dist")
MPIRUN = ["mpirun", "--allow-run-as-root", "--oversubscribe", "--bind-to", "none"]
GMT_POOL = 1 << 21
GMT_BLOCK = 1024


def configs(ranks):
    """(label, extra arguments) of every configuration at `ranks` ranks."""
    out = [("dynamic", [])]
    for limit in ["1M", "256M"]:
        out.append((f"dynamic limit {limit}", ["--buffer-limit", limit]))
    smallest = GMT_BLOCK * (ranks - 1)
    for pool in sorted({smallest, 4 * smallest, 32 * smallest, GMT_POOL}):
        out.append((f"static pool {pool}", ["--tasking", "static", "--task-pool", str(pool)]))
    for block in [64, 256, 8192]:
        out.append(
            (f"static block {block}", ["--tasking", "static", "--reserve-block", str(block)])
        )
    return out


def run(graph, ranks, threads, extra, timeout):
    cmd = [*MPIRUN, "-np", str(ranks), DIST, "tc", graph, "--threads", str(threads)]
    cmd += [*extra, "--no-verify", "--json"]
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None
    if out.returncode != 0:
        sys.exit(f"failed ({out.returncode}): {' '.join(cmd)}\n{out.stderr}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--scale", type=int, default=16, help="gen:er:SCALE (2^SCALE nodes)")
    ap.add_argument("--ranks", default="2,4")
    ap.add_argument("--threads", type=int, default=1, help="workers per rank")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--timeout", type=float, default=300, help="seconds per run (then: >)")
    a = ap.parse_args()
    graph = f"gen:er:{a.scale}"
    print(f"tc on {graph}, {a.threads} worker(s) per rank, median of {a.rounds} rounds\n")
    for ranks in [int(r) for r in a.ranks.split(",")]:
        cs = configs(ranks)
        times = {label: [] for label, _ in cs}
        last = {}
        for _ in range(a.rounds):
            for label, extra in cs:
                j = run(graph, ranks, a.threads, extra, a.timeout)
                times[label].append(j["time_s"] if j else float("inf"))
                if j:
                    last[label] = j
        med = {k: statistics.median(v) for k, v in times.items()}
        base = med["dynamic"]
        print(f"### {ranks} ranks\n")
        print("| configuration | time (s) | / dynamic | requests | refused | waits |")
        print("|---|---|---|---|---|---|")
        for label, _ in cs:
            j = last.get(label, {})
            t = med[label]
            shown = f"{t:.3f}" if t != float("inf") else f"> {a.timeout:.0f}"
            cells = [j.get(k, "-") for k in ["reserve_requests", "reserve_denied", "slot_waits"]]
            print(f"| {label} | {shown} | {t / base:.2f} | " + " | ".join(map(str, cells)) + " |")
        for design in ["dynamic", "static"]:
            ts = [t for k, t in med.items() if k.startswith(design)]
            print(f"\n{design}: spread {max(ts) / min(ts):.2f}x over {len(ts)} configurations")
        print()


if __name__ == "__main__":
    main()
