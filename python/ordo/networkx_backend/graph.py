"""The backend graph: a networkx graph's nodes, numbered in networkx's order, and the
:class:`ordo.Graph` built from its edges, one per weight attribute, each built once.

Node ``i`` is ``list(G)[i]``. Arcs come from networkx's adjacency in its own order (an
undirected edge gives both arcs, a self-loop one), so results keyed by node follow
networkx's node order. The backend graph keeps a reference to the networkx graph it came
from: algorithms that return networkx's own edge data (the spanning tree's edges) read it
there, and :func:`convert_to_nx` gives it back. A networkx graph holds its backend graph in
its ``__networkx_cache__``, which networkx clears whenever the graph changes through its
methods, so a second call on an unchanged graph converts nothing.
"""

from __future__ import annotations

import gc
import numbers
import operator
from contextlib import contextmanager
from dataclasses import dataclass
from itertools import chain
from typing import Any, Callable, Dict, Hashable, Iterator, List, Optional, Tuple, TypeVar

import numpy as np

from .. import _ordo
from .._graph import Graph

T = TypeVar("T")

NAME = "ordo"
MAX_WEIGHT = 2**32 - 1
# The key of a networkx graph's __networkx_cache__ under which its backend graph waits for
# the next call (the dispatcher's own cache holds the same object under its keys).
CACHE_SLOT = "ordo"
# Float sums stay exact below 2**53, which bounds the integer weights that sort as floats.
EXACT_FLOAT = 2**53


@dataclass(frozen=True)
class Weights:
    """One attribute's values on every arc (in arc order) and whether ordo can use them.

    ``kind`` is ``"int"`` (Python ints and bools), ``"float"``, ``"mixed"`` (ints and
    floats: networkx's sums would be one or the other by path) or ``"other"``.
    ``problem`` says why they cannot be ordo's weights (non-negative integers below 2**32),
    or is None. ``uniform`` is the value every arc has, where they all have one, and
    ``has_nan`` tells whether a NaN is among them.
    """

    values: np.ndarray
    kind: str
    problem: Optional[str]
    uniform: Optional[float]
    has_nan: bool

    @property
    def uniform_positive(self) -> bool:
        """Whether every arc has the same positive weight (or there is no arc): then
        weighted and unweighted PageRank and betweenness agree."""
        return self.values.size == 0 or (self.uniform is not None and self.uniform > 0)


def _classified(raw: List[Any]) -> Tuple[str, Optional[np.ndarray], List[str]]:
    """``raw`` as :func:`ordo._ordo.edge_values` classifies an attribute's values."""
    # numpy's own inference is the fast path: Python ints (and bools) give an integer
    # array, floats a float one; only a float array needs the types to tell a mix.
    # (numpy's integer scalars pass as ints: the results hold Python ints.)
    if not raw:
        return "int", np.zeros(0, dtype=np.int64), []
    try:
        values = np.array(raw)
    except (OverflowError, ValueError):
        values = np.zeros(0, dtype=object)
    if values.ndim != 1:
        values = np.zeros(0, dtype=object)
    kinds = set(map(type, raw)) if values.dtype.kind not in "iub" else set()
    if values.dtype.kind in "iub":
        return "int", values.astype(np.int64, copy=False), []
    if values.dtype.kind == "f" and kinds <= {int, bool, float}:
        return ("float" if kinds == {float} else "mixed"), values, []
    if kinds <= {int, bool}:
        return "big", None, []
    return "other", None, sorted(k.__name__ for k in kinds - {int, bool, float})


def _profile(kind: str, values: Optional[np.ndarray], others: List[str]) -> Weights:
    if kind == "other":
        return Weights(np.zeros(0), "other", f"weights of type {', '.join(others)}", None, False)
    if kind == "big":
        return Weights(np.zeros(0), "other", "weights beyond 64 bits", None, False)
    assert values is not None
    if values.size == 0:
        return Weights(np.zeros(0, dtype=np.int64), "int", None, None, False)
    lo, hi = values.min(), values.max()
    has_nan = kind != "int" and bool(np.isnan(values).any())
    uniform = float(lo) if lo == hi else None
    problem: Optional[str] = None
    if kind == "mixed":
        problem = "a mix of int and float weights (networkx's sums would mix the types)"
    elif has_nan or (kind == "float" and not np.isfinite(values).all()):
        problem = "NaN or infinite weights"
    elif lo < 0:
        problem = "negative weights"
    elif hi > MAX_WEIGHT:
        problem = f"weights above {MAX_WEIGHT} (ordo's weights are unsigned 32-bit integers)"
    elif kind == "float" and not bool((values == np.round(values)).all()):
        problem = "weights that are not integers (ordo's weights are unsigned 32-bit integers)"
    return Weights(values, kind, problem, uniform, has_nan)


