#!/usr/bin/env bash
# Fuzzes every graph reader with libFuzzer (cargo-fuzz, stable toolchain, no sanitizer: the
# readers are safe Rust but for the binary format's checked views). Each target asserts no
# panic, a heap peak linear in the input (fuzz/src/lib.rs) and a valid CSR for what it accepts.
#
#   scripts/fuzz.sh             every target for $FUZZ_SECONDS (default 10) seconds
#   scripts/fuzz.sh dimacs 600  one target for ten minutes
#
# Seeds come from fuzz/seeds (cut from the shared real graphs by scripts/fuzz_seeds.py); what
# the fuzzer learns accumulates in fuzz/corpus (not committed). A crash leaves its input in
# fuzz/artifacts/TARGET/ and fails the script: copy it to fuzz/regressions/ once fixed, where
# the graph crate's tests replay it on every run.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! cargo fuzz --version >/dev/null 2>&1; then
    echo "== installing cargo-fuzz"
    cargo install cargo-fuzz --locked --quiet
fi
targets=(dimacs snap mtx metis edgelist coords gzip binary)
if [[ $# -ge 1 ]]; then
    targets=("$1")
fi
seconds=${2:-${FUZZ_SECONDS:-10}}

cd fuzz
cargo fuzz build --sanitizer none --release 2>&1 | grep -v "^\s*Compiling" || true
for t in "${targets[@]}"; do
    mkdir -p "corpus/$t" "artifacts/$t"
    log=$(mktemp)
    if ! cargo fuzz run --sanitizer none --release "$t" "corpus/$t" "seeds/$t" -- \
        -max_total_time="$seconds" -max_len=8192 -timeout=10 -rss_limit_mb=4096 \
        -print_final_stats=1 >"$log" 2>&1; then
        tail -40 "$log"
        echo "fuzz target $t FAILED (a crash leaves its input in fuzz/artifacts/$t/)" >&2
        exit 1
    fi
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo "?")
    cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*' || echo "?")
    printf '%-9s %5ss  %9s inputs  coverage %5s  corpus %s\n' "$t" "$seconds" "$runs" "$cov" \
        "$(ls "corpus/$t" | wc -l)"
    rm -f "$log"
done
