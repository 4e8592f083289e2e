"""Graph construction, conversion and files, and the errors bad input gets."""

import gzip

import numpy as np
import pytest
import scipy.sparse as sp

import ordo

from conftest import random_arcs


def test_from_edges_matches_scipy_roundtrip():
    src, dst, w = random_arcs(50, 300, seed=1)
    G = ordo.Graph.from_edges(src, dst, w, num_nodes=60)
    assert (G.num_nodes, G.num_edges, G.is_weighted) == (60, 300, True)
    A = sp.coo_array((w, (src, dst)), shape=(60, 60)).tocsr()
    B = G.to_scipy()
    # Parallel arcs stay separate in ordo; both sum them once dense.
    assert np.array_equal(A.toarray(), B.toarray())
    H = ordo.Graph.from_scipy(B)
    assert np.array_equal(H.to_scipy().toarray(), A.toarray())
    assert np.array_equal(G.out_degrees(), np.bincount(src, minlength=60))


def test_from_networkx_maps_nodes_in_order():
    nx = pytest.importorskip("networkx")
    H = nx.DiGraph()
    H.add_edge("x", "y", weight=3)
    H.add_edge("y", "z")  # no weight: 1, as networkx assumes
    G = ordo.Graph.from_networkx(H)
    assert G.num_edges == 2 and G.is_weighted
    assert ordo.sssp(G, 0).tolist() == [0.0, 3.0, 4.0]
    U = ordo.Graph.from_networkx(H, weight=None)
    assert not U.is_weighted and ordo.sssp(U, 0).tolist() == [0.0, 1.0, 2.0]


def test_float_weights_must_be_integral():
    G = ordo.Graph.from_edges([0], [1], weights=np.array([3.0]))
    assert G.to_scipy().toarray()[0, 1] == 3
    with pytest.raises(ValueError, match=r"weights\[1\] = 2.5.*integers"):
        ordo.Graph.from_edges([0, 1], [1, 0], weights=[1.0, 2.5])


@pytest.mark.parametrize(
    "src,dst,weights,num_nodes,error,match",
    [
        ([0, 1], [1], None, None, ValueError, "differ in length"),
        ([0, 5], [1, 2], None, 3, ValueError, r"src\[1\] = 5 is not a node"),
        ([0, -1], [1, 2], None, None, ValueError, r"src\[1\] = -1"),
        ([0], [1], [-4], None, ValueError, "negative"),
        ([0], [1], [2**32], None, ValueError, "integers in 0..4294967295"),
        ([0], [1], [1, 2], None, ValueError, "2 entries for 1 edges"),
        ([0], [1], None, -3, ValueError, "negative"),
        ([0], [1], None, 2**40, ValueError, "32-bit"),
        ([0.5], [1], None, None, TypeError, "integer node ids"),
        ([[0]], [[1]], None, None, ValueError, "one-dimensional"),
    ],
)
def test_from_edges_rejects_bad_input(src, dst, weights, num_nodes, error, match):
    with pytest.raises(error, match=match):
        ordo.Graph.from_edges(src, dst, weights, num_nodes)


def test_empty_graphs():
    G = ordo.Graph.from_edges([], [])
    assert (G.num_nodes, G.num_edges) == (0, 0)
    H = ordo.Graph.from_edges([], [], num_nodes=3)
    assert ordo.cc(H).tolist() == [0, 1, 2]
    assert ordo.tc(H) == 0
    with pytest.raises(IndexError, match="the graph has 0 nodes"):
        ordo.sssp(G, 0)


def test_save_and_reload(tmp_path):
    src, dst, w = random_arcs(40, 200, seed=2)
    G = ordo.Graph.from_edges(src, dst, w)
    for name in ["g.ordo", "g.gr", "g.wel.gz"]:
        fmt = {"g.ordo": None, "g.gr": "dimacs", "g.wel.gz": "wel"}[name]
        G.save(tmp_path / name, format=fmt)
        H = ordo.Graph.from_file(tmp_path / name)
        assert H.num_edges == G.num_edges
        assert np.array_equal(ordo.sssp(H, 0), ordo.sssp(G, 0))


