"""Every application against scipy or networkx on random graphs (hypothesis), across
schedulers and thread counts, including more threads than cores."""

import inspect

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.csgraph as csg
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ordo
from ordo._algorithms import _function_of

from conftest import lightest_undirected

# Every scheduler family; 8 threads on a 2-core machine shakes out races.
RUNS = [
    ("auto", 1),
    ("obim", 8),
    ("pmod", 2),
    ("smq", 8),
    ("mq", 2),
    ("reld", 2),
    ("spraylist", 2),
    ("heap", 2),
    ("serial", 1),
    ("fifo", 8),
]

SETTINGS = settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


@st.composite
def graphs(draw, max_nodes=40, max_weight=50):
    n = draw(st.integers(1, max_nodes))
    m = draw(st.integers(0, 4 * n))
    src = draw(st.lists(st.integers(0, n - 1), min_size=m, max_size=m))
    dst = draw(st.lists(st.integers(0, n - 1), min_size=m, max_size=m))
    w = draw(st.lists(st.integers(0, max_weight), min_size=m, max_size=m))
    return n, np.array(src, dtype=np.int64), np.array(dst, dtype=np.int64), np.array(w)


def dense_min(n, src, dst, w):
    """The lightest arc per pair as a scipy matrix (scipy sums duplicates); zero-weight arcs
    become a tiny positive weight so that scipy keeps them as edges."""
    best = {}
    for u, v, x in zip(src.tolist(), dst.tolist(), w.tolist()):
        if u != v:
            best[(u, v)] = min(best.get((u, v), x), x)
    if not best:
        return sp.csr_array((n, n))
    (rows, cols), vals = zip(*best.keys()), list(best.values())
    vals = [x if x > 0 else 1e-9 for x in vals]
    return sp.csr_array((vals, (rows, cols)), shape=(n, n))


def undirected_nx(n, src, dst):
    H = nx.Graph()
    H.add_nodes_from(range(n))
    H.add_edges_from((u, v) for u, v in zip(src.tolist(), dst.tolist()) if u != v)
    return H


@pytest.mark.parametrize("scheduler,threads", RUNS)
@given(g=graphs())
@SETTINGS
def test_sssp_matches_scipy_dijkstra(scheduler, threads, g):
    n, src, dst, w = g
    G = ordo.Graph.from_edges(src, dst, w, num_nodes=n)
    expected = csg.dijkstra(dense_min(n, src, dst, w), indices=0)
    got = ordo.sssp(G, 0, scheduler=scheduler, threads=threads)
    assert np.array_equal(np.isinf(got), np.isinf(expected))
    finite = ~np.isinf(got)
    assert np.allclose(got[finite], expected[finite], atol=1e-6)


@pytest.mark.parametrize("scheduler,threads", RUNS)
@given(g=graphs())
@SETTINGS
def test_bfs_matches_scipy(scheduler, threads, g):
    n, src, dst, w = g
    G = ordo.Graph.from_edges(src, dst, num_nodes=n)
    expected = csg.shortest_path(dense_min(n, src, dst, w), unweighted=True, indices=0)
    assert np.array_equal(ordo.bfs(G, 0, scheduler=scheduler, threads=threads), expected)


@pytest.mark.parametrize("scheduler,threads", [("auto", 2), ("smq", 8), ("obim", 1)])
@given(g=graphs())
@SETTINGS
def test_cc_kcore_tc_match_networkx(scheduler, threads, g):
    n, src, dst, _ = g
    G = ordo.Graph.from_edges(src, dst, num_nodes=n)
    H = undirected_nx(n, src, dst)
    label = ordo.cc(G, scheduler=scheduler, threads=threads)
    for comp in nx.connected_components(H):
        members = sorted(comp)
        assert set(label[members].tolist()) == {members[0]}
    core = ordo.kcore(G, scheduler=scheduler, threads=threads)
    assert core.tolist() == [nx.core_number(H)[v] for v in range(n)]
    triangles = sum(nx.triangles(H).values()) // 3
    assert ordo.tc(G, scheduler=scheduler, threads=threads) == triangles
    assert ordo.tc(G, threads=threads, algo="loop") == triangles


