#!/usr/bin/env python3
"""ordo as a NetworkX backend, timed against NetworkX itself, the graphblas backend
(graphblas-algorithms), nx-parallel and NetworKit's own API.

Every dispatched function runs on three real graphs (road: USA-road-d.NY; social,
directed: soc-Slashdot0902; email: email-Enron), as the networkx graph it needs: functions
for undirected graphs get each graph symmetrized, weakly_connected_components gets each as
a DiGraph. Unweighted graphs get the weights 1..255 (seed 1) in "weight", which the
flows take as capacities; pagerank runs unweighted (weight=None), betweenness from k=8
sources (seed 1: exact betweenness takes networkx hours here).

For the backends, "first" is a call on a graph with an empty __networkx_cache__ (the
conversion included), "cached" a second call, which converts nothing. Each time includes
building the result networkx returns: a generator's items, a dict; graphblas returns
lazy mappings, whose own time is given in brackets. NetworKit runs its
own API on its own graph, built outside the timing, for scale. Each time is the median of
--repeat runs (one run where networkx takes over 10 s); each backend's answer is checked
against networkx's. Libraries that are not installed are skipped
(`ORDO_PEERS=1 scripts/python_env.sh` installs them).

    .venv/bin/python scripts/nx_bench.py                            # everything: ~20 min
    .venv/bin/python scripts/nx_bench.py --graphs email-Enron.txt.gz --functions pagerank
    .venv/bin/python scripts/nx_bench.py --json nx_bench.jsonl      # one JSON object per row
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import statistics
import time
import warnings
from typing import Any, Callable, Dict, List, Mapping, Optional, Tuple

import networkx as nx
import numpy as np

import ordo

REPO = pathlib.Path(__file__).resolve().parents[1]
GRAPHS = ["USA-road-d.NY.gr.gz", "soc-Slashdot0902.txt.gz", "email-Enron.txt.gz"]
SHORT = {"USA-road-d.NY.gr.gz": "NY", "soc-Slashdot0902.txt.gz": "Slashdot",
         "email-Enron.txt.gz": "Enron"}
BC_K = 8
SLOW_S = 10.0  # one run only where networkx takes longer


def data_dir() -> pathlib.Path:
    return pathlib.Path(os.environ.get("ORDO_DATA", REPO.parent / "shared" / "data"))


class Graphs:
    """One real graph as networkx graphs: its own kind (``natural``), undirected and
    directed, each built on first use from ordo's reader."""

    def __init__(self, path: pathlib.Path):
        g = ordo.Graph.from_file(path, weights=None if path.name.endswith(".gr.gz") else "1:255:1")
        A = g.to_scipy(parallel="min").tocoo()  # one arc per pair, the lightest
        src, dst, w = A.row, A.col, A.data
        keep = src != dst  # networkx's core_number raises on self-loops
        self.n = g.num_nodes
        self.arcs = (src[keep].tolist(), dst[keep].tolist(), w[keep].tolist())
        self.directed_file = "Slashdot" in path.name
        self._made: Dict[str, Any] = {}

    def _make(self, cls: Any) -> Any:
        G = cls()
        G.add_nodes_from(range(self.n))
        G.add_weighted_edges_from(zip(*self.arcs))
        return G

    def get(self, kind: str) -> Any:
        if kind == "natural":
            kind = "directed" if self.directed_file else "undirected"
        if kind not in self._made:
            self._made[kind] = self._make(nx.DiGraph if kind == "directed" else nx.Graph)
        return self._made[kind]


def two_hubs(G: Any) -> Tuple[int, int]:
    """The two nodes of highest degree: a flow's source and sink."""
    by_degree = sorted(G.degree, key=lambda nd: (-nd[1], nd[0]))
    return by_degree[0][0], by_degree[1][0]


def listed(value: Any) -> Any:
    """The result as networkx gives it, built inside the timing: generators (components,
    spanning edges) run when consumed, and a lazy mapping (graphblas's NodeMap) becomes
    the dict networkx returns."""
    if hasattr(value, "__next__"):
        return list(value)
    if isinstance(value, Mapping) and not isinstance(value, dict):
        return dict(value)
    return value


# Function -> (graph kind, networkx call with **backend, NetworKit call or None, check).
Call = Callable[..., Any]


def close_dicts(tol: float) -> Callable[[Any, Any], bool]:
    def check(a: Any, b: Any) -> bool:
        return a.keys() == b.keys() and all(abs(a[k] - b[k]) <= tol for k in a)
    return check


def pagerank_close(a: Any, b: Any, alpha: float = 0.85, tol: float = 1e-6) -> bool:
    """Both within networkx's tolerance of the exact scores: an iteration whose L1 change
    is below n tol is within 2 alpha / (1 - alpha) n tol of them once normalized, so two
    such answers are within twice that of each other."""
    n = len(b)
    l1 = sum(abs(a[k] - b[k]) for k in b)
    return a.keys() == b.keys() and l1 <= 2 * 2 * alpha / (1 - alpha) * n * tol


def same(a: Any, b: Any) -> bool:
    return bool(a == b)