class BackendGraph:
    """A networkx graph as the ``ordo`` backend sees it (``__networkx_backend__ = "ordo"``).

    ``nodes`` lists the labels in networkx's order; ``index`` maps a label to its position.
    :meth:`ordo_graph` gives the :class:`ordo.Graph` of the arcs, weighted by an edge
    attribute or not, built on first use and kept.

    >>> import networkx as nx
    >>> from ordo.networkx_backend import BackendGraph
    >>> H = BackendGraph(nx.path_graph(["a", "b", "c"]))
    >>> H.nodes, H.ordo_graph()
    (['a', 'b', 'c'], Graph(num_nodes=3, num_edges=4, weighted=False))
    """

    __networkx_backend__ = NAME

    def __init__(self, graph: Any) -> None:
        self.nx_graph = graph
        self.nodes: List[Hashable] = list(graph)
        self._index: Optional[Dict[Hashable, int]] = None
        self._is_positional: Optional[bool] = None
        self._directed = bool(graph.is_directed())
        self._multigraph = bool(graph.is_multigraph())
        self._arcs: Optional[Tuple[np.ndarray, np.ndarray]] = None
        self._node_array: Optional[np.ndarray] = None
        self._weights: Dict[Tuple[str, Any], Weights] = {}
        self._graphs: Dict[Optional[Tuple[str, Any]], Graph] = {}
        self._derived: Dict[Hashable, Any] = {}

    # --- what networkx asks of a graph --------------------------------------------------

    def is_directed(self) -> bool:
        return self._directed

    def is_multigraph(self) -> bool:
        return self._multigraph

    def number_of_nodes(self) -> int:
        return len(self.nodes)

    def __len__(self) -> int:
        return len(self.nodes)

    def __iter__(self) -> Iterator[Hashable]:
        return iter(self.nodes)

    def __contains__(self, node: Any) -> bool:
        try:
            if self._positional() and isinstance(node, numbers.Integral):
                return 0 <= int(node) < len(self.nodes)
            return node in self.index
        except TypeError:  # an unhashable label is in no graph, as networkx says
            return False

    def to_networkx(self) -> Any:
        """The networkx graph this came from."""
        return self.nx_graph

    def __repr__(self) -> str:
        return f"BackendGraph({self.nx_graph!r})"

    # --- arrays -------------------------------------------------------------------------

    def _neighbors(self) -> List[Any]:
        """Every node's neighbor mapping (successors when directed), in node order.

        A view's filtered mappings (subgraph views) may count filtered-out neighbors in
        their length, so they are copied into dicts."""
        adj = self.nx_graph._adj
        neighbors = list(map(adj.__getitem__, self.nodes))
        if type(adj) is not dict:
            neighbors = list(map(dict, neighbors))
        return neighbors

    def arcs(self) -> Tuple[np.ndarray, np.ndarray]:
        """``(src, dst)``: one arc per adjacency entry (a multigraph's parallel edges are
        one arc), grouped by source in node order, int64."""
        if self._arcs is None:
            index = None if self._positional() else self.index
            degrees, dst = _ordo.adjacency_arrays(self._neighbors(), index)
            src = np.repeat(np.arange(len(degrees), dtype=np.int64), degrees)
            self._arcs = (src, dst)
        return self._arcs

    @property
    def index(self) -> Dict[Hashable, int]:
        """``{label: position}``, built on first use."""
        if self._index is None:
            self._index = dict(zip(self.nodes, range(len(self.nodes))))
        return self._index

    def position(self, node: Hashable) -> int:
        """The position of ``node``, a label of this graph."""
        if self._positional() and isinstance(node, numbers.Integral):
            return int(node)
        return self.index[node]

    def _positional(self) -> bool:
        """Whether every node is its own position (labels 0..n-1 in order, as ints), so
        arcs need no lookup of labels."""
        if self._is_positional is None:
            self._is_positional = _ordo.is_positional(self.nodes)
        return self._is_positional

    def node_array(self) -> np.ndarray:
        """The labels as a numpy object array, for fancy indexing."""
        if self._node_array is None:
            self._node_array = np.fromiter(self.nodes, dtype=object, count=len(self.nodes))
        return self._node_array

    def self_loops(self) -> int:
        src, dst = self.arcs()
        return int(np.count_nonzero(src == dst))

    def _datas(self) -> Iterator[Any]:
        """Every arc's attribute dict (a multigraph's: its keys' dicts), in arc order."""
        return chain.from_iterable(map(operator.methodcaller("values"), self._neighbors()))

    def weights(self, attr: str, default: Any = 1) -> Weights:
        """The attribute ``attr`` of every arc (``default`` where an edge lacks it), in
        :meth:`arcs` order; for a multigraph the least over parallel edges, as networkx's
        shortest paths take it."""
        key = (attr, default)
        if key not in self._weights:
            if self._multigraph:
                get = operator.methodcaller("get", attr, default)
                raw = [min(map(get, keyed.values())) for keyed in self._datas()]
                classified = _classified(raw)
            else:
                classified = _ordo.edge_values(self._neighbors(), attr, default)
            self._weights[key] = _profile(*classified)
        return self._weights[key]

    def ordo_graph(self, attr: Optional[str] = None, default: Any = 1) -> Graph:
        """The :class:`ordo.Graph` of :meth:`arcs`, weighted by ``attr`` (None: unweighted).
        Raises NotImplementedError where the weights are not ordo's (``can_run`` has said
        so before a dispatched call gets here)."""
        key = None if attr is None else (attr, default)
        if key not in self._graphs:
            src, dst = self.arcs()
            values = None
            if attr is not None:
                w = self.weights(attr, default)
                if w.problem is not None:
                    raise NotImplementedError(f"ordo cannot take {w.problem}")
                values = w.values.astype(np.int64)
            self._graphs[key] = Graph.from_edges(src, dst, values, num_nodes=len(self.nodes))
        return self._graphs[key]

    def derived(self, key: Hashable, build: Callable[[], T]) -> T:
        """What ``build()`` returns, built once per ``key`` and kept with the graph (an
        algorithm's own preparation, such as Kruskal's ranked edges)."""
        if key not in self._derived:
            self._derived[key] = build()
        result: T = self._derived[key]
        return result

    def labels(self, positions: np.ndarray) -> List[Hashable]:
        """The labels of the nodes at ``positions``."""
        if self._positional():
            result: List[Hashable] = positions.tolist()
            return result
        return self.node_array()[positions].tolist()  # type: ignore[no-any-return]

    def node_dict(self, values: np.ndarray) -> Dict[Hashable, Any]:
        """``{label: value}`` in node order, the values as Python scalars."""
        return dict(zip(self.nodes, values.tolist()))


