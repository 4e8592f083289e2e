"""``core_number`` by :func:`ordo.kcore` (core numbers of the undirected simple view):
undirected graphs, and directed ones without a pair of opposite arcs."""

from __future__ import annotations

from typing import Any, Dict, Hashable, Mapping, Optional

import networkx as nx
import numpy as np

from .. import _algorithms as ordo
from .graph import BackendGraph, backend_graph

# networkx's exception for a graph with self-loops.
_SELF_LOOPS = (
    "Input graph has self loops which is not permitted; "
    "Consider using G.remove_edges_from(nx.selfloop_edges(G))."
)


def core_number(G: BackendGraph) -> Dict[Hashable, int]:
    if G.self_loops():
        raise nx.NetworkXNotImplemented(_SELF_LOOPS)
    if len(G) == 0:
        return {}
    return G.node_dict(ordo.kcore(G.ordo_graph()))


def _has_opposite_arcs(G: BackendGraph) -> bool:
    """Whether some arc ``u -> v`` has its opposite ``v -> u``."""
    src, dst = G.arcs()
    n = max(len(G), 1)
    forward = np.unique(src * n + dst)
    backward = dst * n + src
    found = np.searchsorted(forward, backward).clip(max=max(forward.size - 1, 0))
    return bool(forward.size and (forward[found] == backward)[src != dst].any())


def can_core_number(G: Any, a: Mapping[str, Any]) -> Optional[str]:
    # A directed graph's core numbers in networkx count in- and out-neighbors, a pair of
    # opposite arcs as two edges: without such pairs they are the undirected view's.
    if G.is_directed():
        H = backend_graph(G)
        if H.derived("opposite arcs", lambda: _has_opposite_arcs(H)):
            return "directed graphs with opposite arcs (networkx counts both as edges)"
    return None