@pytest.mark.parametrize("scheduler,threads", [("auto", 2), ("pmod", 8), ("smq", 2)])
@given(g=graphs())
@SETTINGS
def test_mst_weight_matches_scipy(scheduler, threads, g):
    n, src, dst, w = g
    w = w + 1  # scipy drops zero-weight edges
    G = ordo.Graph.from_edges(src, dst, w, num_nodes=n)
    u, v, weight = ordo.mst(G, scheduler=scheduler, threads=threads)
    # The undirected view keeps the lighter arc of a pair, in either direction.
    U = lightest_undirected(dense_min(n, src, dst, w))
    expected = csg.minimum_spanning_tree(sp.triu(U))
    assert int(weight.sum()) == int(round(expected.sum()))
    assert len(u) == n - csg.connected_components(U, directed=False)[0]
    assert np.all(u < v)


@pytest.mark.parametrize("scheduler,threads", [("auto", 2), ("obim", 8), ("smq", 2)])
@given(g=graphs(max_nodes=30))
@SETTINGS
def test_pagerank_matches_networkx(scheduler, threads, g):
    n, src, dst, _ = g
    D = nx.DiGraph()
    D.add_nodes_from(range(n))
    D.add_edges_from(zip(src.tolist(), dst.tolist()))
    # networkx merges parallel arcs; so does the graph given to ordo here.
    pairs = sorted(set(zip(src.tolist(), dst.tolist())))
    G = ordo.Graph.from_edges([p[0] for p in pairs], [p[1] for p in pairs], num_nodes=n)
    expected = nx.pagerank(D, tol=1e-10, max_iter=10_000)
    got = ordo.pagerank(G, tol=1e-8, scheduler=scheduler, threads=threads)
    assert np.isclose(got.sum(), 1.0, atol=1e-5)
    assert np.abs(got - np.array([expected[v] for v in range(n)])).sum() < 1e-4


def test_pagerank_fixed_iterations_stay_within_their_bound():
    D = nx.gnp_random_graph(200, 0.03, seed=4, directed=True)
    src, dst = zip(*D.edges())
    G = ordo.Graph.from_edges(list(src), list(dst), num_nodes=200)
    expected = nx.pagerank(D, tol=1e-12, max_iter=10_000)
    exact = np.array([expected[v] for v in range(200)])
    for k in (2, 20):
        got, rep = ordo.pagerank(G, iterations=k, report=True)
        assert rep["iterations"] == k and rep["stopping_rule"] == "iterations"
        assert np.abs(got - exact).sum() <= rep["error_bound"] + 1e-9
    for bad in (0, 1001):
        with pytest.raises(ValueError, match=f"iterations={bad}: must be in 1..=1000"):
            ordo.pagerank(G, iterations=bad)
    with pytest.raises(ValueError, match="counts pull iterations"):
        ordo.pagerank(G, iterations=5, algo="priority")


@pytest.mark.parametrize(
    "queues,layout,threads,algo,symmetric",
    [
        ("nwq", "adl", 8, "auto", False),
        ("dynamic", "input", 2, "push", False),
        ("nwq", "adl", 2, "direction", True),
        ("dynamic", "input", 1, "direction", True),
        ("nwq", "input", 3, "push", True),
    ],
)
@given(g=graphs(max_nodes=25))
@SETTINGS
def test_bc_matches_networkx(queues, layout, threads, algo, symmetric, g):
    # Symmetric graphs (every arc with its reverse) are where dense levels pull.
    n, src, dst, _ = g
    pairs = {(u, v) for u, v in zip(src.tolist(), dst.tolist()) if u != v}
    if symmetric:
        pairs |= {(v, u) for u, v in pairs}
    pairs = sorted(pairs)
    D = nx.DiGraph()
    D.add_nodes_from(range(n))
    D.add_edges_from(pairs)
    G = ordo.Graph.from_edges([p[0] for p in pairs], [p[1] for p in pairs], num_nodes=n)
    expected = nx.betweenness_centrality(D, normalized=False)
    got, rep = ordo.bc(G, queues=queues, layout=layout, algo=algo, threads=threads, report=True)
    assert rep["algo"] == ("direction" if algo == "auto" else algo)
    if algo == "push":
        assert rep["pulled_levels"] == 0
    assert np.allclose(got, [expected[v] for v in range(n)], rtol=1e-9, atol=1e-9)


def test_bc_pulls_dense_levels_of_a_symmetric_graph():
    # Every node of a 40-clique is one hop from the source: its second level is found by
    # pulling, and every pair's one shortest path gives each node nothing.
    src, dst = zip(*[(u, v) for u in range(40) for v in range(40) if u != v])
    G = ordo.Graph.from_edges(list(src), list(dst))
    scores, rep = ordo.bc(G, sources=[0, 1, 2], report=True)
    assert rep["pulled_levels"] > 0 and np.allclose(scores, 0.0)
    _, rep = ordo.bc(G, sources=[0, 1, 2], algo="push", report=True)
    assert rep["pulled_levels"] == 0


