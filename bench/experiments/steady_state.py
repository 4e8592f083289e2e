#!/usr/bin/env python3
"""ordo against GAPBS in the steady state: the first trial of every process dropped.

compare.py (../shared/peers) times three trials per process. On a 2-core AMD EPYC VM a
process's first 100-150 ms at 2 threads run 2-5x slow for ordo (not for GAPBS), so its cells
mix that phase in; this script reports what a long-running user sees. Run `compare.py prep`
first: it converts the graphs this script reads.

  bench/experiments/steady_state.py bfs ny,rome,kron20 1,2
  ROUNDS=5 TRIALS=20 bench/experiments/steady_state.py pagerank slashdot 1

Apps: sssp, bfs, cc, pagerank, bc. Prints ordo's and GAPBS's median (ms) and their ratio.
"""
import json
import os
import re
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
PEERS = os.environ.get("PEERS", os.path.join(HERE, "..", "..", "..", "shared", "peers", "bin"))
# compare.py's --work default: where `compare.py prep` put the converted graphs.
GRAPHS = os.environ.get("PEERS_WORK", "/tmp/ordo-peers/graphs")
ORDO = os.environ.get("ORDO", os.path.join(HERE, "..", "..", "target", "release", "ordo"))


def commands(app, m):
    """ordo's extra arguments, and GAPBS's kernel, file suffix and arguments."""
    s, n = m["source"], m["nodes"]
    return {
        "sssp": (["--source", str(s)], ("sssp", "wsg", ["-r", str(s - 1), "-d", str(m["gapbs_delta"])])),
        "bfs": (["--source", str(s)], ("bfs", "sg", ["-r", str(s - 1)])),
        "cc": ([], ("cc", "sg", [])),
        "pagerank": (["--tolerance", f"{1e-4 / n:.3e}"], ("pr", "sg", ["-t", "1e-4", "-i", "1000"])),
        "bc": (["--sources", f"{s},"], ("bc", "sg", ["-r", str(s - 1), "-i", "1"])),
    }[app]


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    app, graphs, threads = sys.argv[1], sys.argv[2].split(","), sys.argv[3].split(",")
    rounds, trials = int(os.environ.get("ROUNDS", "3")), os.environ.get("TRIALS", "10")
    path = os.path.join(GRAPHS, "manifest.json")
    if not os.path.exists(path):
        sys.exit(f"{path} not found: run ../shared/peers/compare.py prep first (or set PEERS_WORK)")
    manifest = json.load(open(path))
    unknown = [g for g in graphs if g not in manifest]
    if unknown or app not in ("sssp", "bfs", "cc", "pagerank", "bc"):
        sys.exit(f"unknown app or graph {unknown or app}; graphs: {', '.join(manifest)}")
    for g in graphs:
        ordo_args, (kernel, suffix, gapbs_args) = commands(app, manifest[g])
        for t in threads:
            ours, theirs = [], []
            for _ in range(rounds):
                cmd = [ORDO, app, f"{GRAPHS}/{g}.ordo", "-t", t, "--repeat", trials, "--no-verify", "--json"]
                out = subprocess.run(cmd + ordo_args, capture_output=True, text=True, check=True).stdout
                ours += json.loads(out.splitlines()[0])["times_s"][1:]
                cmd = [f"{PEERS}/gapbs-{kernel}", "-f", f"{GRAPHS}/{g}.{suffix}", "-n", trials] + gapbs_args
                out = subprocess.run(cmd, capture_output=True, text=True, check=True, env={"OMP_NUM_THREADS": t}).stdout
                theirs += [float(x) for x in re.findall(r"Trial Time:\s+([0-9.]+)", out)][1:]
            a, b = statistics.median(ours) * 1e3, statistics.median(theirs) * 1e3
            print(f"{app} {g:10} t={t} ordo {a:8.2f}  gapbs {b:8.2f}  ratio {a / b:.3f}", flush=True)


if __name__ == "__main__":
    main()
