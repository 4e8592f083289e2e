"""The applications: each takes a :class:`~ordo.Graph` and returns numpy arrays.

Shared keyword arguments:

* ``scheduler``: one of :func:`schedulers` (``"auto"``, ``"obim"``, ``"pmod"``, ``"smq"``,
  ``"mq"``, ``"reld"``, ``"spraylist"``, ``"heap"``, ...). ``auto`` picks obim with a
  priority shift suited to the application and graph, or PMOD where no shift helps.
* ``threads``: worker threads; default every core. More threads than cores is allowed.
* ``**params``: the scheduler's parameters, e.g. ``chunk=32`` or ``p_steal="1/4"``
  (values are passed as their ``str()``). An unknown scheduler or parameter is a
  ``ValueError``.
* ``report=True`` returns ``(result, report)``, where ``report`` is a dict of the run:
  ``time_s``, ``threads``, ``scheduler`` (as resolved, e.g. ``auto:obim(delta=13)``),
  ``tasks``, ``pushes``, ``pops``, ``empty_pops``, ``tasks_per_thread``,
  ``scheduler_counters`` and the application's own counters (e.g. ``stale_tasks``).

Every run releases the GIL; Ctrl-C stops it with ``KeyboardInterrupt`` within milliseconds
(``max_flow`` at its next relabel, or after the global relabelling under way).

Unweighted graphs count every arc as weight 1, as networkx and scipy do.
"""

from __future__ import annotations

import operator
from typing import Any, Callable, Dict, List, Optional, Sequence, Union

import numpy as np

from . import _ordo
from ._graph import Graph

__all__ = [
    "applications",
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
]


def _native(G: Graph) -> _ordo.Graph:
    if not isinstance(G, Graph):
        raise TypeError(f"expected an ordo.Graph, not {type(G).__name__}")
    return G._native


def _node(name: str, v: Any) -> int:
    try:
        return operator.index(v)
    except TypeError:
        raise TypeError(f"{name} must be an integer node id, not {type(v).__name__}") from None


def _threads(threads: Optional[int]) -> Optional[int]:
    return None if threads is None else operator.index(threads)


def _run(
    app: str,
    G: Graph,
    values: Dict[str, Any],
    algo: str = "auto",
    scheduler: str = "auto",
    threads: Optional[int] = None,
    params: Optional[Dict[str, Any]] = None,
    report: bool = False,
) -> Any:
    # Every application runs through one native entry point over ordo's registry; `values`
    # holds its own parameters by their registry names (None: not given).
    return _ordo.run(app, _native(G), values, algo, scheduler, _threads(threads), params, report)


def _delta(delta: Optional[int]) -> Optional[int]:
    if delta is None:
        return None
    d = operator.index(delta)
    if not 0 <= d <= 63:
        raise ValueError(f"delta={d}: must be in 0..=63 (one bucket per 2**delta)")
    return d


def sssp(
    G: Graph,
    source: int,
    scheduler: str = "auto",
    threads: Optional[int] = None,
    delta: Optional[int] = None,
    report: bool = False,
    algo: str = "auto",
    **params: Any,
) -> Any:
    """Shortest-path distances from ``source`` (float64, ``inf`` where unreachable).

    ``algo``: ``"delta-stepping"`` (per-worker bins with bucket fusion on the frontier
    executor, the fastest), ``"priority"`` (prioritized relaxation on ``scheduler``, what the
    papers measure), or ``"auto"``: delta-stepping unless a scheduler or its parameters are
    given. ``delta`` (one bucket per ``2**delta`` distance units, for delta-stepping and the
    bucketing schedulers) defaults to a width picked from the graph: log2(2 x mean weight /
    mean degree) on small-world graphs, about 4000 tasks per bucket on road networks and
    meshes (there, for delta-stepping, one step narrower on one thread, which runs no rounds,
    and half a step wider per doubling of the threads beyond two).

    >>> import ordo
    >>> G = ordo.Graph.from_edges([0, 0, 1, 2], [1, 2, 3, 3], weights=[4, 1, 1, 1], num_nodes=5)
    >>> ordo.sssp(G, 0)
    array([ 0.,  4.,  1.,  2., inf])
    >>> dist, rep = ordo.sssp(G, 0, scheduler="obim", threads=2, delta=1, report=True)
    >>> rep["scheduler"], rep["algo"], rep["threads"]
    ('obim(delta=1)', 'priority', 2)
    """
    values = {"source": _node("source", source), "delta": _delta(delta)}
    return _run("sssp", G, values, algo, scheduler, threads, params, report)


