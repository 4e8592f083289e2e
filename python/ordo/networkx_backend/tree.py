"""``minimum_spanning_edges`` and ``minimum_spanning_tree`` (Kruskal's) by :func:`ordo.mst`.

networkx's Kruskal sorts the edges stably by weight, in ``G.edges`` order, so among equal
weights the earlier edge wins. Each edge's weight is replaced by its rank in that order
(distinct integers, which ordo takes whatever the weights were: floats, negatives), so
ordo's forest is networkx's, and sorted by rank it comes in networkx's order. ``G.edges``
of an undirected graph lists the arcs ``u -> v`` with ``v`` not before ``u`` in node order.
"""

from __future__ import annotations

from typing import Any, Iterator, Mapping, Optional, Tuple

import networkx as nx
import numpy as np

from .. import _algorithms as ordo
from .._graph import Graph
from .graph import EXACT_FLOAT, BackendGraph, backend_graph, paused_gc


def _ranked(G: BackendGraph, weight: str, ignore_nan: bool) -> Tuple[Graph, np.ndarray]:
    """The graph of the edges weighted by their rank in Kruskal's order, and the arc of
    each rank."""
    src, dst = G.arcs()
    edges = np.flatnonzero(dst >= src)  # each undirected edge once, in G.edges order
    w = G.weights(weight).values[edges]
    if ignore_nan and w.dtype.kind == "f":
        keep = ~np.isnan(w)
        edges, w = edges[keep], w[keep]
    edges = edges[np.argsort(w, kind="stable")]  # rank r is the arc edges[r]
    ranks = np.arange(edges.size, dtype=np.int64)
    return Graph.from_edges(src[edges], dst[edges], ranks, num_nodes=len(G)), edges


def _forest(G: BackendGraph, weight: str, ignore_nan: bool) -> Tuple[np.ndarray, np.ndarray]:
    """``(u, v)`` node ids of Kruskal's forest, in the order Kruskal picks the edges."""
    graph, edges = G.derived(("kruskal", weight, ignore_nan), lambda: _ranked(G, weight, ignore_nan))
    src, dst = G.arcs()
    if edges.size == 0:
        return edges, edges
    picked = edges[ordo.mst(graph)[2]]  # the forest's ranks, sorted, as arcs
    return src[picked], dst[picked]


def _edges(G: BackendGraph, weight: str, data: bool, ignore_nan: bool) -> Iterator[Any]:
    u, v = _forest(G, weight, ignore_nan)
    us, vs = G.labels(u), G.labels(v)
    if not data:
        return iter(list(zip(us, vs)))
    adj = G.nx_graph._adj
    with paused_gc():
        return iter([(a, b, adj[a][b]) for a, b in zip(us, vs)])


def minimum_spanning_edges(
    G: BackendGraph,
    algorithm: str = "kruskal",
    weight: str = "weight",
    keys: bool = True,
    data: bool = True,
    ignore_nan: bool = False,
) -> Iterator[Any]:
    return _edges(G, weight, data, ignore_nan)


def minimum_spanning_tree(
    G: BackendGraph, weight: str = "weight", algorithm: str = "kruskal", ignore_nan: bool = False
) -> Any:
    source = G.nx_graph
    edges = _edges(G, weight, True, ignore_nan)
    with paused_gc():
        T = source.__class__()
        T.graph.update(source.graph)
        if type(source) is nx.Graph:
            _fill(T, source, edges)
        else:  # a subclass may have its own dict factories: networkx's own calls
            T.add_nodes_from(source.nodes.items())
            T.add_edges_from(edges)
    return T


def _fill(T: Any, source: Any, edges: Iterator[Tuple[Any, Any, Any]]) -> None:
    """What ``T.add_nodes_from(source.nodes.items())`` and ``T.add_edges_from(edges)`` make
    of an empty ``nx.Graph``, written into its dicts directly (networkx's calls check every
    node and edge one at a time, about 3x slower): a copy of each node's and edge's
    attributes, the nodes in ``source``'s order, each edge under both ends in ``edges``'s
    order."""
    node, adj = T._node, T._adj
    for n, attrs in source._node.items():
        node[n] = dict(attrs)
        adj[n] = {}
    for u, v, attrs in edges:
        adj[u][v] = adj[v][u] = dict(attrs)


def can_spanning(G: Any, a: Mapping[str, Any]) -> Optional[str]:
    if a["algorithm"] != "kruskal":
        return f"algorithm={a['algorithm']!r} (ordo reproduces Kruskal's choice among ties)"
    if G.is_multigraph():
        return "multigraphs (networkx yields edge keys)"
    if a["weight"] is None or callable(a["weight"]):
        return f"weight={a['weight']!r} (ordo reads weights from an edge attribute)"
    w = backend_graph(G).weights(a["weight"])
    if w.kind == "other":
        return w.problem
    if w.has_nan and not a["ignore_nan"]:
        return "NaN weights (networkx raises ValueError)"
    if w.kind == "mixed" and w.values.size and np.abs(w.values).max() >= EXACT_FLOAT:
        return "int weights beyond 2**53 mixed with floats (their order is not exact as floats)"
    return None
