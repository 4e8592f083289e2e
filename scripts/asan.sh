#!/usr/bin/env bash
# AddressSanitizer, with leak detection, over the code that holds ordo's `unsafe`: the
# scheduler battery and the executor's tests, every scheduler x every application at 16
# threads (the stress test), the adversarial graphs, the readers' tests with the fuzz seeds,
# regressions and local corpus (fuzz/corpus, where a fuzzing run left one), and the CLI on
# every kind of bad input. Any report fails the run.
#
#   scripts/asan.sh          all of it (14 minutes on 2 cores, cold)
#   scripts/asan.sh --ci     the part the README's test command runs: the scheduler battery,
#                            the executor and the readers (5 minutes)
#   scripts/asan.sh --prereq only the line saying which toolchain it would use
#
# Built with `-Zsanitizer=address`; the standard library is not rebuilt
# (`-Cunsafe-allow-abi-mismatch=sanitizer`), so accesses inside std are not checked, only
# ordo's and its dependencies'. Builds go to target/asan, apart from the normal ones.
# Data races are not its business: docs/reliability.md, Concurrency.
set -euo pipefail
cd "$(dirname "$0")/.."

mode=${1:-all}
case "$mode" in
    all | --ci | --prereq) ;;
    *)
        echo "usage: scripts/asan.sh [--ci | --prereq]" >&2
        exit 2
        ;;
esac

# `-Zsanitizer` is a nightly flag. Without a nightly toolchain, the default one takes it with
# RUSTC_BOOTSTRAP=1 (rustup's standard library ships the AddressSanitizer runtime on every
# channel), so the script needs no toolchain beyond the one that builds ordo.
if cargo +nightly --version >/dev/null 2>&1; then
    toolchain=+nightly
    echo "prereq: nightly toolchain: present ($(cargo +nightly --version))"
else
    toolchain=
    export RUSTC_BOOTSTRAP=1
    echo "prereq: nightly toolchain: absent; $(cargo --version) with RUSTC_BOOTSTRAP=1"
fi
[ "$mode" = --prereq ] && exit 0
host=$(rustc $toolchain -vV | sed -n 's/^host: //p')

# `--target` keeps the sanitizer off build scripts and proc macros, which run in the compiler.
# cargo ignores RUSTFLAGS where either of the others is set.
unset CARGO_ENCODED_RUSTFLAGS CARGO_BUILD_RUSTFLAGS
export RUSTFLAGS="-Zsanitizer=address -Cunsafe-allow-abi-mismatch=sanitizer --cfg ordo_asan"
export RUSTDOCFLAGS="$RUSTFLAGS"
export CARGO_TARGET_DIR=target/asan
# Under ASan the bad-input test cannot limit the address space (the shadow memory reserves
# terabytes of it): a single allocation over 3 GiB is a report instead, which catches a
# header's claim believed, though not many smaller allocations adding up.
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:max_allocation_size_mb=3072:allocator_may_return_null=0"
export LSAN_OPTIONS="suppressions=$PWD/scripts/lsan.supp:print_suppressions=0"
export ORDO_FUZZ_CORPUS=1

# The sanitizer must be able to fail: a read one byte past an allocation and a lost
# allocation, built with the same flags, must each be reported.
canary=$(mktemp -d)
trap 'rm -rf "$canary"' EXIT
cat >"$canary/canary.rs" <<'RS'
fn main() {
    let v = vec![1u8; 8];
    if std::env::args().count() > 1 {
        for _ in 0..100 {
            std::mem::forget(std::hint::black_box(vec![2u8; 4096]));
        }
        return;
    }
    let i = std::hint::black_box(8);
    // SAFETY: none: one byte past the allocation, which AddressSanitizer must report.
    println!("{}", unsafe { *v.as_ptr().add(i) });
}
RS
# shellcheck disable=SC2086 # RUSTFLAGS is a list of flags; toolchain may be empty
rustc $toolchain $RUSTFLAGS --edition 2021 -O --target "$host" "$canary/canary.rs" -o "$canary/canary"
check_canary() {
    local what=$1 report=$2
    shift 2
    # Exiting with an error, not aborting, keeps the shell from announcing the signal.
    if ASAN_OPTIONS=detect_leaks=1 "$canary/canary" "$@" >/dev/null 2>"$canary/err" \
        || ! grep -q "$report" "$canary/err"; then
        echo "asan: the canary's $what was not reported; the sanitizer is not working" >&2
        cat "$canary/err" >&2
        exit 1
    fi
}
check_canary overflow heap-buffer-overflow
check_canary leak "detected memory leaks" leak
echo "asan: the canaries (an overflow, a leak) are reported"

asan_test() {
    echo "== asan: cargo test $*"
    # shellcheck disable=SC2086 # toolchain may be empty
    cargo $toolchain test --release --target "$host" "$@"
}

asan_test -p ordo-sched --test battery
asan_test -p ordo-exec --test for_each --test probes
asan_test -p ordo-graph --test fuzz_inputs --test readers
if [ "$mode" = all ]; then
    asan_test -p ordo-sched --lib
    asan_test -p ordo-cli --test bad_input
    asan_test -p ordo-algos --test stress --test adversarial
fi
echo "asan: no report"