def same_components(a: Any, b: Any) -> bool:
    return sorted(map(min, a)) == sorted(map(min, b)) and sum(map(len, a)) == sum(map(len, b))


def same_edges(a: Any, b: Any) -> bool:
    if isinstance(a, nx.Graph):
        a, b = list(a.edges), list(b.edges)
    return [tuple(e[:2]) for e in a] == [tuple(e[:2]) for e in b]


def close_value(a: Any, b: Any) -> bool:
    return abs(a - b) <= 1e-9 * max(1.0, abs(b))


def functions(
    source: int = 0, hubs: Tuple[int, int] = (0, 1)
) -> Dict[str, Tuple[str, Call, Optional[Call], Callable[[Any, Any], bool]]]:
    nk = optional("networkit")
    s, (hub1, hub2) = source, hubs
    return {
        "single_source_dijkstra_path_length": (
            "undirected",
            lambda G, **b: nx.single_source_dijkstra_path_length(G, s, **b),
            nk and (lambda g, gw, **_: nk.distance.Dijkstra(gw, s, storePaths=False).run()),
            same,
        ),
        "single_source_shortest_path_length": (
            "undirected",
            lambda G, **b: nx.single_source_shortest_path_length(G, s, **b),
            nk and (lambda g, gw, **_: nk.distance.BFS(g, s, storePaths=False).run()),
            same,
        ),
        "shortest_path_length": (
            "undirected",
            lambda G, **b: nx.shortest_path_length(G, s, weight="weight", **b),
            nk and (lambda g, gw, **_: nk.distance.Dijkstra(gw, s, storePaths=False).run()),
            same,
        ),
        "pagerank": (
            "natural",
            lambda G, **b: nx.pagerank(G, weight=None, **b),
            nk and (lambda g, gw, **_: nk.centrality.PageRank(g, 0.85, 1e-6).run()),
            pagerank_close,
        ),
        "connected_components": (
            "undirected",
            lambda G, **b: nx.connected_components(G, **b),
            nk and (lambda g, gw, **_: nk.components.ConnectedComponents(g).run()),
            same_components,
        ),
        "number_connected_components": (
            "undirected",
            lambda G, **b: nx.number_connected_components(G, **b),
            nk and (lambda g, gw, **_: nk.components.ConnectedComponents(g).run().numberOfComponents()),
            same,
        ),
        "is_connected": (
            "undirected",
            lambda G, **b: nx.is_connected(G, **b),
            nk and (lambda g, gw, **_: nk.components.ConnectedComponents(g).run().numberOfComponents() == 1),
            same,
        ),
        "weakly_connected_components": (
            "directed",
            lambda G, **b: nx.weakly_connected_components(G, **b),
            nk and (lambda g, gw, **_: nk.components.WeaklyConnectedComponents(g).run()),
            same_components,
        ),
        "core_number": (
            "undirected",
            lambda G, **b: nx.core_number(G, **b),
            nk and (lambda g, gw, **_: nk.centrality.CoreDecomposition(g).run()),
            same,
        ),
        "triangles": (
            "undirected",
            lambda G, **b: nx.triangles(G, **b),
            None,
            same,
        ),
        "clustering": (
            "undirected",
            lambda G, **b: nx.clustering(G, **b),
            nk and (lambda g, gw, **_: nk.centrality.LocalClusteringCoefficient(g).run()),
            close_dicts(1e-12),
        ),
        "transitivity": (
            "undirected",
            lambda G, **b: nx.transitivity(G, **b),
            nk and (lambda g, gw, **_: nk.globals.ClusteringCoefficient.exactGlobal(g)),
            close_value,
        ),
        "average_clustering": (
            "undirected",
            lambda G, **b: nx.average_clustering(G, **b),
            nk and (lambda g, gw, **_: nk.centrality.LocalClusteringCoefficient(g).run()),
            close_value,
        ),
        "betweenness_centrality": (
            "natural",
            lambda G, **b: nx.betweenness_centrality(G, k=BC_K, seed=1, **b),
            nk and (lambda g, gw, **_: nk.centrality.EstimateBetweenness(g, BC_K, True, True).run()),
            close_dicts(1e-9),
        ),
        "minimum_spanning_edges": (
            "undirected",
            lambda G, **b: nx.minimum_spanning_edges(G, **b),
            nk and (lambda g, gw, **_: nk.graph.KruskalMSF(gw).run()),
            same_edges,
        ),
        "minimum_spanning_tree": (
            "undirected",
            lambda G, **b: nx.minimum_spanning_tree(G, **b),
            nk and (lambda g, gw, **_: nk.graph.KruskalMSF(gw).run()),
            same_edges,
        ),
        "maximum_flow_value": (
            "natural",
            lambda G, **b: nx.maximum_flow_value(G, hub1, hub2, capacity="weight", **b),
            None,
            same,
        ),
        "minimum_cut_value": (
            "natural",
            lambda G, **b: nx.minimum_cut_value(G, hub1, hub2, capacity="weight", **b),
            None,
            same,
        ),
    }


def optional(name: str) -> Any:
    try:
        return __import__(name)
    except ImportError:
        return None


