"""``betweenness_centrality`` by :func:`ordo.bc`, exact or from ``k`` sources drawn as
networkx draws them (``seed.sample(list(G), k)``), then scaled by networkx's rules.

ordo's scores are the raw sums over sources of directed paths counted in hops: exactly
networkx's sums before its ``_rescale`` (which halves an undirected graph's)."""

from __future__ import annotations

import math
from typing import Any, Dict, Hashable, Mapping, Optional

import numpy as np

from .. import _algorithms as ordo
from .._graph import Graph
from .graph import BackendGraph, backend_graph, nonuniform_weights


def _rescale(
    raw: np.ndarray,
    n: int,
    normalized: bool,
    directed: bool,
    endpoints: bool,
    sources: Optional[np.ndarray],
) -> np.ndarray:
    """networkx's ``_rescale``, on an array."""
    k = None if sources is None else sources.size
    N = n if endpoints else n - 1
    if N < 2:
        return raw
    K_source = N if k is None else k
    correction = 1 if directed else 2
    if k is None or endpoints:
        scale = 1 / (K_source * (N - 1)) if normalized else N / (K_source * correction)
        return raw * scale if scale != 1 else raw
    if normalized:
        scale_source = 1 / ((K_source - 1) * (N - 1)) if K_source > 1 else math.nan
        scale_other = 1 / (K_source * (N - 1))
    else:
        scale_source = N / ((K_source - 1) * correction) if K_source > 1 else math.nan
        scale_other = N / (K_source * correction)
    assert sources is not None
    scaled = raw * scale_other
    scaled[sources] = raw[sources] * scale_source
    return scaled


def _endpoints(G: BackendGraph, graph: Graph, sources: np.ndarray) -> np.ndarray:
    """What networkx's ``endpoints=True`` adds to the sums: each source ``s`` counts the
    nodes it reaches, and each node reached from ``s`` counts 1. An undirected graph's
    reach is the component; a directed one's comes from a BFS per source."""
    n = len(G)
    extra = np.zeros(n, dtype=np.float64)
    if not G.is_directed():
        labels = ordo.cc(graph)
        size = np.bincount(labels, minlength=n)
        from_sources = np.bincount(labels[sources], minlength=n)
        extra += from_sources[labels]
        extra[sources] += size[labels[sources]] - 1 - 1  # itself: neither reached nor counted
        return extra
    for s in sources.tolist():
        reached = np.isfinite(ordo.bfs(graph, s))
        extra += reached
        extra[s] += np.count_nonzero(reached) - 1 - 1
    return extra


def betweenness_centrality(
    G: BackendGraph,
    k: Optional[int] = None,
    normalized: bool = True,
    weight: Any = None,
    endpoints: bool = False,
    seed: Any = None,
) -> Dict[Hashable, float]:
    n = len(G)
    if k == n:
        k = None
    sources = None
    if k is not None:
        # `seed` is a random.Random (networkx's py_random_state made it one).
        sampled = seed.sample(list(G.nodes), k)
        sources = np.fromiter(map(G.position, sampled), dtype=np.int64, count=k)
    if n == 0:
        return {}
    graph = G.ordo_graph()
    raw = ordo.bc(graph) if sources is None else ordo.bc(graph, sources=sources.tolist())
    if endpoints:
        every = np.arange(n, dtype=np.int64) if sources is None else sources
        raw = raw + _endpoints(G, graph, every)
    return G.node_dict(_rescale(raw, n, normalized, G.is_directed(), endpoints, sources))


def can_betweenness_centrality(G: Any, a: Mapping[str, Any]) -> Optional[str]:
    if G.is_multigraph():
        return "multigraphs (ordo counts each parallel arc as a path)"
    k, n = a["k"], len(backend_graph(G))
    if k is not None and not (isinstance(k, int) and 0 < k <= n):
        return f"k={k!r} (networkx raises or divides by zero)"
    return nonuniform_weights(G, a["weight"], "weighted paths", "ordo counts hops")
