"""The :class:`Graph` class: an immutable directed graph in CSR form."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, Iterable, Optional, Union

import numpy as np

from . import _ordo

if TYPE_CHECKING:  # pragma: no cover
    import numpy.typing as npt

PathLike = Union[str, "os.PathLike[str]"]

_MAX_WEIGHT = 2**32 - 1


def _ids(name: str, values: Any) -> np.ndarray:
    """Node ids as a contiguous int64 array (any integer dtype is accepted)."""
    a = np.asarray(values)
    if a.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional, not of shape {a.shape}")
    if a.size == 0:
        return np.zeros(0, dtype=np.int64)
    if not np.issubdtype(a.dtype, np.integer):
        raise TypeError(f"{name} must hold integer node ids, not {a.dtype}")
    if a.dtype == np.uint64 and a.max() > np.iinfo(np.int64).max:
        raise ValueError(f"{name} holds ids too large for a node: {a.max()}")
    return np.ascontiguousarray(a, dtype=np.int64)


def _weights(values: Any, count: int) -> np.ndarray:
    """Edge weights as int64: integers in 0..2**32-1, or floats with integral values."""
    w = np.asarray(values)
    if w.ndim != 1:
        raise ValueError(f"weights must be one-dimensional, not of shape {w.shape}")
    if w.size != count:
        raise ValueError(f"weights has {w.size} entries for {count} edges")
    if w.size == 0:
        return np.zeros(0, dtype=np.int64)
    if w.dtype == np.bool_:
        w = w.astype(np.int64)
    if np.issubdtype(w.dtype, np.floating):
        bad = ~np.isfinite(w) | (w != np.round(w))
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            raise ValueError(
                f"weights[{i}] = {w[i]}: ordo's weights are integers in 0..{_MAX_WEIGHT}; "
                "scale and round real weights first, e.g. np.rint(w * 1000)"
            )
    elif not np.issubdtype(w.dtype, np.integer):
        raise TypeError(f"weights must be numbers, not {w.dtype}")
    lo, hi = w.min(), w.max()
    if lo < 0 or hi > _MAX_WEIGHT:
        i = int(np.flatnonzero((w < 0) | (w > _MAX_WEIGHT))[0])
        raise ValueError(
            f"weights[{i}] = {w[i]}: ordo's weights are integers in 0..{_MAX_WEIGHT}"
            + (" (negative weights are not supported)" if w[i] < 0 else "")
        )
    return np.ascontiguousarray(w, dtype=np.int64)


class Graph:
    """A directed graph with ``num_nodes`` nodes numbered ``0..num_nodes`` and optional
    integer edge weights, stored as compressed sparse rows.

    An undirected graph is stored with both arcs of every edge. Graphs are immutable: methods
    that change something (:meth:`with_coordinates`) return a new graph. Applications on
    undirected graphs (their docstrings say so) use the undirected simple view (both
    directions, no self-loops, one arc per pair), built once and cached.

    Node ids in Python are always the 0-based positions of the CSR. Files number nodes their
    own way: DIMACS, METIS and Matrix Market count from 1, so file id ``k`` is node ``k - 1``
    (:attr:`id_base` is 1); SNAP and other edge lists are read as written (``id_base`` 0).

    >>> import ordo
    >>> G = ordo.Graph.from_edges([0, 1, 2], [1, 2, 0], weights=[5, 6, 7])
    >>> G
    Graph(num_nodes=3, num_edges=3, weighted=True)
    >>> G.to_scipy().toarray()
    array([[0, 5, 0],
           [0, 0, 6],
           [7, 0, 0]])
    """

    __slots__ = ("_native",)

    def __init__(self, native: _ordo.Graph) -> None:
        if not isinstance(native, _ordo.Graph):
            raise TypeError(
                "build a Graph with Graph.from_file, from_edges, from_scipy or from_networkx"
            )
        self._native = native

    # --- construction -------------------------------------------------------------------

    @classmethod
    def from_file(
        cls,
        path: PathLike,
        format: Optional[str] = None,
        symmetrize: bool = False,
        weights: Optional[str] = None,
        coordinates: Optional[PathLike] = None,
    ) -> "Graph":
        """Reads a graph file, gzipped or not.

        ``format`` is one of ``dimacs`` (``.gr``), ``snap`` (``.txt``), ``mtx``, ``metis``
        (``.graph``), ``el``, ``wel`` or ``ordo`` (binary, from :meth:`save`); by default it
        comes from the extension, else from the content. ``symmetrize=True`` adds the reverse
        of every arc. ``weights="lo:hi:seed"`` replaces (or invents) the weights with seeded
        random integers in ``[lo, hi]``. ``coordinates`` names a DIMACS ``.co`` (longitude and
        latitude, for :func:`ordo.astar`) or ``.xyz`` file.

        A malformed file raises :class:`ordo.GraphFormatError` with ``file``, ``line`` and
        ``reason``; a missing one, :class:`FileNotFoundError`.

        >>> import ordo, tempfile, os
        >>> path = os.path.join(tempfile.mkdtemp(), "tiny.gr")
        >>> _ = open(path, "w").write("p sp 3 2\\na 1 2 7\\na 2 3 1\\n")
        >>> G = ordo.Graph.from_file(path)
        >>> (G.num_nodes, G.num_edges, G.id_base)
        (3, 2, 1)
        >>> ordo.sssp(G, 0)            # DIMACS node 1 is node 0
        array([0., 7., 8.])
        """
        native = _ordo.Graph.from_file(
            os.fspath(path),
            format,
            symmetrize,
            weights,
            None if coordinates is None else os.fspath(coordinates),
        )
        return cls(native)

    @classmethod
    def from_edges(
        cls,
        src: "npt.ArrayLike",
        dst: "npt.ArrayLike",
        weights: Optional["npt.ArrayLike"] = None,
        num_nodes: Optional[int] = None,
    ) -> "Graph":
        """Builds a graph from arcs ``src[i] -> dst[i]`` (numpy arrays or sequences).

        ``weights`` are non-negative integers below 2**32 (floats must hold integral values:
        scale and round real weights first). ``num_nodes`` defaults to the largest id + 1.
        Parallel arcs and self-loops are kept.

        >>> import ordo
        >>> G = ordo.Graph.from_edges([0, 0, 1], [1, 2, 2], num_nodes=4)
        >>> (G.num_nodes, G.num_edges, G.is_weighted)
        (4, 3, False)
        """
        s, d = _ids("src", src), _ids("dst", dst)
        w = None if weights is None else _weights(weights, s.size)
        n = None if num_nodes is None else int(num_nodes)
        return cls(_ordo.Graph.from_edges(s, d, w, n))

    @classmethod
    def from_scipy(cls, matrix: Any, weighted: bool = True) -> "Graph":
        """Builds a graph from a square scipy sparse matrix or array: entry ``(i, j)`` is an
        arc from ``i`` to ``j`` whose weight is the stored value (explicit zeros included),
        unless ``weighted=False``.

        >>> import ordo, scipy.sparse as sp
        >>> A = sp.csr_array(([3, 4], ([0, 1], [1, 2])), shape=(3, 3))
        >>> ordo.sssp(ordo.Graph.from_scipy(A), 0)
        array([0., 3., 7.])
        """
        shape = getattr(matrix, "shape", None)
        if shape is None or not hasattr(matrix, "tocoo"):
            raise TypeError(f"expected a scipy sparse matrix or array, not {type(matrix).__name__}")
        if len(shape) != 2 or shape[0] != shape[1]:
            raise ValueError(f"the matrix must be square, not of shape {shape}")
        coo = matrix.tocoo()
        rows, cols = np.asarray(coo.row), np.asarray(coo.col)
        w = _weights(np.asarray(coo.data), rows.size) if weighted else None
        return cls(_ordo.Graph.from_edges(_ids("row", rows), _ids("col", cols), w, int(shape[0])))

    @classmethod
    def from_networkx(cls, G: Any, weight: Optional[str] = "weight") -> "Graph":
        """Builds a graph from a networkx graph. Node ``i`` is ``list(G)[i]``, the i-th node
        in networkx's order. An undirected graph gets both arcs of every edge. Weights come
        from the edge attribute ``weight`` (1 where an edge lacks it, as networkx assumes);
        ``weight=None`` builds an unweighted graph.

        >>> import ordo, networkx as nx
        >>> H = nx.Graph([("a", "b", {"weight": 2}), ("b", "c", {"weight": 3})])
        >>> G = ordo.Graph.from_networkx(H)
        >>> (G.num_nodes, G.num_edges)
        (3, 4)
        >>> dict(zip(H, ordo.sssp(G, 0).tolist()))
        {'a': 0.0, 'b': 2.0, 'c': 5.0}
        """
        index = {v: i for i, v in enumerate(G)}
        if weight is None:
            pairs: Iterable[Any] = ((u, v, None) for u, v in G.edges())
        else:
            pairs = G.edges(data=weight, default=1)
        src, dst, w = [], [], []
        for u, v, x in pairs:
            src.append(index[u])
            dst.append(index[v])
            w.append(x)
        if not G.is_directed():
            src, dst, w = src + dst, dst + src, w + w
        weights = None if weight is None else _weights(np.asarray(w), len(w))
        return cls(
            _ordo.Graph.from_edges(_ids("src", src), _ids("dst", dst), weights, len(index))
        )

    # --- views and output ---------------------------------------------------------------

    def to_scipy(self, parallel: str = "keep") -> Any:
        """The adjacency as a ``scipy.sparse.csr_array``: entry ``(i, j)`` is the weight of the
        arc ``i -> j`` (1 when unweighted).

        Parallel arcs (several ``i -> j``, common in road graphs) are kept as separate entries
        with ``parallel="keep"``, which scipy sums when it canonicalizes the matrix (as
        ``scipy.sparse.csgraph`` does); ``"min"`` keeps the lightest, which gives the same
        shortest paths as the graph; ``"sum"`` adds them up.

        >>> import ordo
        >>> G = ordo.Graph.from_edges([0, 0], [1, 1], weights=[5, 2])
        >>> G.to_scipy(parallel="min").toarray()
        array([[0, 2],
               [0, 0]])
        """
        import scipy.sparse as sp

        if parallel not in ("keep", "min", "sum"):
            raise ValueError(f"parallel={parallel!r}: valid are 'keep', 'min', 'sum'")
        indptr, indices, weights = self._native.csr()
        data = np.ones(indices.size, dtype=np.int64) if weights is None else weights
        n = self.num_nodes
        if parallel == "min" and indices.size:
            rows = np.repeat(np.arange(n, dtype=np.int64), np.diff(indptr))
            order = np.lexsort((data, indices, rows))
            rows, cols, data = rows[order], indices[order], data[order]
            first = np.ones(rows.size, dtype=bool)
            first[1:] = (rows[1:] != rows[:-1]) | (cols[1:] != cols[:-1])
            return sp.csr_array((data[first], (rows[first], cols[first])), shape=(n, n))
        A = sp.csr_array((data, indices, indptr), shape=(n, n))
        if parallel == "sum":
            A.sum_duplicates()
        return A

    def with_coordinates(self, xy: "npt.ArrayLike", lonlat: bool = False) -> "Graph":
        """This graph with node coordinates ``xy`` of shape ``(num_nodes, 2)``, for
        :func:`ordo.astar`. ``lonlat=True`` reads them as longitude and latitude in millionths
        of a degree (DIMACS ``.co``); otherwise they are planar, in the weights' unit or any
        unit (A* scales the estimate so that it never overestimates).
        """
        a = np.ascontiguousarray(np.asarray(xy, dtype=np.float64))
        if a.ndim != 2:
            raise ValueError(f"coordinates must have shape ({self.num_nodes}, 2), not {a.shape}")
        return Graph(self._native.with_coordinates(a, lonlat))

    @property
    def coordinates(self) -> Optional[np.ndarray]:
        """Node coordinates, shape ``(num_nodes, 2)``, or None."""
        return self._native.coordinates()

    def save(self, path: PathLike, format: Optional[str] = None) -> None:
        """Writes the graph: ordo's binary format (a checksummed CSR image, read back by
        :meth:`from_file`) unless ``format`` says ``dimacs``, ``el`` or ``wel``. A name ending
        in ``.gz`` is gzipped."""
        self._native.save(os.fspath(path), format)

    def out_degrees(self) -> np.ndarray:
        """The out-degree of every node (int64)."""
        return self._native.out_degrees()

    @property
    def num_nodes(self) -> int:
        """Number of nodes."""
        return self._native.num_nodes

    @property
    def num_edges(self) -> int:
        """Number of arcs (an undirected edge counts twice)."""
        return self._native.num_edges

    @property
    def is_weighted(self) -> bool:
        """Whether arcs carry weights (unweighted graphs count every arc as 1)."""
        return self._native.is_weighted

    @property
    def id_base(self) -> int:
        """1 when the file numbered nodes from 1 (file id ``k`` is node ``k - 1``), else 0."""
        return self._native.id_base

    def __repr__(self) -> str:
        return (
            f"Graph(num_nodes={self.num_nodes}, num_edges={self.num_edges}, "
            f"weighted={self.is_weighted})"
        )
