#!/usr/bin/env python3
"""ordo from Python next to scipy, NetworKit, igraph, rustworkx and networkx.

Each library gets the same graph (built from ordo's CSR arrays, outside the timing), the same
source and the same tolerance; each result is checked against ordo's, and the table reports
the median time of --repeat runs and the ratio to ordo (above 1: ordo is faster). Libraries
that are not installed are skipped (`ORDO_PEERS=1 scripts/python_env.sh` installs them).

    .venv/bin/python scripts/py_bench.py                       # the default graphs
    .venv/bin/python scripts/py_bench.py --graphs USA-road-d.NY.gr.gz --apps sssp,bfs --repeat 5
    .venv/bin/python scripts/py_bench.py --json results.jsonl  # one JSON object per row as well

BC is unnormalized, in hops, on the simple directed graph, summed over BC_SOURCES sources
drawn once (seed 1) from the nodes with out-arcs; scores agree within 1e-9 relative.

Unweighted graphs get the papers' random weights 1..255 (seed 1) for SSSP, the same for every
library. PageRank is networkx's definition (damping 0.85, dangling mass spread uniformly) on the
graph without parallel arcs; each library's scores are compared with exact ones (numpy power
iteration to 1e-13), and agree when their L1 error is within 2 alpha / (1 - alpha) n tol (about
11 n tol): an iteration whose L1 change is below n tol (networkx's and ordo's meaning of tol) is
that close to the exact scores once normalized (ordo's pagerank docs derive it). The error is
printed, since libraries read tol differently (NetworKit's and igraph's answers are far closer).
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import statistics
import sys
import time

import numpy as np

import ordo

REPO = pathlib.Path(__file__).resolve().parents[1]
DEFAULT_GRAPHS = [
    "USA-road-d.NY.gr.gz",
    "osm-rome.gr.gz",
    "soc-Slashdot0902.txt.gz",
    "email-Enron.txt.gz",
]
APPS = ["sssp", "bfs", "pagerank", "cc", "mst", "bc"]
SOURCE = 0
# PageRank tolerance in networkx's meaning (L1 change below n tol); --pr-tol changes it.
PR_TOL = 1e-6
# BC runs from this many sources, the same for every library (networkx and igraph can take a
# source list; NetworKit and rustworkx compute all-source or randomly sampled betweenness only).
BC_SOURCES = 8


def optional(name):
    try:
        return __import__(name)
    except ImportError:
        return None


def timed(fn, repeat):
    """(median seconds, last result) of `repeat` calls."""
    times, out = [], None
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times), out


class Peers:
    """Every installed library's copy of one graph, built once."""

    def __init__(self, G: ordo.Graph, weighted: ordo.Graph):
        self.n = G.num_nodes
        A = weighted.to_scipy(parallel="min")
        self.scipy = A
        self.scipy_unit = G.to_scipy(parallel="min")
        self.scipy_unit.data[:] = 1
        coo = A.tocoo()
        self.rows, self.cols, self.w = coo.row, coo.col, coo.data.astype(float)
        nk, ig, rx = optional("networkit"), optional("igraph"), optional("rustworkx")
        self.nk = self.ig = self.rx = None
        if nk is not None:
            g = nk.Graph(self.n, weighted=True, directed=True)
            g.addEdges((self.w, (self.rows, self.cols)))
            self.nk = g
        if ig is not None:
            g = ig.Graph(n=self.n, edges=np.column_stack([self.rows, self.cols]).tolist(), directed=True)
            g.es["weight"] = self.w.tolist()
            self.ig = g
        if rx is not None:
            g = rx.PyDiGraph(multigraph=False)
            g.add_nodes_from(range(self.n))
            g.add_edges_from(list(zip(self.rows.tolist(), self.cols.tolist(), self.w.tolist())))
            self.rx = g


def same_distances(a, b):
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    # Libraries write "unreachable" as inf, a huge float or -1.
    fix = lambda x: np.where((x < 0) | (x > 1e300), np.inf, x)
    return bool(np.array_equal(fix(a), fix(b))), ""


