"""``pagerank`` by :func:`ordo.pagerank`: networkx's definition (damping 0.85, dangling
nodes spread uniformly) and networkx's meaning of ``tol`` (an iteration's L1 change below
``n * tol``), so both answers lie within the same distance of the exact scores."""

from __future__ import annotations

from typing import Any, Dict, Hashable, Mapping, Optional

from .. import _algorithms as ordo
from .graph import BackendGraph, backend_graph, nonuniform_weights

DAMPING = 0.85


def pagerank(
    G: BackendGraph,
    alpha: float = 0.85,
    personalization: Any = None,
    max_iter: int = 100,
    tol: float = 1e-06,
    nstart: Any = None,
    weight: Any = "weight",
    dangling: Any = None,
) -> Dict[Hashable, float]:
    if len(G) == 0:
        return {}
    # Weights are equal on every arc (can_run checked), and then they cancel out.
    return G.node_dict(ordo.pagerank(G.ordo_graph(), tol=tol))


def can_pagerank(G: Any, a: Mapping[str, Any]) -> Optional[str]:
    for name in ("personalization", "nstart", "dangling"):
        if a[name] is not None:
            return f"{name} (ordo's PageRank starts and teleports uniformly)"
    if a["alpha"] != DAMPING:
        return f"alpha={a['alpha']} (ordo's PageRank damps by {DAMPING})"
    tol, max_iter = a["tol"], a["max_iter"]
    if not isinstance(tol, (int, float)) or not 0.0 < tol < 1.0:
        return f"tol={tol!r} (ordo takes tolerances in (0, 1))"
    n = len(backend_graph(G))
    # networkx's iteration k changes the scores by at most 2 * alpha**k in L1; below
    # n * tol it has converged. Where max_iter does not guarantee that, networkx may raise
    # PowerIterationFailedConvergence, which ordo cannot tell.
    if n and not 2 * DAMPING ** max_iter < n * tol:
        return f"max_iter={max_iter} (networkx might stop before converging and raise)"
    if G.is_multigraph():
        return "multigraphs (networkx sums parallel edges' weights)"
    return nonuniform_weights(G, a["weight"], "weighted PageRank", "ordo's ignores weights")