def bfs(
    G: Graph,
    source: int,
    scheduler: str = "auto",
    threads: Optional[int] = None,
    report: bool = False,
    algo: str = "auto",
    **params: Any,
) -> Any:
    """Hop counts from ``source`` along arcs (float64, ``inf`` where unreachable).

    ``algo``: ``"direction"`` (direction-optimizing BFS on the frontier executor, the
    fastest), ``"priority"`` (the priority-scheduled version, on ``scheduler``), or
    ``"auto"``: direction-optimizing unless a scheduler or its parameters are given.

    >>> import ordo
    >>> G = ordo.Graph.from_edges([0, 1, 2], [1, 2, 3], num_nodes=5)
    >>> ordo.bfs(G, 0)
    array([ 0.,  1.,  2.,  3., inf])
    """
    return _run("bfs", G, {"source": _node("source", source)}, algo, scheduler, threads, params,
                report)


def astar(
    G: Graph,
    source: int,
    target: int,
    scheduler: str = "auto",
    threads: Optional[int] = None,
    delta: Optional[int] = None,
    geometry: str = "auto",
    report: bool = False,
    algo: str = "auto",
    **params: Any,
) -> Any:
    """The shortest distance from ``source`` to ``target`` by A* (float; ``inf`` if none).

    The graph needs coordinates (``Graph.from_file(..., coordinates=...)`` or
    :meth:`Graph.with_coordinates`). ``geometry`` is ``lonlat`` (DIMACS ``.co``),
    ``planar``, or ``auto`` (lonlat for ``.co`` files). The straight-line estimate is scaled
    so that it never overestimates, so the distance is exact. ``algo``: ``"delta-stepping"``
    (buckets of distance + estimate on the frontier executor, pruned at the target's
    distance; the fastest), ``"priority"`` (on ``scheduler``), or ``"auto"``: delta-stepping
    unless a scheduler or its parameters are given.

    >>> import ordo
    >>> G = ordo.Graph.from_edges([0, 1, 0], [1, 2, 2], weights=[1, 1, 5])
    >>> G = G.with_coordinates([[0, 0], [1, 0], [2, 0]])
    >>> ordo.astar(G, 0, 2)
    2.0
    """
    values = {
        "source": _node("source", source),
        "target": _node("target", target),
        "geometry": geometry,
        "delta": _delta(delta),
    }
    return _run("astar", G, values, algo, scheduler, threads, params, report)


def pagerank(
    G: Graph,
    tol: float = 1e-6,
    priority: Optional[str] = None,
    scheduler: str = "auto",
    threads: Optional[int] = None,
    report: bool = False,
    algo: str = "auto",
    iterations: Optional[int] = None,
    **params: Any,
) -> Any:
    """PageRank scores (float64, summing to 1) with damping 0.85, as networkx computes them
    (dangling nodes spread their rank uniformly). ``tol`` means what networkx's does (an
    iteration's L1 change below ``num_nodes * tol``: little on large graphs, where
    ``tol=1e-4 / num_nodes`` is GAPBS's rule); the report's ``error_bound`` bounds the L1
    distance to the exact scores, and is 2, which bounds nothing, when ``tol`` is too loose.

    ``algo``: ``"pull"`` (Gauss-Seidel sweeps over in-edges until a sweep changes the scores
    by less than ``num_nodes * tol`` in L1, networkx's rule, or ``iterations`` of them,
    rescaling the scores between sweeps where their total misses the exact solution's; the
    fastest), ``"pull-jacobi"``
    (the same with Jacobi iterations), ``"priority"`` (residual pushing with priorities
    from the residual per arc in units of the threshold: ``priority="pr"``, its whole part,
    or ``"prd"``, three decimals: the PR and PR-D of the PMOD paper, Yesil et al., SC'19, as
    its authors' code computes them), or ``"auto"``: pull unless a
    scheduler, its parameters or ``priority`` are given. Edge weights are ignored.

    ``iterations``: pull exactly that many iterations (1 to 1000), whatever the change: the
    fixed count of Gemini's benchmark; ``tol`` then picks only the precision, and the report's
    ``error_bound`` still bounds the distance to the exact scores (after one or two iterations
    it is often 2, which bounds nothing).

    >>> import ordo, numpy as np
    >>> G = ordo.Graph.from_edges([0, 1, 2], [1, 2, 0])
    >>> np.round(ordo.pagerank(G), 4)
    array([0.3333, 0.3333, 0.3333])
    """
    tol = float(tol)
    if not 0.0 < tol < 1.0:
        raise ValueError(f"tol={tol}: must be in (0, 1)")
    values = {"tolerance": tol, "priority": priority, "iterations": iterations}
    return _run("pagerank", G, values, algo, scheduler, threads, params, report)


