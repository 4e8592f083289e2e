"""``maximum_flow_value`` and ``minimum_cut_value`` by :func:`ordo.max_flow` (preflow-push;
the two values are equal), with capacities from the edge attribute ``capacity``."""

from __future__ import annotations

from typing import Any, Mapping, Optional, Union

import networkx as nx
import numpy as np

from .. import _algorithms as ordo
from .graph import BackendGraph, backend_graph


def _flow_functions() -> tuple[Any, ...]:
    flow = nx.algorithms.flow
    return (
        flow.preflow_push,
        flow.edmonds_karp,
        flow.shortest_augmenting_path,
        flow.dinitz,
        flow.boykov_kolmogorov,
    )


def _value(G: BackendGraph, s: Any, t: Any, capacity: str) -> Union[int, float]:
    for node in (s, t):
        if node not in G:
            raise nx.NetworkXError(f"node {str(node)} not in graph")
    if s == t:
        raise nx.NetworkXError("source and sink are the same node")
    graph = G.ordo_graph(capacity, float("inf"))
    value, _ = ordo.max_flow(graph, G.position(s), G.position(t))
    return float(value) if G.weights(capacity, float("inf")).kind == "float" else int(value)


def maximum_flow_value(
    flowG: BackendGraph,
    _s: Any,
    _t: Any,
    capacity: str = "capacity",
    flow_func: Any = None,
    **kwargs: Any,
) -> Union[int, float]:
    return _value(flowG, _s, _t, capacity)


# A minimum cut's capacity is the maximum flow's value (max-flow min-cut), and networkx gives
# both functions the same signature.
minimum_cut_value = maximum_flow_value


def can_flow(G: Any, a: Mapping[str, Any]) -> Optional[str]:
    if a.get("kwargs"):
        return "flow_func keyword arguments (cutoff, residual, ...)"
    flow_func = a["flow_func"]
    if flow_func is not None and flow_func not in _flow_functions():
        return "a flow_func other than networkx's maximum-flow algorithms"
    if G.is_multigraph():
        return "multigraphs (networkx raises NetworkXError)"
    w = backend_graph(G).weights(a["capacity"], float("inf"))
    if w.kind in ("float", "mixed") and bool(np.isinf(w.values).any()):
        return f"infinite capacities (an edge without '{a['capacity']}' has one)"
    return None if w.problem is None else f"{w.problem} in '{a['capacity']}'"
