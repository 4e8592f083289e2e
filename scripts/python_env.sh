#!/usr/bin/env bash
# Creates .venv with what the Python package's build and tests need (maturin, numpy, scipy,
# networkx, pytest, hypothesis, mypy), installing Debian's python3-venv first where venv is missing.
# Set ORDO_PEERS=1 to add the libraries scripts/py_bench.py compares with (NetworKit, igraph,
# rustworkx).
set -euo pipefail
cd "$(dirname "$0")/.."

if ! python3 -m venv --help >/dev/null 2>&1; then
    echo "python3 with venv not found: installing Debian's python3-venv" >&2
    apt-get update -qq && apt-get install -y -qq python3 python3-venv python3-pip
fi
if [ ! -x .venv/bin/python ]; then
    python3 -m venv .venv
fi
pip() { .venv/bin/pip --quiet --disable-pip-version-check "$@"; }
pip install maturin numpy scipy networkx pytest hypothesis mypy
if [ "${ORDO_PEERS:-0}" = 1 ]; then
    pip install networkit python-igraph rustworkx
fi