def cc(
    G: Graph,
    scheduler: str = "auto",
    threads: Optional[int] = None,
    report: bool = False,
    algo: str = "auto",
    **params: Any,
) -> Any:
    """Weakly connected components: for each node, the smallest node of its component
    (int64). Arcs count in both directions.

    ``algo``: ``"afforest"`` (Afforest, sampled union-find linking on the frontier
    executor; the fastest), ``"priority"`` (min-label propagation on ``scheduler``), or
    ``"auto"``: Afforest unless a scheduler or its parameters are given.

    >>> import ordo
    >>> G = ordo.Graph.from_edges([1, 3], [0, 4], num_nodes=5)
    >>> ordo.cc(G)
    array([0, 0, 2, 3, 3])
    """
    return _run("cc", G, {}, algo, scheduler, threads, params, report)


def kcore(
    G: Graph,
    scheduler: str = "auto",
    threads: Optional[int] = None,
    report: bool = False,
    algo: str = "auto",
    **params: Any,
) -> Any:
    """Core numbers of the undirected simple view (int64), as networkx's ``core_number``.

    ``algo``: ``"peel"`` (bucketed peeling by levels on the frontier executor; the
    fastest on more than one thread and on large graphs), ``"serial"`` (Batagelj-Zaversnik
    bucket peeling; faster with ``threads=1`` on graphs of up to about 2**19 nodes),
    ``"priority"`` (asynchronous h-index updates on ``scheduler``), or ``"auto"``: ``serial``
    with ``threads=1`` on graphs of at most 2**19 nodes (``threads=2``: 2**18), else
    ``peel``, unless a scheduler or its parameters are given.

    >>> import ordo
    >>> G = ordo.Graph.from_edges([0, 1, 2, 2], [1, 2, 0, 3])   # a triangle and a tail
    >>> ordo.kcore(G)
    array([2, 2, 2, 1])
    """
    return _run("kcore", G, {}, algo, scheduler, threads, params, report)


def tc(
    G: Graph,
    scheduler: str = "auto",
    threads: Optional[int] = None,
    report: bool = False,
    algo: str = "auto",
    per_node: bool = False,
    **params: Any,
) -> Any:
    """The number of triangles of the undirected simple view (an int); with
    ``per_node=True``, each node's triangles instead (int64 per node, the counts of
    ``networkx.triangles``; they sum to three times the total).

    ``algo``: ``"loop"`` (chunks of nodes on the frontier executor; edges oriented by id
    where degrees are even, else by degree with the heaviest nodes first), ``"priority"``
    (one task per node on ``scheduler``, heaviest first), or ``"auto"``: the loop, unless a
    scheduler or its parameters are given. Counting per node always orients by degree.

    >>> import ordo
    >>> G = ordo.Graph.from_edges([0, 1, 2, 2], [1, 2, 0, 3])
    >>> ordo.tc(G)
    1
    >>> ordo.tc(G, per_node=True).tolist()
    [1, 1, 1, 0]
    """
    values = {"per-node": True} if per_node else {}
    return _run("tc", G, values, algo, scheduler, threads, params, report)


def mst(
    G: Graph,
    scheduler: str = "auto",
    threads: Optional[int] = None,
    report: bool = False,
    algo: str = "auto",
    **params: Any,
) -> Any:
    """A minimum spanning forest of the undirected view: ``(u, v, weight)``, three
    int64 arrays with ``u < v``, sorted by (weight, u, v). Ties are broken by node ids, so
    the forest is unique. Where an edge has arcs of two weights, the lighter counts.

    ``algo``: ``"boruvka"`` (parallel Boruvka rounds with edge filtering on the frontier
    executor; the fastest with several threads), ``"filter-kruskal"`` (filter-Kruskal,
    its edge listing and large filters shared by the threads; faster than Boruvka on one
    and two threads), ``"priority"`` (Boruvka with merging by priority on ``scheduler``, as
    in the PMOD paper, Yesil et al., SC'19), or ``"auto"``: filter-Kruskal on up to 2
    threads, else parallel Boruvka, unless a scheduler or its parameters are given.

    >>> import ordo
    >>> G = ordo.Graph.from_edges([0, 1, 0], [1, 2, 2], weights=[1, 2, 5])
    >>> u, v, w = ordo.mst(G)
    >>> u.tolist(), v.tolist(), int(w.sum())
    ([0, 1], [1, 2], 3)
    """
    return _run("mst", G, {}, algo, scheduler, threads, params, report)


