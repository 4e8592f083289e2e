#!/usr/bin/env python3
"""Every scheduler side by side on one app and graph: median time and tasks executed (work
increase over `serial`), at each thread count, all verified.

    bench/experiments/scheduler_matrix.py sssp ../shared/data/USA-road-d.NY.gr.gz --threads 1 2
    bench/experiments/scheduler_matrix.py bfs ../shared/data/soc-Slashdot0902.txt.gz --repeat 5

Extra arguments after `--` go to `ordo` (e.g. `-- --weights 1:255:1`).
"""
import argparse
import json
import subprocess
import sys

SCHEDULERS = ["serial", "obim", "pmod", "smq", "mq", "reld", "spraylist", "heap", "sheap", "pheap", "fifo"]


def run(ordo, app, graph, sched, threads, repeat, extra):
    cmd = [ordo, app, graph, "--scheduler", sched, "--threads", str(threads),
           "--repeat", str(repeat), "--json"] + extra
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode != 0:
        return None, out.stderr.strip()
    return json.loads(out.stdout), None


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("app", choices=["sssp", "bfs"])
    ap.add_argument("graph")
    ap.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--schedulers", nargs="+", default=SCHEDULERS)
    ap.add_argument("--ordo", default="target/release/ordo")
    # argparse cannot take options meant for ordo, so split them off at `--` first.
    argv = sys.argv[1:]
    extra = argv[argv.index("--") + 1:] if "--" in argv else []
    a = ap.parse_args(argv[:argv.index("--")] if "--" in argv else argv)
    a.extra = extra
    base = None
    print(f"{'scheduler':<18} {'threads':>7} {'time ms':>9} {'tasks':>10} {'work x':>7}  verified")
    for s in a.schedulers:
        for t in a.threads:
            if s == "serial" and t != 1:
                continue
            d, err = run(a.ordo, a.app, a.graph, s, t, a.repeat, a.extra)
            if d is None:
                print(f"{s:<18} {t:>7}  error: {err}")
                continue
            tasks = d["stats"]["tasks"]
            if s == "serial":
                base = tasks
            wi = f"{tasks / base:.2f}" if base else "-"
            print(f"{d['scheduler_label']:<18} {t:>7} {d['time_s'] * 1e3:>9.1f} {tasks:>10} {wi:>7}  {d['verified']}")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
