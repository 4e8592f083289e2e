#!/usr/bin/env bash
# Every check ordo has: formatting, clippy (warnings are errors), the whole test suite in
# release mode (adversarial graphs, 16-thread stress, bad input for every subcommand, Ctrl-C),
# the loom model checks of the lock-free protocols, AddressSanitizer over the schedulers,
# the executor and the readers (scripts/asan.sh --ci), a short libFuzzer run of every graph
# reader, and the Python package (`pip install .` into .venv, then pytest with the
# docstrings' examples, and NetworkX's own tests run through the ordo backend).
# docs/reliability.md says what each covers. Open MPI is installed
# when missing (scripts/mpi_env.sh) for ordo-dist's tests, which launch mpirun; every
# prerequisite is checked (and installed where missing) first, one `prereq:` line each.
# Tests that need the shared real graphs look in $ORDO_DATA or ../shared/data and skip with a
# message when they are absent.
set -euo pipefail
cd "$(dirname "$0")/.."

# Prerequisites first, one `prereq:` line each, so a log shows what a fresh machine needed.
echo "== prerequisites"
if ! command -v cargo >/dev/null; then
    echo "cargo not found: install Rust from https://rustup.rs" >&2
    exit 1
fi
echo "prereq: cargo: present ($(cargo --version))"
for component in rustfmt clippy; do
    subcommand=${component/rustfmt/fmt}
    if cargo "$subcommand" --version >/dev/null 2>&1; then
        echo "prereq: $component: present ($(cargo "$subcommand" --version))"
    else
        rustup component add "$component"
        echo "prereq: $component: installed ($(cargo "$subcommand" --version))"
    fi
done
# ordo-dist builds against MPI (bindgen needs libclang) and its tests run mpirun -np 1, 2, 4.
scripts/mpi_env.sh
# The Python package's build and tests.
scripts/python_env.sh
# AddressSanitizer's toolchain (scripts/asan.sh): nightly, or the default one.
scripts/asan.sh --prereq
if cargo fuzz --version >/dev/null 2>&1; then
    echo "prereq: cargo-fuzz: present ($(cargo fuzz --version))"
else
    cargo install cargo-fuzz --locked --quiet
    echo "prereq: cargo-fuzz: installed ($(cargo fuzz --version))"
fi

echo "== cargo fmt --check"
cargo fmt --all -- --check
echo "== no import cycle among the files of a crate"
python3 scripts/import_cycles.py
echo "== cargo clippy -D warnings"
cargo clippy --workspace --all-targets --release -- -D warnings
echo "== cargo test (release)"
# ordo-py is the Python extension: it is tested from Python below.
cargo test --workspace --release --exclude ordo-py
echo "== loom model checks (obim global log, chunk lists, SMQ stealing buffer, locked heaps, SprayList skip list, termination)"
export RUSTFLAGS="--cfg loom"
export CARGO_TARGET_DIR=target/loom
cargo test --release -p ordo-sched --test loom_smq
cargo test --release -p ordo-sched --test loom_spraylist
cargo test --release -p ordo-exec --test loom_termination
# obim's retiring model explores one thread's worth of executions for minutes: it runs
# beside the single-threaded stages below (fuzzing, pytest) and is waited for at the end.
loom_obim=$(cargo test --release -p ordo-sched --test loom_obim --no-run --message-format=json |
    python3 -c 'import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("executable") and m["target"]["name"] == "loom_obim": print(m["executable"])')
unset RUSTFLAGS CARGO_TARGET_DIR

echo "== AddressSanitizer over the scheduler battery, the executor and the readers"
scripts/asan.sh --ci

echo "== loom: obim's models, in the background (log: target/loom/loom_obim.log)"
(cd crates/sched && "$loom_obim" --nocapture >../../target/loom/loom_obim.log 2>&1) &
loom_obim_pid=$!
trap 'kill "$loom_obim_pid" 2>/dev/null || true' EXIT

echo "== fuzz every graph reader for ${FUZZ_SECONDS:-8} s each"
FUZZ_SECONDS=${FUZZ_SECONDS:-8} scripts/fuzz.sh

echo "== Python package: pip install . into .venv, pytest (real graphs, hypothesis, doctests)"
.venv/bin/pip install --quiet --disable-pip-version-check --force-reinstall --no-deps .
.venv/bin/python -m pytest -q -p no:cacheprovider python/tests
# NetworkX's own tests of every module with a function the ordo backend dispatches, run
# through ordo (networkx runs what ordo's can_run declines); the plugin prints how many
# calls and tests went through ordo and why the others were declined.
echo "== NetworkX's test suite through the ordo backend"
PYTHONPATH=scripts NETWORKX_TEST_BACKEND=ordo NETWORKX_FALLBACK_TO_NX=True \
    .venv/bin/python -m pytest -q -p no:cacheprovider -p nx_suite_counts --pyargs \
    networkx.algorithms.shortest_paths networkx.algorithms.link_analysis \
    networkx.algorithms.components networkx.algorithms.tests.test_core \
    networkx.algorithms.tests.test_cluster networkx.algorithms.centrality \
    networkx.algorithms.tree networkx.algorithms.flow
.venv/bin/python -m mypy --strict --ignore-missing-imports python/ordo
# The docstrings' examples, run from the installed package.
(cd python/tests && ../../.venv/bin/python -m pytest -q -p no:cacheprovider --doctest-modules --pyargs ordo)

echo "== loom: obim's models (started before the fuzzing)"
if ! wait "$loom_obim_pid"; then
    cat target/loom/loom_obim.log
    echo "loom_obim FAILED" >&2
    exit 1
fi
trap - EXIT
grep -E "^test |executions|test result" target/loom/loom_obim.log