def partition_equal(ours, theirs):
    theirs = np.asarray(theirs)
    same = len(set(zip(ours.tolist(), theirs.tolist()))) == len(set(ours.tolist())) == len(set(theirs.tolist()))
    return same, f"{len(set(theirs.tolist()))} components"


def undirected_edges(P):
    """(lo, hi, weight) of the undirected simple view: no self-loops, the lighter of an edge's
    arcs (ordo's MST definition)."""
    lo, hi = np.minimum(P.rows, P.cols), np.maximum(P.rows, P.cols)
    keep = lo != hi
    lo, hi, w = lo[keep], hi[keep], P.w[keep]
    order = np.lexsort((w, hi, lo))
    lo, hi, w = lo[order], hi[order], w[order]
    first = np.ones(lo.size, dtype=bool)
    first[1:] = (lo[1:] != lo[:-1]) | (hi[1:] != hi[:-1])
    return lo[first], hi[first], w[first]


def same_forest_weight(ours, theirs):
    """Minimum spanning forests may differ on ties; their edge count and weight may not."""
    (n1, w1), (n2, w2) = ours, theirs
    return n1 == n2 and abs(w1 - w2) <= 1e-9 * max(1.0, w1), f"{n2} edges, weight {w2:.0f}"


def exact_pagerank(A, alpha=0.85):
    """networkx's PageRank by power iteration until the L1 change is below 1e-13."""
    n = A.shape[0]
    out = np.asarray(A.sum(axis=1)).ravel()
    dangling = out == 0
    inv = np.where(dangling, 0.0, 1.0 / np.maximum(out, 1))
    AT = A.T.tocsr()
    x = np.full(n, 1.0 / n)
    for _ in range(10_000):
        nxt = alpha * (AT @ (x * inv)) + (alpha * x[dangling].sum() + 1 - alpha) / n
        done = np.abs(nxt - x).sum() < 1e-13
        x = nxt
        if done:
            break
    return x


def pagerank_check(exact, tol, alpha=0.85):
    n = exact.size
    # The last change δ < n tol bounds the distance to the fixed point by α δ / (1 - α), and
    # normalizing at most doubles it.
    bound = 2 * alpha / (1 - alpha) * n * tol

    def agrees(_ours, theirs):
        err = float(np.abs(np.asarray(theirs, dtype=float) - exact).sum())
        return err <= bound, f"L1 error {err:.1e}"

    return agrees


def bc_sources(P):
    """BC_SOURCES node ids with out-arcs, drawn with a fixed seed."""
    has_out = np.flatnonzero(np.diff(P.scipy_unit.indptr) > 0)
    rng = np.random.default_rng(1)
    return sorted(rng.choice(has_out, size=min(BC_SOURCES, has_out.size), replace=False).tolist())


def same_scores(ours, theirs):
    a, b = np.asarray(ours, dtype=float), np.asarray(theirs, dtype=float)
    err = float(np.max(np.abs(a - b) / np.maximum(1.0, np.abs(a)))) if a.size else 0.0
    return a.shape == b.shape and err <= 1e-9, f"max relative error {err:.1e}"


