"""Results on the shared real graphs equal scipy's and networkx's (skipped, with a message,
where ../shared/data is absent)."""

from collections import deque

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.csgraph as csg

import ordo

from conftest import lightest_undirected


@pytest.fixture(scope="module")
def ny(shared):
    return ordo.Graph.from_file(shared("USA-road-d.NY.gr.gz"))


@pytest.mark.parametrize("scheduler,threads", [("auto", 2), ("pmod", 2), ("smq", 8), ("mq", 2)])
def test_ny_sssp_equals_scipy_dijkstra(ny, scheduler, threads):
    A = ny.to_scipy(parallel="min")
    for source in [0, 140_000]:
        expected = csg.dijkstra(A, indices=source)
        got = ordo.sssp(ny, source, scheduler=scheduler, threads=threads)
        assert np.array_equal(got, expected)


def test_ny_bfs_mst_and_flow_equal_scipy(ny):
    A = ny.to_scipy(parallel="min")
    assert np.array_equal(
        ordo.bfs(ny, 5, threads=2), csg.shortest_path(A, unweighted=True, indices=5)
    )
    u, v, w = ordo.mst(ny, threads=2)
    expected = csg.minimum_spanning_tree(lightest_undirected(A))
    assert int(w.sum()) == int(expected.sum()) and len(u) == expected.nnz
    # Parallel arcs add their capacities.
    cap = ny.to_scipy(parallel="sum").astype(np.int32)
    value, side = ordo.max_flow(ny, 0, 264_345, threads=2)
    assert value == csg.maximum_flow(cap, 0, 264_345).flow_value
    assert side[0] and not side[264_345]


def test_rome_astar_equals_dijkstra(shared):
    G = ordo.Graph.from_file(shared("osm-rome.gr.gz"), coordinates=shared("osm-rome.co.gz"))
    assert G.coordinates.shape == (G.num_nodes, 2)
    dist = csg.dijkstra(G.to_scipy(parallel="min"), indices=0)
    for target in [3000, 100_000, G.num_nodes - 1]:
        for scheduler in ["auto", "smq"]:
            assert ordo.astar(G, 0, target, scheduler=scheduler, threads=2) == dist[target]


@pytest.fixture(scope="module")
def enron(shared):
    return ordo.Graph.from_file(shared("email-Enron.txt.gz"))


def test_enron_components_cores_and_pagerank_equal_networkx(enron):
    A = enron.to_scipy()
    count, label = csg.connected_components(A, directed=True, connection="weak")
    ours = ordo.cc(enron, threads=2)
    # Same partition: each scipy component maps to exactly one ordo label and back.
    assert len(set(zip(label.tolist(), ours.tolist()))) == count == len(set(ours.tolist()))
    H = nx.Graph(nx.from_scipy_sparse_array(A, create_using=nx.DiGraph))
    H.remove_edges_from(nx.selfloop_edges(H))
    core = nx.core_number(H)
    assert ordo.kcore(enron, threads=8).tolist() == [core[v] for v in range(enron.num_nodes)]
    D = nx.from_scipy_sparse_array(A, create_using=nx.DiGraph)
    # Both stop when an iteration changes the scores by less than n * tol in L1, which bounds
    # each one's distance to the exact scores by alpha / (1 - alpha) times that change; two
    # answers within 2 n tol of each other is not guaranteed (2.03 n tol occurs, with ordo's
    # Gauss-Seidel order varying between 2-thread runs), so each is checked against
    # a near-exact solution and against each other by the sum of their bounds.
    n, tol, alpha = enron.num_nodes, 1e-8, 0.85
    networkx_bound = alpha / (1 - alpha) * n * tol
    exact = nx.pagerank(D, tol=1e-13, max_iter=1000)
    exact = np.array([exact[v] for v in range(n)])
    expected = nx.pagerank(D, tol=tol)
    expected = np.array([expected[v] for v in range(n)])
    got, report = ordo.pagerank(enron, tol=tol, threads=2, report=True)
    assert report["stopping_rule"] == "l1-change" and report["last_change"] < n * tol
    error = np.abs(got - exact).sum()
    assert error <= report["error_bound"] and error < networkx_bound
    assert np.abs(expected - exact).sum() < networkx_bound
    assert np.abs(got - expected).sum() < report["error_bound"] + networkx_bound


def test_facebook_triangles_equal_networkx(shared):
    G = ordo.Graph.from_file(shared("facebook_combined.txt.gz"))
    H = nx.Graph(nx.from_scipy_sparse_array(G.to_scipy()))
    assert ordo.tc(G, threads=8) == sum(nx.triangles(H).values()) // 3 == 1_612_010


def brandes(adj, sources):
    """Serial Brandes (unweighted, directed) over `sources`, in plain Python."""
    n = len(adj)
    score = np.zeros(n)
    for s in sources:
        sigma, dist, order = [0.0] * n, [-1] * n, []
        sigma[s], dist[s] = 1.0, 0
        queue = deque([s])
        while queue:
            v = queue.popleft()
            order.append(v)
            for t in adj[v]:
                if dist[t] < 0:
                    dist[t] = dist[v] + 1
                    queue.append(t)
                if dist[t] == dist[v] + 1:
                    sigma[t] += sigma[v]
        delta = [0.0] * n
        for v in reversed(order):
            for t in adj[v]:
                if dist[t] == dist[v] + 1:
                    delta[v] += sigma[v] / sigma[t] * (1 + delta[t])
            if v != s:
                score[v] += delta[v]
    return score


def test_wiki_vote_bc_equals_brandes(shared):
    G = ordo.Graph.from_file(shared("wiki-Vote.txt.gz"))
    indptr, indices, _ = G._native.csr()
    adj = [sorted(set(indices[indptr[v] : indptr[v + 1]].tolist()) - {v}) for v in range(G.num_nodes)]
    sources = [0, 3, 30, 700, 5000]
    expected = brandes(adj, sources)
    for queues, layout in [("nwq", "adl"), ("dynamic", "input")]:
        got = ordo.bc(G, sources=sources, queues=queues, layout=layout, threads=2)
        assert np.allclose(got, expected, rtol=1e-9, atol=1e-9)