def test_file_formats_and_id_base(tmp_path):
    (tmp_path / "g.txt").write_text("# SNAP\n0\t1\n1\t2\n")
    G = ordo.Graph.from_file(tmp_path / "g.txt")
    assert (G.num_nodes, G.num_edges, G.id_base) == (3, 2, 0)
    (tmp_path / "g.mtx").write_text(
        "%%MatrixMarket matrix coordinate integer general\n3 3 2\n1 2 4\n2 3 5\n"
    )
    M = ordo.Graph.from_file(tmp_path / "g.mtx")
    assert M.id_base == 1 and ordo.sssp(M, 0).tolist() == [0.0, 4.0, 9.0]
    S = ordo.Graph.from_file(tmp_path / "g.txt", symmetrize=True, weights="5:5:1")
    assert S.num_edges == 4 and ordo.sssp(S, 2).tolist() == [10.0, 5.0, 0.0]


def test_bad_file_gives_format_error_with_line(tmp_path):
    p = tmp_path / "bad.gr"
    p.write_text("p sp 3 2\na 1 2 7\na 1 x 3\n")
    with pytest.raises(ordo.GraphFormatError) as e:
        ordo.Graph.from_file(p)
    assert e.value.file == str(p) and e.value.line == 3
    assert e.value.reason and str(p) in str(e.value)
    assert isinstance(e.value, ValueError)


def test_negative_weight_in_file(tmp_path):
    p = tmp_path / "neg.gr"
    p.write_text("p sp 2 1\na 1 2 -5\n")
    with pytest.raises(ordo.GraphFormatError, match="negative"):
        ordo.Graph.from_file(p)


def test_header_claiming_huge_graph_is_refused(tmp_path):
    p = tmp_path / "huge.gr"
    p.write_text("p sp 1000000000000 1\na 1 2 1\n")
    with pytest.raises(ordo.GraphFormatError):
        ordo.Graph.from_file(p)
    q = tmp_path / "huge.mtx.gz"
    with gzip.open(q, "wt") as f:
        f.write("%%MatrixMarket matrix coordinate pattern general\n4000000000 4000000000 1\n1 2\n")
    with pytest.raises(ordo.GraphFormatError):
        ordo.Graph.from_file(q)


def test_missing_file_and_unknown_format(tmp_path):
    with pytest.raises(FileNotFoundError):
        ordo.Graph.from_file(tmp_path / "nope.gr")
    with pytest.raises(ValueError, match="unknown format 'xml'"):
        ordo.Graph.from_file(tmp_path / "nope.gr", format="xml")
    with pytest.raises(ValueError):
        ordo.Graph.from_file(tmp_path / "nope.gr", weights="1:x")


def test_truncated_binary_file(tmp_path):
    G = ordo.Graph.from_edges([0, 1], [1, 2])
    G.save(tmp_path / "g.ordo")
    data = (tmp_path / "g.ordo").read_bytes()
    (tmp_path / "cut.ordo").write_bytes(data[: len(data) // 2])
    with pytest.raises(ordo.GraphFormatError):
        ordo.Graph.from_file(tmp_path / "cut.ordo")


def test_coordinates():
    G = ordo.Graph.from_edges([0, 1], [1, 2], [1, 1])
    assert G.coordinates is None
    with pytest.raises(ValueError, match="A\\* needs node coordinates"):
        ordo.astar(G, 0, 2)
    with pytest.raises(ValueError, match="shape"):
        G.with_coordinates([[0, 0], [1, 1]])
    with pytest.raises(ValueError, match="not finite"):
        G.with_coordinates([[0, 0], [1, np.nan], [2, 2]])
    C = G.with_coordinates([[0, 0], [1, 0], [2, 0]])
    assert C.coordinates.tolist() == [[0, 0], [1, 0], [2, 0]]
    assert ordo.astar(C, 0, 2) == 2.0
    with pytest.raises(TypeError):
        ordo.Graph(None)
