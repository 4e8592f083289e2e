"""``transitivity`` by :func:`ordo.tc`; ``triangles`` and ``average_clustering`` need
triangle counts per node, which ordo does not give (its ``tc`` returns the total), so they
are declined and networkx runs them."""

from __future__ import annotations

from typing import Any, Dict, Hashable, Mapping, Optional, Union

import numpy as np

from .. import _algorithms as ordo
from .graph import BackendGraph

PER_NODE = "triangle counts per node (ordo's tc counts the graph's total only)"


def transitivity(G: BackendGraph) -> Union[int, float]:
    if len(G) == 0:
        return 0
    triangles = ordo.tc(G.ordo_graph())
    if triangles == 0:
        return 0
    src, dst = G.arcs()
    degrees = np.bincount(src[src != dst], minlength=len(G)).astype(np.int64)
    # networkx sums, over nodes, twice the triangles at the node (6 per triangle) and
    # d * (d - 1) for the degree d without self-loops, then divides.
    triads = int((degrees * (degrees - 1)).sum())
    return (6 * int(triangles)) / triads


def triangles(G: BackendGraph, nodes: Any = None) -> Dict[Hashable, int]:
    raise NotImplementedError(f"ordo lacks {PER_NODE}")


def average_clustering(
    G: BackendGraph, nodes: Any = None, weight: Any = None, count_zeros: bool = True
) -> float:
    raise NotImplementedError(f"ordo lacks {PER_NODE}")


def can_transitivity(G: Any, a: Mapping[str, Any]) -> Optional[str]:
    if G.is_directed():
        return "directed graphs (networkx counts triangles of successors there)"
    if G.is_multigraph():
        return "multigraphs (networkx raises NetworkXNotImplemented)"
    return None


def can_per_node_triangles(G: Any, a: Mapping[str, Any]) -> Optional[str]:
    return PER_NODE
