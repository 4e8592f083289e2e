"""ordo: parallel graph analytics on relaxed concurrent priority schedulers.

Build a :class:`Graph` (from a file, numpy arrays, scipy or networkx), then run an
application; results are numpy arrays indexed by node.

>>> import ordo
>>> G = ordo.Graph.from_edges([0, 0, 1, 2], [1, 2, 3, 3], weights=[4, 1, 1, 1])
>>> ordo.sssp(G, 0)
array([0., 4., 1., 2.])
>>> ordo.bfs(G, 0, scheduler="smq", threads=2)
array([0., 1., 1., 2.])
>>> ordo.pagerank(G).argmax()
np.int64(3)

Applications: :func:`sssp`, :func:`bfs`, :func:`astar`, :func:`pagerank`, :func:`cc`,
:func:`kcore`, :func:`tc`, :func:`mst`, :func:`bc`, :func:`max_flow`; :func:`schedulers`
lists the schedulers and their parameters. Bad files raise :class:`GraphFormatError`.
"""

from ._ordo import GraphFormatError, __version__
from ._graph import Graph
from ._algorithms import (
    astar,
    bc,
    bfs,
    cc,
    kcore,
    max_flow,
    mst,
    pagerank,
    schedulers,
    sssp,
    tc,
)

__all__ = [
    "Graph",
    "GraphFormatError",
    "astar",
    "bc",
    "bfs",
    "cc",
    "kcore",
    "max_flow",
    "mst",
    "pagerank",
    "schedulers",
    "sssp",
    "tc",
    "__version__",
]