def bc(
    G: Graph,
    sources: Union[None, int, Sequence[int]] = None,
    seed: int = 0,
    layout: str = "auto",
    queues: str = "nwq",
    task: int = 16,
    algo: str = "auto",
    threads: Optional[int] = None,
    report: bool = False,
) -> Any:
    """Betweenness centrality by Brandes' algorithm (float64, unnormalized, paths counted in
    hops), summed over ``sources``: None for every node, an int ``k`` for ``k`` sources
    sampled with ``seed``, or a sequence of node ids.

    With every source this equals ``networkx.betweenness_centrality(D, normalized=False)``
    on the directed graph ``D``; for an undirected networkx graph, whose pairs networkx
    counts once, halve ordo's scores. The run is level-synchronous with the adaptive data
    layout of the NUMA-aware BC paper, Frasca et al., SC'12 (``layout="adl"``, ``"input"``,
    or ``"auto"``: ADL from 4 sources on, where its relabelling pays for itself, unless its
    BFS pulls a level), and NUMA-aware queues (``queues="nwq"`` or ``"dynamic"``), ``task``
    vertices per task; it takes no priority scheduler. ``algo``:
    ``"direction"`` (what ``"auto"`` runs: a level whose frontier has more arcs than the
    unreached vertices is found by pulling over in-edges, as GBBS does, on symmetric graphs)
    or ``"push"`` (the NUMA-aware BC paper's method: every level pushes).

    >>> import ordo
    >>> G = ordo.Graph.from_edges([0, 1, 1, 2], [1, 0, 2, 1])   # the path 0 - 1 - 2
    >>> ordo.bc(G)
    array([0., 2., 0.])
    """
    values: Dict[str, Any] = {
        "seed": operator.index(seed),
        "layout": layout,
        "queues": queues,
        "task": operator.index(task),
    }
    if isinstance(sources, bool):
        raise TypeError("sources must be None, a number of sources or a sequence of node ids")
    if sources is None:
        values["sources"] = "all"
    elif isinstance(sources, (int, np.integer)):
        k = operator.index(sources)
        if k <= 0:
            raise ValueError(f"sources={k}: the number of sampled sources must be >= 1")
        values["sources"] = str(k)
    else:
        listed: List[int] = [_node("source", s) for s in sources]
        if not listed:
            raise ValueError("sources=[]: the list names no node")
        bad = [s for s in listed if s < 0]
        if bad:
            raise IndexError(f"source {bad[0]} is not a node")
        if len(listed) == 1:
            values["source"] = listed[0]
        else:
            values["sources"] = ",".join(map(str, listed))
    return _run("bc", G, values, algo, threads=threads, report=report)


def max_flow(
    G: Graph,
    source: int,
    sink: int,
    scheduler: str = "auto",
    threads: Optional[int] = None,
    report: bool = False,
    **params: Any,
) -> Any:
    """The maximum flow from ``source`` to ``sink`` by preflow-push, with capacities from the
    weights (1 when unweighted): ``(value, source_side)``, where the boolean array
    ``source_side`` marks the source side of a minimum cut.

    >>> import ordo
    >>> G = ordo.Graph.from_edges([0, 0, 1, 2], [1, 2, 3, 3], weights=[3, 2, 1, 5])
    >>> value, side = ordo.max_flow(G, 0, 3)
    >>> value, side.tolist()
    (3, [True, True, False, False])
    """
    values = {"source": _node("source", source), "sink": _node("sink", sink)}
    return _run("pfp", G, values, "auto", scheduler, threads, params, report)


def _function_of(app: str) -> Callable[..., Any]:
    """The Python function of the application ``app`` of :func:`applications` (the names
    agree but for ``pfp``, which is :func:`max_flow`).

    >>> import ordo
    >>> from ordo._algorithms import _function_of
    >>> _function_of("pfp").__name__
    'max_flow'
    """
    name = {"pfp": "max_flow"}.get(app, app)
    if name not in __all__ or name in ("applications", "schedulers"):
        raise ValueError(f"no application '{app}'; see ordo.applications()")
    function: Callable[..., Any] = globals()[name]
    return function


def applications() -> List[Dict[str, Any]]:
    """Every application ordo has: ``name``, ``about``, its methods (``algos``, for
    ``algo=``; the first is what ``"auto"`` runs unless a scheduler is asked for),
    ``few_threads`` (``(algo, up_to)``: what ``"auto"`` runs instead on at most ``up_to``
    threads, or None) and its
    parameters (``params``, by the names the command line uses).

    >>> import ordo
    >>> [a["name"] for a in ordo.applications()][:3]
    ['sssp', 'bfs', 'astar']
    >>> next(a for a in ordo.applications() if a["name"] == "bfs")["algos"]
    ['direction', 'priority']
    """
    return _ordo.applications()


def schedulers() -> List[Dict[str, Any]]:
    """Every scheduler: ``name``, ``summary`` and ``params`` (each with ``default`` and
    ``doc``).

    >>> import ordo
    >>> [s["name"] for s in ordo.schedulers()][:4]
    ['auto', 'obim', 'pmod', 'smq']
    >>> ordo.schedulers()[1]["params"]["delta"]["default"]
    '0'
    """
    return _ordo.schedulers()