@pytest.mark.parametrize("scheduler,threads", [("auto", 2), ("fifo", 8), ("smq", 2)])
@given(g=graphs(max_nodes=30))
@SETTINGS
def test_max_flow_matches_scipy(scheduler, threads, g):
    n, src, dst, w = g
    if n < 2:
        return
    G = ordo.Graph.from_edges(src, dst, w, num_nodes=n)
    # scipy wants integer capacities summed per pair, no self-loops.
    keep = src != dst
    cap = sp.csr_array((w[keep], (src[keep], dst[keep])), shape=(n, n)).astype(np.int32)
    cap.sum_duplicates()
    expected = csg.maximum_flow(cap, 0, n - 1).flow_value
    value, side = ordo.max_flow(G, 0, n - 1, scheduler=scheduler, threads=threads)
    assert value == expected
    assert side[0] and not side[n - 1]


def test_astar_matches_sssp_on_a_grid():
    k = 30
    idx = np.arange(k * k).reshape(k, k)
    right = (idx[:, :-1].ravel(), idx[:, 1:].ravel())
    down = (idx[:-1, :].ravel(), idx[1:, :].ravel())
    src = np.concatenate([right[0], right[1], down[0], down[1]])
    dst = np.concatenate([right[1], right[0], down[1], down[0]])
    w = np.random.default_rng(3).integers(10, 20, src.size)
    xy = np.stack([idx.ravel() % k * 10, idx.ravel() // k * 10], axis=1)
    G = ordo.Graph.from_edges(src, dst, w).with_coordinates(xy)
    dist = ordo.sssp(G, 0)
    for target in [k * k - 1, k * k // 2, 7]:
        for scheduler, threads in [("auto", 2), ("smq", 8)]:
            assert ordo.astar(G, 0, target, scheduler=scheduler, threads=threads) == dist[target]
        for threads in [1, 8]:
            got, rep = ordo.astar(G, 0, target, algo="delta-stepping", delta=2, threads=threads,
                                  report=True)
            assert got == dist[target] and rep["algo"] == "delta-stepping"
    assert ordo.astar(G, 0, 5, scheduler="obim", report=True)[1]["algo"] == "priority"


def test_report_fields():
    G = ordo.Graph.from_edges([0, 1, 2], [1, 2, 0], [1, 2, 3])
    dist, rep = ordo.sssp(G, 0, scheduler="smq", threads=2, report=True)
    assert dist.tolist() == [0.0, 1.0, 3.0]
    assert rep["threads"] == 2 and rep["scheduler"] == "smq"
    assert rep["tasks"] >= 3 and rep["pops"] >= rep["tasks"]
    assert rep["time_s"] >= 0 and len(rep["tasks_per_thread"]) == 2
    assert sum(rep["tasks_per_thread"]) == rep["tasks"]
    for key in ["pushes", "empty_pops", "scheduler_counters", "stale_tasks"]:
        assert key in rep
    _, rep = ordo.sssp(G, 0, algo="priority", report=True)
    assert rep["scheduler"].startswith("auto:")
    scores, rep = ordo.bc(G, sources=2, report=True)
    assert rep["sources"] == 2 and rep["scheduler"] == "bc-nwq"
    flow, rep = ordo.max_flow(G, 0, 2, report=True)
    assert flow[0] == 1 and "relabels" in rep


APPLICATIONS = ordo.applications()

# Every method that is not the priority-scheduled one, of every application that has both:
# each must give the serial scheduler's answer.
METHODS = [
    (a["name"], algo)
    for a in APPLICATIONS
    if "priority" in a["algos"]
    for algo in a["algos"]
    if algo != "priority"
]

# What an application needs beyond its defaults for an exact comparison.
EXACT = {"pagerank": {"tol": 1e-11}}


def run_app(app, G, **kw):
    """The application's Python function on G, its node arguments the first node, or the last
    for a second one (a target, a sink)."""
    function = _function_of(app)
    nodes = [
        p
        for p in inspect.signature(function).parameters.values()
        if p.default is inspect.Parameter.empty
        and p.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD
        and p.name != "G"
    ]
    args = [0 if i == 0 else G.num_nodes - 1 for i in range(len(nodes))]
    return function(G, *args, **EXACT.get(app, {}), **kw)


def test_every_application_of_the_registry_has_its_python_function():
    names = {a["name"] for a in APPLICATIONS}
    functions = {_function_of(name).__name__ for name in names}
    assert functions <= set(ordo.__all__)
    others = {"applications", "schedulers", "Graph", "GraphFormatError", "__version__"}
    assert functions == set(ordo.__all__) - others, "a Python function for every application"
    grid = grid_with_coordinates(4)
    for a in APPLICATIONS:
        takes_algo = "algo" in inspect.signature(_function_of(a["name"])).parameters
        assert takes_algo == (len(a["algos"]) > 1), a["name"]
        for algo in a["algos"] if takes_algo else []:
            _, rep = run_app(a["name"], grid, algo=algo, report=True)
            assert rep["algo"] == algo, (a["name"], algo)


def grid_with_coordinates(k):
    idx = np.arange(k * k).reshape(k, k)
    right = (idx[:, :-1].ravel(), idx[:, 1:].ravel())
    down = (idx[:-1, :].ravel(), idx[1:, :].ravel())
    src = np.concatenate([right[0], right[1], down[0], down[1]])
    dst = np.concatenate([right[1], right[0], down[1], down[0]])
    xy = np.stack([idx.ravel() % k, idx.ravel() // k], axis=1) * 10
    return ordo.Graph.from_edges(src, dst, np.full(src.size, 12)).with_coordinates(xy)


@pytest.mark.parametrize("app,algo", METHODS)
@given(g=graphs())
@SETTINGS
def test_every_method_agrees_with_the_serial_scheduled_version(app, algo, g):
    n, src, dst, w = g
    G = ordo.Graph.from_edges(src, dst, w + 1, num_nodes=n)
    if app == "astar":
        # Any coordinates give an admissible estimate (its scale is fitted to them).
        G = G.with_coordinates(np.stack([np.arange(n) % 5, np.arange(n) // 5], axis=1))
    expected = run_app(app, G, scheduler="serial", algo="priority")
    got, rep = run_app(app, G, algo=algo, threads=8, report=True)
    assert rep["algo"] == algo
    if app == "pagerank":
        assert np.abs(got - expected).sum() < 1e-7
    elif isinstance(got, tuple):
        assert all(np.array_equal(a, b) for a, b in zip(got, expected))
    else:
        assert np.array_equal(got, expected)


def test_methods_are_chosen_and_checked():
    G = ordo.Graph.from_edges([0, 1, 2], [1, 2, 0])
    # auto: the frontier method, unless a scheduler is named.
    assert ordo.bfs(G, 0, report=True)[1]["algo"] == "direction"
    assert ordo.bfs(G, 0, scheduler="obim", report=True)[1]["algo"] == "priority"
    assert ordo.sssp(G, 0, report=True)[1]["algo"] == "delta-stepping"
    # delta applies to both SSSP methods: not a scheduler request.
    assert ordo.sssp(G, 0, delta=3, report=True)[1]["algo"] == "delta-stepping"
    assert ordo.sssp(G, 0, delta=3, scheduler="obim", report=True)[1]["algo"] == "priority"
    assert ordo.pagerank(G, priority="prd", report=True)[1]["algo"] == "priority"
    with pytest.raises(ValueError, match="frontier executor"):
        ordo.cc(G, algo="afforest", scheduler="obim")
    with pytest.raises(ValueError, match="choose from auto, peel, serial, priority"):
        ordo.kcore(G, algo="bogus")
    # On one thread, auto runs the serial method where an application has one.
    assert ordo.kcore(G, threads=1, report=True)[1]["algo"] == "serial"
    assert ordo.kcore(G, threads=2, report=True)[1]["algo"] == "serial"
    assert ordo.kcore(G, threads=3, report=True)[1]["algo"] == "peel"
    assert ordo.kcore(G, threads=1, algo="peel", report=True)[1]["algo"] == "peel"
    assert ordo.mst(G, threads=1, report=True)[1]["algo"] == "filter-kruskal"
    assert ordo.bfs(G, 0, threads=1, report=True)[1]["algo"] == "direction"
    mst = next(a for a in ordo.applications() if a["name"] == "mst")
    assert mst["few_threads"] == ("filter-kruskal", 2)
    assert ordo.mst(G, threads=2, report=True)[1]["algo"] == "filter-kruskal"
    assert ordo.mst(G, threads=3, report=True)[1]["algo"] == "boruvka"
