"""ordo as a NetworkX backend: entry points, answers equal to networkx's on random graphs,
the converted-graph cache, and what can_run declines."""

from __future__ import annotations

import random
import warnings

import pytest

nx = pytest.importorskip("networkx")

import numpy as np  # noqa: E402

from ordo import _ordo  # noqa: E402
from ordo import networkx_backend as backend  # noqa: E402
from ordo.networkx_backend import graph as backend_graph_module  # noqa: E402


@pytest.fixture(autouse=True)
def quiet_cache_note():
    """networkx warns on every use of a cached conversion; the tests expect that use."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Note: conversions to backend graphs")
        yield


def random_graph(seed, directed=False, n=60, p=0.08, labels=True, max_weight=9):
    G = nx.gnp_random_graph(n, p, seed=seed, directed=directed)
    rng = random.Random(seed)
    for u, v in G.edges:
        G[u][v]["weight"] = rng.randint(0, max_weight)
        G[u][v]["capacity"] = rng.randint(1, max_weight)
    if labels:  # labels that are not positions, in a shuffled node order
        order = list(G)
        rng.shuffle(order)
        H = G.__class__()
        H.add_nodes_from(f"n{v}" for v in order)
        H.add_edges_from((f"n{u}", f"n{v}", d) for u, v, d in G.edges(data=True))
        G = H
    return G


def approx_dict(a, b, tol=1e-9):
    return a.keys() == b.keys() and all(abs(a[k] - b[k]) <= tol for k in a)


SEEDS = range(6)


def test_entry_points_register_the_backend():
    assert "ordo" in nx.utils.backends.backends
    info = nx.utils.backends.backend_info["ordo"]
    assert set(info["functions"]) == set(backend.FUNCTIONS)
    assert "pagerank" in info["functions"]
    assert "ordo" in nx.pagerank.backends


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("directed", [False, True])
@pytest.mark.parametrize("labels", [True, False])
def test_shortest_path_lengths_equal_networkx(seed, directed, labels):
    G = random_graph(seed, directed, labels=labels)
    source = next(iter(G))
    for f, kwargs in [
        (nx.single_source_dijkstra_path_length, {}),
        (nx.single_source_dijkstra_path_length, {"cutoff": 7}),
        (nx.single_source_shortest_path_length, {}),
        (nx.single_source_shortest_path_length, {"cutoff": 2}),
        (nx.shortest_path_length, {"weight": "weight"}),
        (nx.shortest_path_length, {}),
    ]:
        ours = f(G, source, backend="ordo", **kwargs)
        theirs = f(G, source, **kwargs)
        assert ours == theirs
        assert [type(x) for x in ours.values()] == [type(theirs[k]) for k in ours]


def test_float_weights_give_float_distances():
    G = nx.path_graph(4)
    nx.set_edge_attributes(G, 2.0, "weight")
    ours = nx.single_source_dijkstra_path_length(G, 0, backend="ordo")
    assert ours == {0: 0, 1: 2.0, 2: 4.0, 3: 6.0}
    assert type(ours[0]) is int and type(ours[3]) is float


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("directed", [False, True])
def test_pagerank_within_networkx_tolerance(seed, directed):
    G = random_graph(seed, directed)
    nx.set_edge_attributes(G, 1, "weight")
    ours = nx.pagerank(G, backend="ordo", tol=1e-8)
    theirs = nx.pagerank(G, tol=1e-8)
    assert list(ours) == list(theirs)
    assert approx_dict(ours, theirs, 1e-5)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("labels", [True, False])
def test_components_cores_transitivity_equal_networkx(seed, labels):
    G = random_graph(seed, p=0.04, labels=labels)
    assert list(nx.connected_components(G, backend="ordo")) == list(nx.connected_components(G))
    assert nx.number_connected_components(G, backend="ordo") == nx.number_connected_components(G)
    assert nx.is_connected(G, backend="ordo") is nx.is_connected(G)
    D = random_graph(seed, directed=True, p=0.02)
    assert list(nx.weakly_connected_components(D, backend="ordo")) == list(
        nx.weakly_connected_components(D)
    )
    ours, theirs = nx.core_number(G, backend="ordo"), nx.core_number(G)
    assert ours == theirs and list(ours) == list(theirs)
    oriented = nx.DiGraph((u, v) for u, v in G.edges)  # no pair of opposite arcs
    oriented.add_nodes_from(G)
    assert nx.core_number(oriented, backend="ordo") == nx.core_number(oriented)
    assert nx.transitivity(G, backend="ordo") == pytest.approx(nx.transitivity(G), rel=1e-12)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("labels", [True, False])
def test_triangles_and_clustering_equal_networkx(seed, labels):
    G = random_graph(seed, p=0.15, labels=labels)
    G.add_edge(*list(G)[:2])
    G.add_edge(list(G)[0], list(G)[0])  # a self-loop, which networkx ignores
    ours, theirs = nx.triangles(G, backend="ordo"), nx.triangles(G)
    assert ours == theirs and list(ours) == list(theirs)
    # Exactly networkx's floats (the same division), and its order of summing.
    ours, theirs = nx.clustering(G, backend="ordo"), nx.clustering(G)
    assert ours == theirs and list(ours) == list(theirs)
    assert [type(v) for v in ours.values()] == [type(v) for v in theirs.values()]
    for kwargs in [{}, {"count_zeros": False}, {"nodes": list(G)[::3]}]:
        assert nx.average_clustering(G, backend="ordo", **kwargs) == nx.average_clustering(
            G, **kwargs
        )
    v = list(G)[1]
    assert nx.triangles(G, v, backend="ordo") == nx.triangles(G, v)
    assert nx.clustering(G, v, backend="ordo") == nx.clustering(G, v)
    some = [list(G)[5], "absent", list(G)[2]]
    assert nx.triangles(G, some, backend="ordo") == nx.triangles(G, some)
    assert list(nx.clustering(G, some, backend="ordo")) == list(nx.clustering(G, some))
    nx.set_edge_attributes(G, 3, "w")  # every edge the same weight: the plain coefficient
    assert nx.clustering(G, weight="w", backend="ordo") == pytest.approx(
        nx.clustering(G, weight="w"), rel=1e-12
    )


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("directed", [False, True])
def test_betweenness_equal_networkx(seed, directed):
    G = random_graph(seed, directed)
    for kwargs in [
        {},
        {"normalized": False},
        {"k": 7, "seed": seed},
        {"k": 1, "seed": 3},
        {"endpoints": True},
        {"endpoints": True, "normalized": False, "k": 5, "seed": seed},
    ]:
        ours = nx.betweenness_centrality(G, backend="ordo", **kwargs)
        theirs = nx.betweenness_centrality(G, **kwargs)
        assert list(ours) == list(theirs)
        for v in ours:
            assert ours[v] == pytest.approx(theirs[v], rel=1e-9, abs=1e-12, nan_ok=True)


@pytest.mark.parametrize("seed", SEEDS)
def test_spanning_forest_is_networkx_kruskal(seed):
    # Weights 0..3 make many ties: the forest and its order must still be networkx's.
    G = random_graph(seed, p=0.1, max_weight=3)
    for i, v in enumerate(G):
        G.nodes[v]["i"] = i
    assert list(nx.minimum_spanning_edges(G, backend="ordo")) == list(
        nx.minimum_spanning_edges(G)
    )
    ours, theirs = nx.minimum_spanning_tree(G, backend="ordo"), nx.minimum_spanning_tree(G)
    assert list(ours.edges(data=True)) == list(theirs.edges(data=True))
    assert ours.graph == theirs.graph and list(ours.nodes(data=True)) == list(
        theirs.nodes(data=True)
    )
    # The same adjacency order, and attribute dicts of its own.
    assert [(n, list(nbrs.items())) for n, nbrs in ours.adj.items()] == [
        (n, list(nbrs.items())) for n, nbrs in theirs.adj.items()
    ]
    u, v = next(iter(ours.edges))
    assert ours[u][v] is ours[v][u] and ours[u][v] is not G[u][v]
    assert ours.nodes[u] is not G.nodes[u]
    H = G.copy()
    for u, v, d in H.edges(data=True):
        d["weight"] = -1.5 * d["weight"]  # floats and negatives rank as well
    assert list(nx.minimum_spanning_edges(H, data=False, backend="ordo")) == list(
        nx.minimum_spanning_edges(H, data=False)
    )


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("directed", [False, True])
def test_flow_values_equal_networkx(seed, directed):
    G = random_graph(seed, directed, p=0.15)
    s, t = list(G)[:2]
    for f in (nx.maximum_flow_value, nx.minimum_cut_value):
        assert f(G, s, t, backend="ordo") == f(G, s, t)


def test_errors_are_networkx_exceptions():
    G = nx.path_graph(3)
    with pytest.raises(nx.NodeNotFound):
        nx.single_source_dijkstra_path_length(G, 7, backend="ordo")
    with pytest.raises(nx.NodeNotFound):
        nx.single_source_shortest_path_length(G, "x", backend="ordo")
    with pytest.raises(nx.NetworkXPointlessConcept):
        nx.is_connected(nx.Graph(), backend="ordo")
    with pytest.raises(nx.NetworkXNotImplemented):
        nx.connected_components(nx.DiGraph([(0, 1)]), backend="ordo")
    with pytest.raises(nx.NetworkXNotImplemented):
        nx.core_number(nx.Graph([(0, 0), (0, 1)]), backend="ordo")
    nx.set_edge_attributes(G, 1, "capacity")
    with pytest.raises(nx.NetworkXError):
        nx.maximum_flow_value(G, 0, 0, backend="ordo")
    with pytest.raises(nx.NetworkXError):
        nx.maximum_flow_value(G, 0, 9, backend="ordo")


def test_empty_and_single_node_graphs():
    E = nx.Graph()
    assert nx.pagerank(E, backend="ordo") == {}
    assert nx.betweenness_centrality(E, backend="ordo") == {}
    assert list(nx.connected_components(E, backend="ordo")) == []
    assert nx.transitivity(E, backend="ordo") == 0
    assert nx.core_number(E, backend="ordo") == {}
    assert nx.triangles(E, backend="ordo") == {} == nx.clustering(E, backend="ordo")
    one = nx.Graph()
    one.add_node("a")
    assert nx.pagerank(one, backend="ordo") == {"a": 1.0}
    assert nx.single_source_dijkstra_path_length(one, "a", backend="ordo") == {"a": 0}


def test_second_call_converts_nothing(monkeypatch):
    G = random_graph(1)
    built = []
    original = backend_graph_module.Graph.from_edges
    monkeypatch.setattr(
        backend_graph_module.Graph,
        "from_edges",
        staticmethod(lambda *a, **k: built.append(1) or original(*a, **k)),
    )
    conversions = []
    init = backend_graph_module.BackendGraph.__init__

    def counting_init(self, graph):
        conversions.append(1)
        init(self, graph)

    monkeypatch.setattr(backend_graph_module.BackendGraph, "__init__", counting_init)
    first = nx.pagerank(G, weight=None, backend="ordo")
    assert (len(conversions), len(built)) == (1, 1)
    assert nx.pagerank(G, weight=None, backend="ordo") == first
    assert (len(conversions), len(built)) == (1, 1)
    nx.core_number(G, backend="ordo")  # the same unweighted ordo graph
    assert (len(conversions), len(built)) == (1, 1)
    nx.single_source_dijkstra_path_length(G, next(iter(G)), backend="ordo")
    assert (len(conversions), len(built)) == (1, 2)  # the weighted one, once
    G.add_edge("new", "node")  # networkx clears the cache: converted afresh
    nx.pagerank(G, weight=None, backend="ordo")
    assert len(conversions) == 2


def test_convert_once_then_dispatch_on_the_backend_graph():
    G = random_graph(2)
    H = backend.convert_from_nx(G)
    assert H.__networkx_backend__ == "ordo"
    assert approx_dict(nx.pagerank(H, weight=None), nx.pagerank(G, weight=None, backend="ordo"), 0)
    assert backend.convert_to_nx(H) is G


@pytest.mark.parametrize(
    "values",
    [[1, 2], [True, 3], [1.5, 2.0], [1, 2.5], [1, 2, 3.5, 4], [2.5, 1], [2**70, 1], ["a", 1],
     [np.int64(3), 4], [np.float64(1.0), 2.0], [None, 1], []],
)
def test_native_edge_values_classify_as_numpy_does(values):
    # A path whose edges carry `values`; the native reader and the multigraph path's numpy
    # inference must agree on the kind, the values and the other types.
    G = nx.path_graph(len(values) + 1)
    for i, w in enumerate(values):
        G[i][i + 1]["w"] = w
    neighbors = [G._adj[v] for v in G]
    raw = [d.get("w", 1) for nb in neighbors for d in nb.values()]
    kind, got, others = _ordo.edge_values(neighbors, "w", 1)
    want_kind, want, want_others = backend_graph_module._classified(raw)
    assert (kind, others) == (want_kind, want_others)
    assert (got is None) == (want is None)
    if got is not None:
        assert got.dtype == want.dtype and got.tolist() == want.tolist()


@pytest.mark.parametrize(
    "name, args, kwargs, reason",
    [
        ("pagerank", (nx.path_graph(3),), {"personalization": {0: 1}}, "personalization"),
        ("pagerank", (nx.path_graph(3),), {"nstart": {0: 1}}, "nstart"),
        ("pagerank", (nx.path_graph(3),), {"alpha": 0.9}, "alpha"),
        ("pagerank", (nx.path_graph(3),), {"max_iter": 3}, "max_iter"),
        ("pagerank", (nx.MultiGraph([(0, 1)]),), {}, "multigraph"),
        ("pagerank", (nx.Graph([(0, 1, {"weight": 2}), (1, 2)]),), {}, "weighted PageRank"),
        ("single_source_dijkstra_path_length", (nx.Graph([(0, 1, {"weight": 0.5})]), 0), {},
         "not integers"),
        ("single_source_dijkstra_path_length", (nx.Graph([(0, 1, {"weight": -1})]), 0), {},
         "negative"),
        ("single_source_dijkstra_path_length", (nx.Graph([(0, 1, {"weight": 2**40})]), 0), {},
         "above"),
        ("single_source_dijkstra_path_length", (nx.path_graph(2), 0),
         {"weight": lambda u, v, d: 1}, "weight function"),
        ("shortest_path_length", (nx.path_graph(2),), {}, "single-source"),
        ("triangles", (nx.DiGraph([(0, 1)]),), {}, "directed"),
        ("triangles", (nx.MultiGraph([(0, 1)]),), {}, "multigraph"),
        ("clustering", (nx.Graph([(0, 1, {"w": 2}), (1, 2)]),), {"weight": "w"},
         "weighted clustering"),
        ("average_clustering", (nx.DiGraph([(0, 1)]),), {}, "directed"),
        ("betweenness_centrality", (nx.Graph([(0, 1, {"w": 2}), (1, 2)]),), {"weight": "w"},
         "weighted"),
        ("minimum_spanning_edges", (nx.path_graph(3),), {"algorithm": "prim"}, "Kruskal"),
        ("maximum_flow_value", (nx.DiGraph([(0, 1)]), 0, 1), {}, "infinite"),
        ("core_number", (nx.DiGraph([(0, 1), (1, 0)]),), {}, "opposite arcs"),
        ("astar_path", (nx.path_graph(3), 0, 2), {}, "does not implement"),
    ],
)
def test_can_run_declines_with_a_reason(name, args, kwargs, reason):
    said = backend.can_run(name, args, kwargs)
    assert isinstance(said, str) and reason in said


def test_declined_calls_run_in_networkx_with_backend_priority():
    G = nx.Graph([(0, 1, {"weight": 0.5}), (1, 2, {"weight": 0.25})])
    saved = nx.config.backend_priority.algos
    nx.config.backend_priority.algos = ["ordo"]
    try:
        assert nx.single_source_dijkstra_path_length(G, 0) == {0: 0, 1: 0.5, 2: 0.75}
        assert nx.pagerank(G, personalization={0: 1}) == nx.pagerank(
            G, personalization={0: 1}, backend="networkx"
        )
    finally:
        nx.config.backend_priority.algos = saved
