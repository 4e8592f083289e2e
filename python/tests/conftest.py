"""Shared fixtures: the real graphs in ../shared/data (or $ORDO_DATA), skipped with a message
where the folder is absent, and small random graphs."""

import os
import pathlib

import numpy as np
import pytest
import scipy.sparse as sp

REPO = pathlib.Path(__file__).resolve().parents[2]


def data_dir():
    env = os.environ.get("ORDO_DATA")
    return pathlib.Path(env) if env else REPO.parent / "shared" / "data"


@pytest.fixture(scope="session")
def shared():
    """A function giving the path of a shared real graph, or skipping the test."""

    def path(name):
        p = data_dir() / name
        if not p.exists():
            pytest.skip(f"{p} not found: set ORDO_DATA to the folder of the shared real graphs")
        return p

    return path


def random_arcs(n, m, seed, max_weight=100):
    """m random arcs on n nodes (self-loops and parallel arcs included) with weights."""
    rng = np.random.default_rng(seed)
    src = rng.integers(0, n, m)
    dst = rng.integers(0, n, m)
    w = rng.integers(0, max_weight + 1, m)
    return src, dst, w


def lightest_undirected(A):
    """The undirected view scipy-side: the lighter arc of each pair, both directions."""
    A = sp.csr_array(A)
    A.setdiag(0)
    A.eliminate_zeros()
    T = A.T.tocsr()
    both = A.minimum(T)
    only = A - A.multiply(T > 0)
    U = both + only + only.T
    return sp.csr_array(U)
