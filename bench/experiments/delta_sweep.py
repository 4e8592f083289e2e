#!/usr/bin/env python3
"""`ordo sssp` with its own delta against every delta near it: is the default within a few
percent of the best hand-tuned width? (The criterion `auto` is held to.)

Run `../shared/peers/compare.py prep` first: this script reads the graphs and sources it
converted. For each graph and thread count it times the default (`auto`, which reports the
delta it picked) and `--delta K` for K from `auto - below` to `auto + above`, interleaved in
rounds so that the machine's drift hits every width alike. A cell is the median of all later
runs of all rounds (each process's first run is left out: it faults its memory in).

  bench/experiments/delta_sweep.py ny,rome,grid1m 1,2
  bench/experiments/delta_sweep.py all 1,2
  ROUNDS=5 bench/experiments/delta_sweep.py kron20 2 --below 2 --above 6

Prints, per graph and thread count, the default's delta and time, the best delta and its
time, and default / best.
"""
import argparse
import json
import os
import statistics
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
GRAPHS = os.environ.get("PEERS_WORK", "/tmp/ordo-peers/graphs")
ORDO = os.environ.get("ORDO", os.path.join(HERE, "..", "..", "target", "release", "ordo"))
ROUNDS = int(os.environ.get("ROUNDS", "3"))
REPEAT = int(os.environ.get("REPEAT", "6"))


def times(app, graph, source, threads, delta):
    cmd = [ORDO, app, f"{GRAPHS}/{graph}.ordo", "-t", str(threads), "--source", str(source),
           "--repeat", str(REPEAT), "--no-verify", "--json"]
    if delta is not None:
        cmd += ["--delta", str(delta)]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    report = json.loads(out)
    return report["times_s"][1:], report.get("delta")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("graphs", help="comma-separated names from compare.py's manifest, or all")
    ap.add_argument("threads", help="comma-separated thread counts")
    ap.add_argument("--below", type=int, default=2, help="widths below the default's to try")
    ap.add_argument("--above", type=int, default=4, help="widths above the default's to try")
    ap.add_argument("--app", default="sssp", choices=["sssp"])
    a = ap.parse_args()
    manifest = json.load(open(f"{GRAPHS}/manifest.json"))
    names = list(manifest) if a.graphs == "all" else a.graphs.split(",")
    print(f"{'graph':11}{'t':>2} {'auto':>5} {'auto ms':>9} {'best':>5} {'best ms':>9} {'auto/best':>10}")
    for g in names:
        m = manifest[g]
        for t in map(int, a.threads.split(",")):
            _, auto = times(a.app, g, m["source"], t, None)
            widths = [None] + list(range(max(0, auto - a.below), auto + a.above + 1))
            runs = {w: [] for w in widths}
            for _ in range(ROUNDS):
                for w in widths:
                    runs[w] += times(a.app, g, m["source"], t, w)[0]
            med = {w: statistics.median(v) * 1000 for w, v in runs.items()}
            best = min((w for w in widths if w is not None), key=lambda w: med[w])
            sweep = " ".join(f"{w}:{med[w]:.2f}" for w in widths if w is not None)
            print(f"{g:11}{t:>2} {auto:>5} {med[None]:9.2f} {best:>5} {med[best]:9.2f} "
                  f"{med[None] / med[best]:10.3f}   [{sweep}]", flush=True)


if __name__ == "__main__":
    main()
