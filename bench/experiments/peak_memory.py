#!/usr/bin/env python3
"""Peak memory of `ordo APP GRAPH --no-verify` against the graph's file size, app by app.

  bench/experiments/peak_memory.py APPS GRAPHS [THREADS]
  bench/experiments/peak_memory.py mst,pfp /tmp/ordo-peers/graphs/ny.ordo,/tmp/ordo-peers/graphs/slashdot.ordo 1,2

Run from the project root after `cargo build --release`. For each run it prints the peak
resident set (`/usr/bin/time -f %M`), its ratio to the file's size, and the "excess": the peak
less the same application's peak on a five-node graph (the process alone: libc, the binary's
text pages, the worker pool; 5.6-6.5 MiB), over the file's size. On small files the process
dominates the first ratio; the second says what the run holds per byte of graph. Rows whose
excess passes 2 (the memory goal) are marked. The five-node graph is written to a temporary
directory; sources are node 1.
"""
import os
import subprocess
import sys
import tempfile

ORDO = os.path.abspath("target/release/ordo")
# Apps that need a source, and how they take it.
SOURCE = {"sssp": ["--source", "1"], "bfs": ["--source", "1"], "bc": ["--sources", "1,"]}


def peak_bytes(args):
    """The peak resident set of the command `args`, in bytes (it must succeed). Measured by
    GNU time, not by this process's `wait4`: a child forked from Python starts with Python's
    pages, and its `ru_maxrss` keeps them."""
    r = subprocess.run(["/usr/bin/time", "-f", "%M"] + args, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"failed ({r.returncode}): {' '.join(args)}\n{r.stderr[-500:]}")
    return int(r.stderr.strip().splitlines()[-1]) * 1024


def main():
    if len(sys.argv) not in (3, 4) or not os.access(ORDO, os.X_OK):
        sys.exit(__doc__)
    if not os.access("/usr/bin/time", os.X_OK):
        sys.exit("needs GNU time (/usr/bin/time): apt-get install time")
    for graph in sys.argv[2].split(","):
        if not os.path.isfile(graph):
            sys.exit(f"{graph}: no such file")
    apps, graphs = sys.argv[1].split(","), sys.argv[2].split(",")
    threads = (sys.argv[3] if len(sys.argv) == 4 else "1").split(",")
    with tempfile.TemporaryDirectory() as tmp:
        tiny = os.path.join(tmp, "tiny.gr")
        with open(tiny, "w") as f:
            f.write("p sp 5 5\na 1 2 1\na 2 3 1\na 3 4 1\na 4 5 1\na 5 1 1\n")
        base = {}
        print(f"{'app':9}{'graph':24}{'t':>2} {'peak MiB':>9} {'file MiB':>9} {'x file':>7} {'excess':>7}")
        for app in apps:
            for graph in graphs:
                size = os.path.getsize(graph)
                for t in threads:
                    run = ["-t", t, "--no-verify"] + SOURCE.get(app, [])
                    if (app, t) not in base:
                        base[app, t] = min(peak_bytes([ORDO, app, tiny] + run) for _ in range(3))
                    peak = peak_bytes([ORDO, app, graph] + run)
                    excess = (peak - base[app, t]) / size
                    mark = "  > 2" if excess > 2 else ""
                    name = os.path.basename(graph)
                    print(f"{app:9}{name:24}{t:>2} {peak / 2**20:9.1f} {size / 2**20:9.1f} "
                          f"{peak / size:7.2f} {excess:7.2f}{mark}", flush=True)


if __name__ == "__main__":
    main()
