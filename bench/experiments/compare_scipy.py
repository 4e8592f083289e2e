#!/usr/bin/env python3
"""SSSP side by side: scipy.sparse.csgraph.dijkstra vs `ordo sssp` (serial and obim) on the
same graph and source, checking that the distances agree.

Usage: bench/experiments/compare_scipy.py GRAPH.gr[.gz] [--source 1] [--repeat 5]
Needs numpy + scipy (pip install scipy) and a release build (cargo build --release).
"""
import argparse, gzip, json, subprocess, sys, time
from pathlib import Path

import numpy as np
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import dijkstra

ROOT = Path(__file__).resolve().parents[2]
ORDO = ROOT / "target" / "release" / "ordo"


def read_dimacs(path):
    opener = gzip.open if str(path).endswith(".gz") else open
    src, dst, w, n = [], [], [], 0
    with opener(path, "rt") as f:
        for line in f:
            if line.startswith("p"):
                n = int(line.split()[2])
            elif line.startswith("a"):
                _, u, v, x = line.split()
                src.append(int(u) - 1); dst.append(int(v) - 1); w.append(int(x))
    # DIMACS files may hold parallel arcs: keep the lightest, as shortest paths would.
    order = np.lexsort((np.array(w), np.array(dst), np.array(src)))
    s, d, x = np.array(src)[order], np.array(dst)[order], np.array(w, dtype=np.float64)[order]
    keep = np.ones(len(s), bool); keep[1:] = (s[1:] != s[:-1]) | (d[1:] != d[:-1])
    return csr_matrix((x[keep], (s[keep], d[keep])), shape=(n, n))


def ordo(graph, source, sched, threads, repeat):
    out = subprocess.run([str(ORDO), "sssp", str(graph), "--json", "--source", str(source),
                          "--scheduler", sched, "--threads", str(threads), "--repeat", str(repeat)],
                         check=True, capture_output=True, text=True)
    return json.loads(out.stdout)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("graph"); ap.add_argument("--source", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=5)
    a = ap.parse_args()
    m = read_dimacs(a.graph)
    times = []
    for _ in range(a.repeat):
        t = time.perf_counter(); d = dijkstra(m, indices=a.source - 1); times.append(time.perf_counter() - t)
    scipy_s = sorted(times)[len(times) // 2]
    finite = np.isfinite(d)
    rows = [("scipy dijkstra", 1, scipy_s, int(d[finite].sum()))]
    for sched, threads in [("serial", 1), ("obim", 1), ("obim", 2)]:
        j = ordo(a.graph, a.source, sched, threads, a.repeat)
        rows.append((j["scheduler_label"], threads, j["time_s"], j["dist_sum"]))
    print(f"{'who':<22} {'threads':>7} {'time ms':>9} {'vs scipy':>9}  dist_sum")
    for who, t, s, ds in rows:
        print(f"{who:<22} {t:>7} {s*1e3:>9.2f} {scipy_s/s:>8.2f}x  {ds}")
    agree = len({r[3] for r in rows}) == 1
    print("distances agree:", agree)
    sys.exit(0 if agree else 1)


if __name__ == "__main__":
    main()
