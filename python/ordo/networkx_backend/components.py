"""Connected components by :func:`ordo.cc` (weak components of the undirected view):
``connected_components``, ``number_connected_components``, ``is_connected`` and
``weakly_connected_components``. Components come in networkx's order, by their first node;
a multigraph's parallel edges change nothing."""

from __future__ import annotations

from typing import Any, Hashable, Iterator, Mapping, Optional, Set

import networkx as nx
import numpy as np

from .. import _algorithms as ordo
from .graph import BackendGraph, paused_gc


def _labels(G: BackendGraph) -> np.ndarray:
    """Each node's component, named by its first node in node order."""
    if len(G) == 0:
        return np.zeros(0, dtype=np.int64)
    labels: np.ndarray = ordo.cc(G.ordo_graph())
    return labels


def _components(G: BackendGraph) -> Iterator[Set[Hashable]]:
    """The components as sets, smaller labels first: networkx meets each component at its
    first node. All are built before the first is returned."""
    labels = _labels(G)
    if labels.size == 0:
        return iter([])
    order = np.argsort(labels, kind="stable")
    starts = np.flatnonzero(np.diff(labels[order], prepend=-1)).tolist()
    nodes = G.labels(order)
    with paused_gc():
        return iter([set(nodes[a:b]) for a, b in zip(starts, starts[1:] + [len(nodes)])])


def connected_components(G: BackendGraph) -> Iterator[Set[Hashable]]:
    return _components(G)


def weakly_connected_components(G: BackendGraph) -> Iterator[Set[Hashable]]:
    return _components(G)


def number_connected_components(G: BackendGraph) -> int:
    labels = _labels(G)
    return int(np.count_nonzero(labels == np.arange(labels.size)))


def is_connected(G: BackendGraph) -> bool:
    if len(G) == 0:
        raise nx.NetworkXPointlessConcept("Connectivity is undefined for the null graph.")
    return bool((_labels(G) == 0).all())


def can_run_always(G: Any, a: Mapping[str, Any]) -> Optional[str]:
    return None
