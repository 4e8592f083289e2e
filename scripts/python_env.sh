#!/usr/bin/env bash
# Creates .venv with what the Python package's build and tests need (maturin, numpy, scipy,
# networkx, pytest, hypothesis, mypy), installing Debian's python3-venv first where venv is
# missing.
# Set ORDO_PEERS=1 to add the libraries scripts/py_bench.py and scripts/nx_bench.py compare
# with (NetworKit, igraph, rustworkx; graphblas-algorithms, a NetworkX backend). nx-parallel
# is left out: its latest release (0.3) fails to import against networkx 3.6.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! python3 -m venv --help >/dev/null 2>&1; then
    echo "prereq: installing Debian's python3-venv (python3 with venv not found)"
    apt-get update -qq && apt-get install -y -qq python3 python3-venv python3-pip
fi
if [ -x .venv/bin/python ]; then
    echo "prereq: Python venv: present (.venv, $(.venv/bin/python --version))"
else
    python3 -m venv .venv
    echo "prereq: Python venv: created (.venv, $(.venv/bin/python --version))"
fi
pip() { .venv/bin/pip --quiet --disable-pip-version-check "$@"; }
packages=(maturin numpy scipy networkx pytest hypothesis mypy)
if [ "${ORDO_PEERS:-0}" = 1 ]; then
    packages+=(networkit python-igraph rustworkx graphblas-algorithms)
fi
# pip prints nothing when every package is already there: say which it had to fetch.
absent=()
for package in "${packages[@]}"; do
    .venv/bin/pip show --quiet "$package" >/dev/null 2>&1 || absent+=("$package")
done
pip install "${packages[@]}"
if [ ${#absent[@]} -eq 0 ]; then
    echo "prereq: Python packages: present (${packages[*]})"
else
    echo "prereq: Python packages: installed ${absent[*]}"
fi
