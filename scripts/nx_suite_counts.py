"""A pytest plugin for NetworkX's own test suite run with ``NETWORKX_TEST_BACKEND=ordo``:
counts, per test and per function, the dispatched calls ordo ran and those its
``can_run`` declined (networkx then ran them, ``NETWORKX_FALLBACK_TO_NX=True``), and
prints the totals with the reasons at the end of the run.

    PYTHONPATH=scripts NETWORKX_TEST_BACKEND=ordo NETWORKX_FALLBACK_TO_NX=True \\
        .venv/bin/python -m pytest -p nx_suite_counts --pyargs networkx.algorithms.flow
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Dict, Generator, Tuple

import pytest

_ran: Counter = Counter()  # function -> calls ordo ran
_declined: Counter = Counter()  # function -> calls ordo declined
_reasons: Counter = Counter()  # (function, reason) -> calls
_tests: Counter = Counter()  # "through ordo" / "declined only" / "neither" -> tests
_this_test: Dict[str, int] = {"ran": 0, "declined": 0}


def pytest_configure(config: Any) -> None:
    from ordo.networkx_backend import interface

    can_run = interface.BackendInterface.can_run

    def counting_can_run(name: str, args: Tuple[Any, ...], kwargs: Dict[str, Any]) -> Any:
        said = can_run(name, args, kwargs)
        if said is True:
            _ran[name] += 1
            _this_test["ran"] += 1
        else:
            _declined[name] += 1
            _reasons[(name, said)] += 1
            _this_test["declined"] += 1
        return said

    interface.BackendInterface.can_run = staticmethod(counting_can_run)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item: Any) -> Generator[None, None, None]:
    _this_test.update(ran=0, declined=0)
    yield
    if _this_test["ran"]:
        _tests["through ordo"] += 1
    elif _this_test["declined"]:
        _tests["declined only"] += 1
    else:
        _tests["no call ordo implements"] += 1


def pytest_terminal_summary(terminalreporter: Any) -> None:
    write = terminalreporter.write_line
    write("")
    write("ordo backend: tests by what their dispatched calls did: " + ", ".join(
        f"{what} {count}" for what, count in sorted(_tests.items())))
    write(f"ordo backend: calls ordo ran {sum(_ran.values())}, "
          f"declined (networkx ran them) {sum(_declined.values())}")
    for name in sorted(set(_ran) | set(_declined)):
        write(f"  {name}: ran {_ran[name]}, declined {_declined[name]}")
    for (name, reason), count in _reasons.most_common():
        write(f"  declined {name} x{count}: {reason}")
