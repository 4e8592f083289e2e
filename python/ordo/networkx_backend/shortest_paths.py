"""Single-source shortest path lengths: ``single_source_dijkstra_path_length``,
``single_source_shortest_path_length`` and ``shortest_path_length`` from one source.

Distances come from :func:`ordo.sssp` (weighted) or :func:`ordo.bfs` (hops). networkx
returns ints for int weights and hop counts, floats for float weights (the source's 0 stays
an int), so the results do too. The dict lists nodes by distance, ties in node order
(networkx's Dijkstra orders ties by discovery; dict equality does not see the order).
"""

from __future__ import annotations

from typing import Any, Dict, Hashable, Mapping, Optional

import networkx as nx
import numpy as np

from .. import _algorithms as ordo
from .graph import BackendGraph, backend_graph

# networkx's messages for a source that is not in the graph, by function.
_HOPS_MISSING = "Source {} is not in G"
_DIJKSTRA_MISSING = "Node {} not found in graph"
_BELLMAN_FORD_MISSING = "Source {} not in G"


def weight_reason(G: Any, weight: Any, default: Any = 1) -> Optional[str]:
    """Why ordo cannot take the edge attribute ``weight`` of ``G`` as its weights, or None."""
    if weight is None:
        return None
    if callable(weight):
        return "a weight function (ordo reads weights from an edge attribute)"
    problem = backend_graph(G).weights(weight, default).problem
    return None if problem is None else f"{problem} in '{weight}'"


def _source(G: BackendGraph, source: Any, message: str) -> int:
    if source not in G:
        raise nx.NodeNotFound(message.format(source))
    return G.position(source)


def _by_distance(values: np.ndarray, n: int) -> np.ndarray:
    """The order of ``values`` (integral distances) by distance, ties in node order: one
    unstable sort of distinct keys ``distance * n + position`` where they fit in int64."""
    positions = np.arange(values.size, dtype=np.int64)
    if values.size and values.max() < (2**62) // max(n, 1):
        return np.argsort(values.astype(np.int64) * n + positions)
    return np.argsort(values, kind="stable")


def _lengths(
    G: BackendGraph, source: Any, weight: Optional[str], cutoff: Any, message: str
) -> Dict[Hashable, Any]:
    """``{node: distance}`` for the nodes reachable from ``source`` within ``cutoff``."""
    s = _source(G, source, message)
    if weight is None:
        dist = ordo.bfs(G.ordo_graph(), s)
        as_float = False
    else:
        dist = ordo.sssp(G.ordo_graph(weight), s)
        as_float = G.weights(weight).kind == "float"
    keep = np.isfinite(dist)
    if cutoff is not None:
        keep &= dist <= cutoff
    keep[s] = True  # networkx reports the source whatever the cutoff
    reached = np.flatnonzero(keep)
    values = dist[reached]
    reached = reached[_by_distance(values, len(G))]
    values = dist[reached]
    labels = G.labels(reached)
    # The source first (networkx settles it first, even among other nodes at distance 0),
    # and as the int 0.
    lengths: Dict[Hashable, Any] = {G.nodes[s]: 0}
    lengths.update(zip(labels, values.tolist() if as_float else values.astype(np.int64).tolist()))
    lengths[G.nodes[s]] = 0
    return lengths


def single_source_shortest_path_length(
    G: BackendGraph, source: Any, cutoff: Any = None
) -> Dict[Hashable, int]:
    return _lengths(G, source, None, cutoff, _HOPS_MISSING)


def single_source_dijkstra_path_length(
    G: BackendGraph, source: Any, cutoff: Any = None, weight: Any = "weight"
) -> Dict[Hashable, Any]:
    return _lengths(G, source, weight, cutoff, _DIJKSTRA_MISSING)


def shortest_path_length(
    G: BackendGraph,
    source: Any = None,
    target: Any = None,
    weight: Any = None,
    method: str = "dijkstra",
) -> Dict[Hashable, Any]:
    if source is None or target is not None:
        raise NotImplementedError("ordo runs the single-source form only")
    if weight is None:
        return _lengths(G, source, None, None, _HOPS_MISSING)
    missing = _DIJKSTRA_MISSING if method == "dijkstra" else _BELLMAN_FORD_MISSING
    return _lengths(G, source, weight, None, missing)


# --- what ordo declines (None: it runs the call) ---------------------------------------


def _common(G: Any, a: Mapping[str, Any]) -> Optional[str]:
    return weight_reason(G, a.get("weight"))


def can_single_source_shortest_path_length(G: Any, a: Mapping[str, Any]) -> Optional[str]:
    return None


def can_single_source_dijkstra_path_length(G: Any, a: Mapping[str, Any]) -> Optional[str]:
    return _common(G, a)


def can_shortest_path_length(G: Any, a: Mapping[str, Any]) -> Optional[str]:
    if a["method"] not in ("dijkstra", "bellman-ford"):
        return f"method={a['method']!r} (networkx raises ValueError)"
    if a["source"] is None or a["target"] is not None:
        return "all-pairs and source-target forms (ordo runs single-source ones)"
    return _common(G, a)
