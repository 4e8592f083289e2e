"""Bad arguments, the GIL, and Ctrl-C."""

import os
import signal
import threading
import time

import numpy as np
import pytest

import ordo


def grid(k, seed=1):
    """A k x k grid with both arcs of every edge and random weights."""
    idx = np.arange(k * k).reshape(k, k)
    a = np.concatenate([idx[:, :-1].ravel(), idx[:, 1:].ravel(), idx[:-1].ravel(), idx[1:].ravel()])
    b = np.concatenate([idx[:, 1:].ravel(), idx[:, :-1].ravel(), idx[1:].ravel(), idx[:-1].ravel()])
    w = np.random.default_rng(seed).integers(1, 1000, a.size)
    return ordo.Graph.from_edges(a, b, w)


SMALL = ordo.Graph.from_edges([0, 1, 2], [1, 2, 0], [1, 1, 1])


@pytest.mark.parametrize(
    "call,error,match",
    [
        (lambda: ordo.sssp(SMALL, 0, scheduler="nope"), ValueError, "unknown scheduler 'nope'.*obim"),
        (lambda: ordo.sssp(SMALL, 0, scheduler="obim", colour=3), ValueError, "colour"),
        (lambda: ordo.sssp(SMALL, 0, scheduler="obim", chunk="big"), ValueError, "chunk"),
        (lambda: ordo.sssp(SMALL, 0, scheduler="serial", threads=2), ValueError, "1 thread"),
        (lambda: ordo.sssp(SMALL, 0, threads=0), ValueError, "threads=0"),
        (lambda: ordo.sssp(SMALL, 0, scheduler="smq", delta=3), ValueError, "no delta"),
        (lambda: ordo.sssp(SMALL, 0, delta=99), ValueError, "delta=99"),
        (lambda: ordo.sssp(SMALL, 3), IndexError, "source 3 is not a node"),
        (lambda: ordo.sssp(SMALL, -1), IndexError, "source -1"),
        (lambda: ordo.sssp(SMALL, 1.5), TypeError, "integer node id"),
        (lambda: ordo.sssp("graph", 0), TypeError, "ordo.Graph"),
        (lambda: ordo.bfs(SMALL, 9), IndexError, "source 9"),
        (lambda: ordo.pagerank(SMALL, tol=2.0), ValueError, "tol=2"),
        (lambda: ordo.pagerank(SMALL, priority="x"), ValueError, "priority 'x'"),
        (lambda: ordo.bc(SMALL, layout="x"), ValueError, "layout 'x'"),
        (lambda: ordo.bc(SMALL, queues="x"), ValueError, "x"),
        (lambda: ordo.bc(SMALL, task=0), ValueError, "task=0"),
        (lambda: ordo.bc(SMALL, sources=[0, 7]), IndexError, "source 7"),
        (lambda: ordo.bc(SMALL, sources=-2), ValueError, "sources=-2"),
        (lambda: ordo.bc(SMALL, sources=True), TypeError, "sources must be"),
        (lambda: ordo.max_flow(SMALL, 1, 1), ValueError, "same node"),
        (lambda: ordo.max_flow(SMALL, 0, 5), IndexError, "sink 5"),
        (lambda: ordo.astar(SMALL, 0, 4), IndexError, "target 4"),
        (lambda: ordo.astar(SMALL.with_coordinates(np.zeros((3, 2))), 0, 1, geometry="x"),
         ValueError, "geometry 'x'"),
    ],
)
def test_bad_arguments(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_scheduler_params_are_applied():
    G = grid(20)
    expected = ordo.sssp(G, 0, scheduler="serial")
    for name, params in [("obim", {"chunk": 4}), ("smq", {"p_steal": 0.25, "steal_size": 2}),
                         ("pmod", {"chunk": 8}), ("mq", {"c": 2, "batch": 8})]:
        dist, rep = ordo.sssp(G, 0, scheduler=name, threads=4, report=True, **params)
        assert np.array_equal(dist, expected)
        for k, v in params.items():
            assert f"{k}={v}" in rep["scheduler"]


def test_every_scheduler_in_the_catalogue_runs():
    G = grid(15)
    expected = ordo.sssp(G, 0, scheduler="serial")
    for s in ordo.schedulers():
        threads = 1 if s["name"] == "serial" else 3
        assert np.array_equal(ordo.sssp(G, 0, scheduler=s["name"], threads=threads), expected)


def test_runs_release_the_gil():
    G = grid(400)
    ticks = 0
    done = threading.Event()

    def run():
        for _ in range(3):
            ordo.sssp(G, 0, scheduler="heap", threads=1)
        done.set()

    t = threading.Thread(target=run)
    t.start()
    while not done.is_set():
        ticks += 1
        time.sleep(0.001)
    t.join()
    # Python code kept running beside the runs: they did not hold the GIL.
    assert ticks > 10


def interrupt_after(seconds):
    timer = threading.Timer(seconds, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    return timer


@pytest.mark.parametrize(
    "long_run",
    [
        # A scheduler-driven run (ordo's executor)...
        lambda G: ordo.pagerank(G, tol=1e-12, threads=2, algo="priority"),
        # ...and BC's own level-synchronous engine (all sources: minutes).
        lambda G: ordo.bc(G, threads=2),
    ],
    ids=["pagerank", "bc"],
)
def test_ctrl_c_interrupts_and_leaves_python_usable(long_run):
    G = grid(700)
    # Python leaves SIGINT ignored when it starts with SIGINT ignored, as a shell does for
    # a background job (`cmd &`): install the usual handler, or the signal never arrives
    # and the BC run goes on for hours.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    timer = interrupt_after(0.3)
    try:
        with pytest.raises(KeyboardInterrupt):
            long_run(G)
    finally:
        timer.cancel()
        signal.signal(signal.SIGINT, previous)
    # The interpreter and the graph are fine afterwards.
    H = grid(10)
    assert np.array_equal(ordo.sssp(H, 0, threads=2), ordo.sssp(H, 0, scheduler="serial"))
    assert ordo.bfs(G, 0)[-1] == 2 * 699


def _sssp_in_child(conn):
    H = grid(10)
    conn.send(ordo.sssp(H, 0, threads=2).tolist())
    conn.close()


def test_a_forked_child_runs_on_its_own_workers():
    # ordo keeps its worker threads between runs; a forked child has none of the parent's and
    # must start its own instead of waiting on threads that do not exist there.
    import multiprocessing

    H = grid(10)
    expected = ordo.sssp(H, 0, threads=2)  # the parent's pool now holds parked threads
    ctx = multiprocessing.get_context("fork")
    parent, child = ctx.Pipe()
    p = ctx.Process(target=_sssp_in_child, args=(child,))
    p.start()
    assert parent.poll(60), "the child did not answer: its run hung"
    assert parent.recv() == expected.tolist()
    p.join(10)
    assert p.exitcode == 0
