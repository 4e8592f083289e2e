"""``triangles``, ``clustering`` and ``average_clustering`` by each node's triangles from
:func:`ordo.tc` (``per_node=True``), ``transitivity`` by its total: undirected graphs that
are not multigraphs; weighted clustering only where every edge weighs the same."""

from __future__ import annotations

from typing import Any, Dict, Hashable, List, Mapping, Optional, Union

import numpy as np

from .. import _algorithms as ordo
from .graph import BackendGraph, nonuniform_weights


def transitivity(G: BackendGraph) -> Union[int, float]:
    if len(G) == 0:
        return 0
    triangles = ordo.tc(G.ordo_graph())
    if triangles == 0:
        return 0
    degrees = _degrees(G)
    # networkx sums, over nodes, twice the triangles at the node (6 per triangle) and
    # d * (d - 1) for the degree d without self-loops, then divides.
    triads = int((degrees * (degrees - 1)).sum())
    return (6 * int(triangles)) / triads


def _degrees(G: BackendGraph) -> np.ndarray:
    """Each node's neighbours other than itself."""

    def count() -> np.ndarray:
        src, dst = G.arcs()
        return np.bincount(src[src != dst], minlength=len(G)).astype(np.int64)

    return G.derived("degrees without self-loops", count)


def _per_node(G: BackendGraph) -> np.ndarray:
    """Each node's triangles, counted once per graph."""
    return G.derived("triangles per node", lambda: ordo.tc(G.ordo_graph(), per_node=True))


def _chosen(G: BackendGraph, nodes: Any) -> Optional[List[Hashable]]:
    """The nodes networkx reports for ``nodes`` in its order (None: every node), raising
    networkx's error for an argument that is neither a node nor an iterable of them."""
    if nodes is None:
        return None
    return list(G.to_networkx().nbunch_iter(nodes))


def _report(G: BackendGraph, values: List[Any], nodes: Any) -> Any:
    """``values`` (one per node, in node order) as networkx returns them for ``nodes``: one
    value for a node, else a dict."""
    if nodes is not None and nodes in G:
        return values[G.position(nodes)]
    chosen = _chosen(G, nodes)
    if chosen is None:
        return dict(zip(G, values))
    return {v: values[G.position(v)] for v in chosen}


def triangles(G: BackendGraph, nodes: Any = None) -> Union[int, Dict[Hashable, int]]:
    counts: List[Any] = _per_node(G).tolist() if len(G) else []
    result: Union[int, Dict[Hashable, int]] = _report(G, counts, nodes)
    return result


def _coefficients(G: BackendGraph) -> List[Any]:
    """networkx's clustering coefficient of every node: ``2 T / (d (d - 1))``, the integer
    0 where a node closes no triangle (as networkx writes it)."""

    def compute() -> List[Any]:
        if len(G) == 0:
            return []
        t = _per_node(G)
        d = _degrees(G)
        closed = t > 0
        ratio = np.zeros(len(G), dtype=np.float64)
        # The same two exact integers divided as networkx divides them.
        ratio[closed] = (2 * t[closed]).astype(np.float64) / (
            d[closed] * (d[closed] - 1)
        ).astype(np.float64)
        values: List[Any] = ratio.tolist()
        for v in np.flatnonzero(~closed).tolist():
            values[v] = 0
        return values

    return G.derived("clustering coefficients", compute)


def clustering(G: BackendGraph, nodes: Any = None, weight: Any = None) -> Any:
    # Weights reach here only where every edge weighs the same (can_clustering), and then
    # networkx's weighted coefficient, from weights scaled by the largest, is the plain one.
    return _report(G, _coefficients(G), nodes)


def average_clustering(
    G: BackendGraph, nodes: Any = None, weight: Any = None, count_zeros: bool = True
) -> float:
    c = clustering(G, nodes, weight).values()
    if not count_zeros:
        c = [v for v in c if abs(v) > 0]
    # Python's sum in node order, as networkx adds them (numpy's pairwise sum rounds
    # differently).
    return sum(c) / len(c)  # type: ignore[no-any-return]


def can_transitivity(G: Any, a: Mapping[str, Any]) -> Optional[str]:
    if G.is_directed():
        return "directed graphs (networkx counts triangles of successors there)"
    if G.is_multigraph():
        return "multigraphs (networkx raises NetworkXNotImplemented)"
    return None


def can_triangles(G: Any, a: Mapping[str, Any]) -> Optional[str]:
    if G.is_directed():
        return "directed graphs (networkx raises NetworkXNotImplemented)"
    if G.is_multigraph():
        return "multigraphs (networkx counts them as simple graphs or raises, by nodes)"
    return None


def can_clustering(G: Any, a: Mapping[str, Any]) -> Optional[str]:
    if G.is_directed():
        return "directed graphs (networkx counts directed triangles there)"
    if G.is_multigraph():
        return "multigraphs (networkx raises NetworkXNotImplemented)"
    return nonuniform_weights(
        G,
        a["weight"],
        "weighted clustering",
        "ordo counts each node's triangles, not their weights",
    )