@contextmanager
def paused_gc() -> Iterator[None]:
    """Pauses Python's cyclic garbage collector while a large result is built (spanning
    edges with their data, components as sets). Each new container that holds another
    object survives the young collections, and the old-generation collections that follow
    walk every object of the networkx graph: 0.6 s for NY's spanning forest, against
    0.05 s paused. The result holds no cycles, so nothing is left to collect."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _testing() -> bool:
    """Whether networkx's test suite runs with a backend: it converts afresh on every
    call (its cache is off), and so does this module."""
    import networkx as nx

    return bool(getattr(nx.utils.backends._dispatchable, "_is_testing", False))


def backend_graph(graph: Any) -> BackendGraph:
    """``graph`` as a :class:`BackendGraph`: itself if it is one; for a networkx graph the
    one its ``__networkx_cache__`` holds, made and stored there on first use (while
    ``nx.config.cache_converted_graphs`` is on)."""
    import networkx as nx

    if isinstance(graph, BackendGraph):
        return graph
    cache = getattr(graph, "__networkx_cache__", None)
    use_cache = isinstance(cache, dict) and nx.config.cache_converted_graphs and not _testing()
    if use_cache:
        assert isinstance(cache, dict)
        found = cache.get(CACHE_SLOT)
        if isinstance(found, BackendGraph) and found.nx_graph is graph:
            return found
    converted = BackendGraph(graph)
    if use_cache:
        assert isinstance(cache, dict)
        cache[CACHE_SLOT] = converted
    return converted


def nonuniform_weights(graph: Any, weight: Any, what: str, why: str) -> Optional[str]:
    """Why ordo, which ignores weights, declines a call weighted by ``weight`` (an attribute
    name, a function or None): ``what`` the weights would make of it, and ``why`` ordo's
    answer would differ. None where every edge weighs the same."""
    if weight is None:
        return None
    if callable(weight):
        return "a weight function"
    if not backend_graph(graph).weights(weight).uniform_positive:
        return f"{what} ('{weight}' differs between edges; {why})"
    return None