def timed(fn: Callable[[], Any], repeat: int, before: Callable[[], None] = lambda: None) -> Tuple[float, Any]:
    """(median seconds, last result) of up to `repeat` runs; one if the first is slow."""
    times, out = [], None
    for i in range(repeat):
        before()
        t = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t)
        if i == 0 and times[0] > SLOW_S:
            break
    return statistics.median(times), out


def backends_installed() -> List[str]:
    """ordo and the peer backends that load (nx-parallel 0.3 fails against networkx 3.6)."""
    names = []
    for name in ("ordo", "graphblas", "parallel"):
        if name not in nx.utils.backends.backends:
            continue
        try:
            nx.utils.backends._load_backend(name)
        except Exception as error:  # noqa: BLE001 (any import failure: say so, skip it)
            print(f"# backend {name} does not load: {type(error).__name__}: {error}")
            continue
        names.append(name)
    return names


def nk_graphs(G: Any) -> Tuple[Any, Any]:
    """NetworKit's unweighted and weighted copies of G."""
    nk = optional("networkit")
    directed = G.is_directed()
    out = []
    for weighted in (False, True):
        g = nk.Graph(len(G), weighted=weighted, directed=directed)
        for u, v, w in G.edges(data="weight", default=1):
            g.addEdge(u, v, float(w)) if weighted else g.addEdge(u, v)
        g.indexEdges()
        out.append(g)
    return out[0], out[1]


def run(graph_names: List[str], names: List[str], repeat: int, out_json: Optional[str]) -> None:
    nx.config.warnings_to_ignore.add("cache")
    warnings.filterwarnings("ignore", category=UserWarning)
    backends = backends_installed()
    nk = optional("networkit")
    rows = []
    header = ["function", "graph", "networkx"]
    for b in backends:
        header += [f"{b} first", f"{b} cached"]
    header += ["networkit", "ordo first vs nx", "ordo cached vs nx"]
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for graph_name in graph_names:
        graphs = Graphs(data_dir() / graph_name)
        nk_copies: Dict[str, Tuple[Any, Any]] = {}
        for name, (kind, call, nk_call, check) in functions(0, two_hubs(graphs.get("natural"))).items():
            if name not in names:
                continue
            G = graphs.get(kind)
            row: Dict[str, Any] = {"function": name, "graph": SHORT.get(graph_name, graph_name),
                                   "nodes": len(G), "edges": G.number_of_edges()}
            t_nx, expected = timed(lambda: listed(call(G, backend="networkx")), repeat)
            row["networkx"] = t_nx
            for b in backends:
                if not hasattr(nx.utils.backends._load_backend(b), name):
                    row[f"{b} first"] = row[f"{b} cached"] = None
                    continue
                try:
                    t_first, got = timed(lambda: listed(call(G, backend=b)), repeat,
                                         G.__networkx_cache__.clear)
                    t_cached, got = timed(lambda: listed(call(G, backend=b)), repeat)
                except NotImplementedError:
                    row[f"{b} first"] = row[f"{b} cached"] = "declined"
                    continue
                row[f"{b} first"], row[f"{b} cached"] = t_first, t_cached
                row[f"{b} agrees"] = bool(check(got, expected))
                raw = call(G, backend=b)
                if isinstance(raw, Mapping) and not isinstance(raw, dict):
                    # A lazy mapping: its own time too, before it becomes a dict.
                    row[f"{b} cached lazy"], _ = timed(lambda: call(G, backend=b), repeat)
            if nk is not None and nk_call is not None:
                if kind not in nk_copies:
                    nk_copies[kind] = nk_graphs(G)
                g, gw = nk_copies[kind]
                row["networkit"], _ = timed(lambda: nk_call(g, gw), repeat)
            rows.append(row)
            print_row(row, header)
            G.__networkx_cache__.clear()
    if out_json:
        with open(out_json, "w") as f:
            for row in rows:
                f.write(json.dumps(row) + "\n")


def cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    return f"{value * 1000:.0f} ms" if value < 10 else f"{value:.1f} s"


def print_row(row: Dict[str, Any], header: List[str]) -> None:
    cells = []
    for h in header:
        if h.endswith("vs nx"):
            ours = row.get("ordo " + h.split()[1])
            ratio = row["networkx"] / ours if isinstance(ours, float) and ours > 0 else None
            cells.append("" if ratio is None else f"{ratio:.1f}x")
        elif h in ("function", "graph"):
            cells.append(str(row[h]))
        else:
            text = cell(row.get(h))
            backend = h.split()[0]
            if h.endswith("cached") and f"{backend} cached lazy" in row:
                text += f" (lazy {cell(row[f'{backend} cached lazy'])})"
            if h.endswith("cached") and row.get(f"{backend} agrees") is False:
                text += " (differs!)"
            cells.append(text)
    print("| " + " | ".join(cells) + " |", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--graphs", default=",".join(GRAPHS))
    parser.add_argument("--functions", default=",".join(functions()))
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", default=None, help="also write one JSON object per row")
    a = parser.parse_args()
    run(a.graphs.split(","), a.functions.split(","), a.repeat, a.json)


if __name__ == "__main__":
    main()
