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

One function per application (``ordo._algorithms``; :func:`applications` lists them with
their methods and parameters); :func:`schedulers` lists the schedulers and their
parameters. Bad files raise :class:`GraphFormatError`. :mod:`ordo.networkx_backend` makes
ordo a NetworkX backend (``nx.pagerank(G, backend="ordo")``).
"""

from ._ordo import GraphFormatError, __version__
from ._graph import Graph
from . import _algorithms
from ._algorithms import *  # noqa: F401,F403 (the applications, listed in _algorithms.__all__)

__all__ = ["Graph", "GraphFormatError", "__version__"] + _algorithms.__all__
