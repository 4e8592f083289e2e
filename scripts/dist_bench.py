#!/usr/bin/env python3
"""ordo-dist against ordo (and Gemini where given) on the same files, interleaved.

For every graph and application, each round runs, one after the other: `ordo` at 1 and 2
threads, `ordo-dist` with 1 rank at 1 and 2 threads, and `ordo-dist` with 2 ranks of 1 thread;
the table shows the median run time (`time_s`, the kernel alone) and ordo-dist's ratio to ordo.
With --gemini, Gemini's bfs and pagerank (a fixed number of iterations, --iterations) run in
the same rounds on the graph's binary edge list (written next to the converted graph on first
use), and pagerank gets a second row where ordo and ordo-dist run that many iterations too.

    cargo build --release -p ordo-cli -p ordo-dist
    scripts/dist_bench.py /tmp/ny.ordo /tmp/kron20.ordo --apps bfs,cc,pagerank --rounds 3
    scripts/dist_bench.py /tmp/kron20.ordo --apps bfs,pagerank --gemini ../shared/peers/bin

Graphs are paths `ordo` reads (an `.ordo` binary loads fastest). Every run passes
--no-verify: the tests check the results, this measures them.
"""

import argparse
import json
import os
import statistics
import struct
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ORDO = os.path.join(ROOT, "target/release/ordo")
DIST = os.path.join(ROOT, "target/release/ordo-dist")
MPIRUN = ["mpirun", "--allow-run-as-root", "--oversubscribe", "--bind-to", "none"]


def run_json(cmd):
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"failed ({out.returncode}): {' '.join(cmd)}\n{out.stderr}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def ordo(app, graph, threads, extra):
    cmd = [ORDO, app, graph, "--threads", str(threads), *extra, "--no-verify", "--json"]
    return run_json(cmd)["time_s"]


def dist(app, graph, ranks, threads, extra):
    cmd = [*MPIRUN, "-np", str(ranks), DIST, app, graph, "--threads", str(threads), *extra]
    return run_json([*cmd, "--no-verify", "--json"])["time_s"]


def gemini_input(graph):
    """The graph's arcs as (u32 source, u32 target) records, and its node count."""
    path = graph + ".gemini"
    info = run_json([ORDO, "info", graph, "--json"])
    nodes = info["nodes"]
    if not os.path.exists(path):
        text = graph + ".el"
        subprocess.run([ORDO, "convert", graph, text], check=True, capture_output=True)
        with open(text) as f, open(path, "wb") as out:
            for line in f:
                if line[0] != "#":
                    u, v = line.split()[:2]
                    out.write(struct.pack("<II", int(u), int(v)))
        os.remove(text)
    return path, nodes


def gemini(bindir, app, edges, nodes, ranks, iterations):
    """Gemini's time at `ranks` ranks of one thread each."""
    binary = os.path.join(bindir, "gemini-bfs" if app == "bfs" else "gemini-pagerank")
    last = "0" if app == "bfs" else str(iterations)
    cmd = [*MPIRUN, "-np", str(ranks), "-x", "OMP_NUM_THREADS=1"]
    out = subprocess.run([*cmd, binary, edges, str(nodes), last], capture_output=True, text=True)
    for line in out.stdout.splitlines():
        if line.startswith("exec_time="):
            return float(line.split("=")[1].rstrip("(s)"))
    sys.exit(f"gemini printed no exec_time: {out.stdout}\n{out.stderr}")


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("graphs", nargs="+")
    p.add_argument("--apps", default="bfs,cc,pagerank,sssp")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--gemini", metavar="BINDIR", help="also run Gemini's bfs and pagerank")
    p.add_argument("--iterations", type=int, default=20,
                   help="Gemini's PageRank iterations, and those of the fixed-count row")
    a = p.parse_args()
    configs = [("ordo", 1, 1), ("ordo", 1, 2), ("dist", 1, 1), ("dist", 1, 2), ("dist", 2, 1)]
    print("| graph | app | ordo 1t | ordo 2t | dist 1x1 | dist 1x2 | dist 2x1 |"
          " 1x1 / ordo 1t | 1x2 / ordo 2t | 2x1 / 1x1 | Gemini 1x1 | Gemini 2x1 |")
    print("|---" * 12 + "|")
    for graph in a.graphs:
        name = os.path.basename(graph)
        edges = nodes = None
        if a.gemini:
            edges, nodes = gemini_input(graph)
        apps = a.apps.split(",")
        rows = [(app, [], app) for app in apps]
        if a.gemini and "pagerank" in apps:
            fixed = ["--iterations", str(a.iterations)]
            rows.append(("pagerank", fixed, f"pagerank {a.iterations} it"))
        for app, extra, label in rows:
            times = {c: [] for c in configs}
            gem = {1: [], 2: []}
            for _ in range(a.rounds):
                for c in configs:
                    kind, ranks, threads = c
                    if kind == "ordo":
                        times[c].append(ordo(app, graph, threads, extra))
                    else:
                        times[c].append(dist(app, graph, ranks, threads, extra))
                if a.gemini and app in ("bfs", "pagerank"):
                    for ranks in (1, 2):
                        gem[ranks].append(gemini(a.gemini, app, edges, nodes, ranks, a.iterations))
            med = {c: statistics.median(v) for c, v in times.items()}
            g1 = f"{statistics.median(gem[1]) * 1e3:.1f}" if gem[1] else "-"
            g2 = f"{statistics.median(gem[2]) * 1e3:.1f}" if gem[2] else "-"
            ms = [f"{med[c] * 1e3:.1f}" for c in configs]
            r1 = med[("dist", 1, 1)] / med[("ordo", 1, 1)]
            r2 = med[("dist", 1, 2)] / med[("ordo", 1, 2)]
            r3 = med[("dist", 2, 1)] / med[("dist", 1, 1)]
            print(f"| {name} | {label} | " + " | ".join(ms) + f" | {r1:.2f} | {r2:.2f} | {r3:.2f} | {g1} | {g2} |",
                  flush=True)


if __name__ == "__main__":
    main()
