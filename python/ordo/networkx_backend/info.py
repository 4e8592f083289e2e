"""What the ``networkx.backend_info`` entry point tells networkx: the functions the
``ordo`` backend implements and, for each, what it runs and what it leaves to networkx.
Kept free of networkx and numpy imports: networkx reads it while it is being imported."""

from __future__ import annotations

from typing import Any, Dict

_SOURCE = (
    "Weights must be non-negative integers below 2**32 (or floats with such values; "
    "not a mix); others, and weight functions, are left to networkx."
)

# Function name -> what ordo runs and what it declines (then networkx runs the call).
FUNCTIONS: Dict[str, str] = {
    "single_source_shortest_path_length": "ordo.bfs from the source.",
    "single_source_dijkstra_path_length": f"ordo.sssp (delta-stepping). {_SOURCE}",
    "shortest_path_length": (
        "The single-source form (source given, no target) by ordo.bfs, or ordo.sssp with "
        f"a weight. {_SOURCE} Other forms are left to networkx."
    ),
    "pagerank": (
        "ordo.pagerank with networkx's tol. Declines personalization, nstart, dangling, "
        "alpha other than 0.85, a max_iter too small to guarantee networkx converges, "
        "multigraphs, and weights that differ between edges."
    ),
    "connected_components": "ordo.cc (Afforest).",
    "number_connected_components": "ordo.cc (Afforest).",
    "is_connected": "ordo.cc (Afforest).",
    "weakly_connected_components": "ordo.cc on the undirected view.",
    "core_number": "ordo.kcore. Declines directed graphs with a pair of opposite arcs.",
    "triangles": (
        "ordo.tc(per_node=True), counted once per graph. Declines directed graphs and "
        "multigraphs."
    ),
    "transitivity": "ordo.tc. Declines directed graphs and multigraphs.",
    "clustering": (
        "Each node's triangles from ordo.tc(per_node=True) over its degree. Declines "
        "directed graphs, multigraphs and weights that differ between edges."
    ),
    "average_clustering": (
        "Each node's triangles from ordo.tc(per_node=True) over its degree. Declines "
        "directed graphs, multigraphs and weights that differ between edges."
    ),
    "betweenness_centrality": (
        "ordo.bc, exact or from k sources drawn as networkx draws them, scaled as networkx "
        "scales (endpoints=True adds reach counts from ordo.cc or ordo.bfs). Declines "
        "multigraphs and weights that differ between edges."
    ),
    "minimum_spanning_edges": (
        "ordo.mst on Kruskal's order of the edges, so ties fall as in networkx. Declines "
        "algorithm other than 'kruskal', multigraphs and NaN weights unless ignore_nan."
    ),
    "minimum_spanning_tree": (
        "ordo.mst on Kruskal's order of the edges, so ties fall as in networkx. Declines "
        "algorithm other than 'kruskal', multigraphs and NaN weights unless ignore_nan."
    ),
    "maximum_flow_value": (
        "ordo.max_flow (preflow-push). Capacities must be finite non-negative integers "
        "below 2**32 (an edge without one has infinite capacity). Declines flow_func "
        "keyword arguments and multigraphs."
    ),
    "minimum_cut_value": (
        "ordo.max_flow (preflow-push). Capacities must be finite non-negative integers "
        "below 2**32 (an edge without one has infinite capacity). Declines flow_func "
        "keyword arguments and multigraphs."
    ),
}


def get_info() -> Dict[str, Any]:
    """The ``networkx.backend_info`` entry point.

    >>> from ordo.networkx_backend.info import get_info
    >>> info = get_info()
    >>> info["backend_name"], "pagerank" in info["functions"]
    ('ordo', True)
    """
    return {
        "backend_name": "ordo",
        "project": "ordo",
        "package": "ordo",
        "short_summary": "Parallel graph analytics on relaxed priority schedulers (Rust).",
        "functions": {
            name: {"additional_docs": doc} for name, doc in sorted(FUNCTIONS.items())
        },
    }
