"""ordo as a NetworkX backend (``backend="ordo"``).

Installing ordo registers the ``networkx.backends`` and ``networkx.backend_info`` entry
points, so networkx dispatches to ordo in three ways::

    nx.pagerank(G, backend="ordo")                  # one call
    nx.config.backend_priority = ["ordo"]           # every dispatched call, where ordo can
                                                    # (or NETWORKX_AUTOMATIC_BACKENDS=ordo)
    H = ordo.networkx_backend.convert_from_nx(G)    # convert once; nx.pagerank(H) runs ordo

Where ordo cannot give networkx's answer (float weights, personalization, ...) ``can_run``
says why and networkx runs the call itself. ``info.FUNCTIONS`` lists the functions with
what each declines. A networkx graph's conversion is kept in its ``__networkx_cache__``
until the graph changes, so a second call converts nothing.
"""

from .graph import BackendGraph, Weights, backend_graph
from .info import FUNCTIONS, get_info
from .interface import BackendInterface, can_run, convert_from_nx, convert_to_nx

__all__ = [
    "FUNCTIONS",
    "BackendGraph",
    "BackendInterface",
    "Weights",
    "backend_graph",
    "can_run",
    "convert_from_nx",
    "convert_to_nx",
    "get_info",
]