def cases(app, G, W, P, pr_tol=PR_TOL):
    """(library, call, agrees(result, ordo_result)) for one application."""
    import scipy.sparse.csgraph as csg

    nk, nx = optional("networkit"), optional("networkx")
    if app == "sssp":
        yield "ordo", lambda: ordo.sssp(W, SOURCE), None
        yield "scipy", lambda: csg.dijkstra(P.scipy, indices=SOURCE), same_distances
        if P.nk is not None:
            yield "networkit", lambda: nk.distance.Dijkstra(P.nk, SOURCE, storePaths=False).run().getDistances(), same_distances
        if P.ig is not None:
            yield "igraph", lambda: P.ig.distances(source=SOURCE, weights="weight")[0], same_distances
        if P.rx is not None:
            rx = optional("rustworkx")

            def rx_sssp():
                d = rx.digraph_dijkstra_shortest_path_lengths(P.rx, SOURCE, edge_cost_fn=float)
                out = np.full(P.n, np.inf)
                out[SOURCE] = 0
                out[list(d.keys())] = list(d.values())
                return out

            yield "rustworkx", rx_sssp, same_distances
    elif app == "bfs":
        yield "ordo", lambda: ordo.bfs(G, SOURCE), None
        yield "scipy", lambda: csg.shortest_path(P.scipy_unit, unweighted=True, indices=SOURCE), same_distances
        if P.nk is not None:
            unweighted = nk.graphtools.toUnweighted(P.nk)
            yield "networkit", lambda: nk.distance.BFS(unweighted, SOURCE, storePaths=False).run().getDistances(), same_distances
        if P.ig is not None:
            yield "igraph", lambda: P.ig.distances(source=SOURCE)[0], same_distances
    elif app == "pagerank":
        simple = ordo.Graph.from_scipy(P.scipy_unit, weighted=False)
        l1_close = pagerank_check(exact_pagerank(P.scipy_unit), pr_tol)
        yield "ordo", lambda: ordo.pagerank(simple, tol=pr_tol), l1_close
        if nx is not None:
            D = nx.from_scipy_sparse_array(P.scipy_unit, create_using=nx.DiGraph)
            # networkx's pagerank is scipy's sparse power iteration.
            yield "scipy (networkx)", lambda: np.array(list(dict(sorted(nx.pagerank(D, tol=pr_tol, max_iter=10000).items())).values())), l1_close
        if P.ig is not None:
            yield "igraph", lambda: P.ig.pagerank(damping=0.85), l1_close
        if P.rx is not None:
            rx = optional("rustworkx")

            def rx_pr():
                d = rx.pagerank(P.rx, alpha=0.85, tol=pr_tol, max_iter=10000, weight_fn=lambda _: 1.0)
                out = np.zeros(P.n)
                out[list(d.keys())] = list(d.values())
                return out

            yield "rustworkx", rx_pr, l1_close
        if P.nk is not None:
            unweighted = nk.graphtools.toUnweighted(P.nk)

            def nk_pr():
                pr = nk.centrality.PageRank(unweighted, damp=0.85, tol=pr_tol)
                pr.norm = nk.centrality.Norm.L1_NORM
                pr.run()
                return pr.scores()

            yield "networkit", nk_pr, l1_close
    elif app == "cc":
        yield "ordo", lambda: ordo.cc(G), None
        yield "scipy", lambda: csg.connected_components(P.scipy, directed=True, connection="weak")[1], partition_equal
        if P.ig is not None:
            yield "igraph", lambda: P.ig.connected_components(mode="weak").membership, partition_equal
        if P.rx is not None:
            rx = optional("rustworkx")

            def rx_cc():
                label = np.zeros(P.n, dtype=np.int64)
                for i, comp in enumerate(rx.weakly_connected_components(P.rx)):
                    label[list(comp)] = i
                return label

            yield "rustworkx", rx_cc, partition_equal
        if P.nk is not None:
            undirected = nk.graphtools.toUndirected(P.nk)

            def nk_cc():
                c = nk.components.ConnectedComponents(undirected)
                c.run()
                return c.getPartition().getVector()

            yield "networkit", nk_cc, partition_equal
    elif app == "mst":
        import scipy.sparse as sp

        lo, hi, w = undirected_edges(P)

        def ordo_mst():
            _, _, weights = ordo.mst(W)
            return len(weights), float(np.sum(weights))

        yield "ordo", ordo_mst, None

        def scipy_mst():
            # The weights are >= 1 here (file or 1..255), so no edge is lost as a sparse zero.
            T = csg.minimum_spanning_tree(sp.csr_matrix((w, (lo, hi)), shape=(P.n, P.n)))
            return T.nnz, float(T.sum())

        yield "scipy", scipy_mst, same_forest_weight
        if P.ig is not None:
            ig = optional("igraph")
            U = ig.Graph(n=P.n, edges=np.column_stack([lo, hi]).tolist(), directed=False)
            U.es["weight"] = w.tolist()

            def ig_mst():
                T = U.spanning_tree(weights="weight")
                return T.ecount(), float(sum(T.es["weight"]))

            yield "igraph", ig_mst, same_forest_weight
        if P.rx is not None:
            rx = optional("rustworkx")
            R = rx.PyGraph(multigraph=False)
            R.add_nodes_from(range(P.n))
            R.add_edges_from(list(zip(lo.tolist(), hi.tolist(), w.tolist())))

            def rx_mst():
                edges = rx.minimum_spanning_edges(R, weight_fn=float)
                return len(edges), float(sum(e[2] for e in edges))

            yield "rustworkx", rx_mst, same_forest_weight
    elif app == "bc":
        simple = ordo.Graph.from_scipy(P.scipy_unit, weighted=False)
        sources = bc_sources(P)
        yield "ordo", lambda: ordo.bc(simple, sources=sources), None
        if P.ig is not None:
            # Unweighted: igraph counts hops when given no weights.
            yield "igraph", lambda: P.ig.betweenness(directed=True, sources=sources), same_scores
        if nx is not None:
            D = nx.from_scipy_sparse_array(P.scipy_unit, create_using=nx.DiGraph)

            def nx_bc():
                b = nx.betweenness_centrality_subset(D, sources, list(D.nodes), normalized=False)
                return np.array([b[v] for v in range(P.n)])

            yield "networkx", nx_bc, same_scores


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", default=os.environ.get("ORDO_DATA", str(REPO.parent / "shared" / "data")))
    ap.add_argument("--graphs", default=",".join(DEFAULT_GRAPHS))
    ap.add_argument("--apps", default=",".join(APPS))
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--pr-tol", type=float, default=PR_TOL,
                    help="PageRank tolerance, networkx's meaning (default %(default)s; igraph is exact)")
    ap.add_argument("--json", help="also append one JSON object per row to this file")
    a = ap.parse_args()
    apps = a.apps.split(",")
    for app in apps:
        if app not in APPS:
            sys.exit(f"unknown app '{app}'; valid: {', '.join(APPS)}")
    rows = []
    print(f"ordo {ordo.__version__}, {os.cpu_count()} cores, median of {a.repeat}", file=sys.stderr)
    for name in a.graphs.split(","):
        path = pathlib.Path(a.data) / name
        if not path.exists():
            print(f"SKIP {path}: not found (set --data or ORDO_DATA)", file=sys.stderr)
            continue
        t = time.perf_counter()
        G = ordo.Graph.from_file(path)
        load_s = time.perf_counter() - t
        W = G if G.is_weighted else ordo.Graph.from_file(path, weights="1:255:1")
        t = time.perf_counter()
        P = Peers(G, W)
        print(f"{name}: {G.num_nodes} nodes, {G.num_edges} arcs; ordo load {load_s:.2f}s, "
              f"peer graphs built in {time.perf_counter() - t:.1f}s", file=sys.stderr)
        for app in apps:
            base = None
            for lib, call, agrees in cases(app, G, W, P, a.pr_tol):
                try:
                    secs, out = timed(call, a.repeat)
                except Exception as e:  # a peer's failure is reported, not fatal
                    print(f"  {app} {lib}: failed: {e}", file=sys.stderr)
                    continue
                if base is None:
                    base, ref = secs, out
                ok, detail = (True, "") if agrees is None else agrees(ref, out)
                row = {"graph": name, "app": app, "library": lib, "ms": secs * 1e3,
                       "vs_ordo": secs / base, "agrees": bool(ok), "detail": detail}
                rows.append(row)
                print(f"  {app:<8} {lib:<17} {secs * 1e3:9.1f} ms  x{secs / base:6.2f}  "
                      f"{'ok' if ok else 'DIFFERS'} {detail}", file=sys.stderr)
    print("| graph | app | library | ms | time / ordo's | agrees |")
    print("|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['graph']} | {r['app']} | {r['library']} | {r['ms']:.1f} | {r['vs_ordo']:.2f} | "
              f"{'yes' if r['agrees'] else 'NO'} {r['detail']} |")
    if a.json:
        with open(a.json, "a") as f:
            for r in rows:
                f.write(json.dumps(r) + "\n")
    if not all(r["agrees"] for r in rows):
        sys.exit("some library disagrees with ordo (rows marked NO)")


if __name__ == "__main__":
    main()
