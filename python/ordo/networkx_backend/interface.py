"""The ``networkx.backends`` entry point: :class:`BackendInterface`, whose attributes are
the dispatched functions (same names and signatures as networkx's), ``can_run`` (which
returns the reason when ordo cannot give networkx's answer, so networkx runs the call),
``convert_from_nx`` and ``convert_to_nx``."""

from __future__ import annotations

import inspect
from typing import Any, Callable, Dict, Mapping, Optional, Tuple, Union

from . import centrality, cluster, components, cores, flow, link_analysis, shortest_paths, tree
from .graph import BackendGraph, backend_graph
from .info import FUNCTIONS

Checker = Callable[[Any, Mapping[str, Any]], Optional[str]]

# Name -> (implementation, its checker: the reason ordo declines the arguments, or None).
IMPLEMENTATIONS: Dict[str, Tuple[Callable[..., Any], Checker]] = {
    "single_source_shortest_path_length": (
        shortest_paths.single_source_shortest_path_length,
        shortest_paths.can_single_source_shortest_path_length,
    ),
    "single_source_dijkstra_path_length": (
        shortest_paths.single_source_dijkstra_path_length,
        shortest_paths.can_single_source_dijkstra_path_length,
    ),
    "shortest_path_length": (
        shortest_paths.shortest_path_length,
        shortest_paths.can_shortest_path_length,
    ),
    "pagerank": (link_analysis.pagerank, link_analysis.can_pagerank),
    "connected_components": (components.connected_components, components.can_run_always),
    "number_connected_components": (
        components.number_connected_components,
        components.can_run_always,
    ),
    "is_connected": (components.is_connected, components.can_run_always),
    "weakly_connected_components": (
        components.weakly_connected_components,
        components.can_run_always,
    ),
    "core_number": (cores.core_number, cores.can_core_number),
    "triangles": (cluster.triangles, cluster.can_triangles),
    "transitivity": (cluster.transitivity, cluster.can_transitivity),
    "clustering": (cluster.clustering, cluster.can_clustering),
    "average_clustering": (cluster.average_clustering, cluster.can_clustering),
    "betweenness_centrality": (
        centrality.betweenness_centrality,
        centrality.can_betweenness_centrality,
    ),
    "minimum_spanning_edges": (tree.minimum_spanning_edges, tree.can_spanning),
    "minimum_spanning_tree": (tree.minimum_spanning_tree, tree.can_spanning),
    "maximum_flow_value": (flow.maximum_flow_value, flow.can_flow),
    "minimum_cut_value": (flow.minimum_cut_value, flow.can_flow),
}
assert IMPLEMENTATIONS.keys() == FUNCTIONS.keys(), "info.FUNCTIONS must list every function"


def can_run(name: str, args: Tuple[Any, ...], kwargs: Dict[str, Any]) -> Union[bool, str]:
    """True where ordo gives networkx's answer for these arguments; else the reason.

    >>> import networkx as nx
    >>> from ordo.networkx_backend import can_run
    >>> can_run("pagerank", (nx.path_graph(3),), {"alpha": 0.9})
    "alpha=0.9 (ordo's PageRank damps by 0.85)"
    """
    if name not in IMPLEMENTATIONS:
        return f"ordo does not implement {name}"
    function, checker = IMPLEMENTATIONS[name]
    try:
        bound = inspect.signature(function).bind(*args, **kwargs)
    except TypeError as error:
        return f"arguments networkx will reject: {error}"
    bound.apply_defaults()
    graph = next(iter(bound.arguments.values()))
    reason = checker(graph, bound.arguments)
    return True if reason is None else reason


def convert_from_nx(
    graph: Any,
    edge_attrs: Optional[Dict[str, Any]] = None,
    node_attrs: Optional[Dict[str, Any]] = None,
    preserve_edge_attrs: bool = False,
    preserve_node_attrs: bool = False,
    preserve_graph_attrs: bool = False,
    name: Optional[str] = None,
    graph_name: Optional[str] = None,
) -> BackendGraph:
    """``graph`` as a :class:`BackendGraph`. Attributes are read from the networkx graph
    when an algorithm needs them (the backend graph keeps it), so every argument past the
    graph only says what networkx's cache may reuse the result for: anything.

    >>> import networkx as nx
    >>> from ordo.networkx_backend import convert_from_nx
    >>> H = convert_from_nx(nx.path_graph(4))
    >>> nx.pagerank(H)[0] == nx.pagerank(nx.path_graph(4), backend="ordo")[0]
    True
    """
    return backend_graph(graph)


def convert_to_nx(result: Any, *, name: Optional[str] = None) -> Any:
    """A backend graph's networkx graph; any other result unchanged."""
    if isinstance(result, BackendGraph):
        return result.to_networkx()
    return result


class BackendInterface:
    """What networkx loads for ``backend="ordo"``: one attribute per function."""

    can_run = staticmethod(can_run)
    convert_from_nx = staticmethod(convert_from_nx)
    convert_to_nx = staticmethod(convert_to_nx)


for _name, (_function, _) in IMPLEMENTATIONS.items():
    setattr(BackendInterface, _name, staticmethod(_function))
