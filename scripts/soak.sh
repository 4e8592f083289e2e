#!/usr/bin/env bash
# A long soak (not in CI): the stress test (every scheduler x every application at 16
# threads, verified), the scheduler battery and the CLI on real graphs with random schedulers
# and thread counts, in a loop until the time is up. Any failure stops it and leaves its log.
#
#   scripts/soak.sh [MINUTES]   (default 60)
set -euo pipefail
cd "$(dirname "$0")/.."
minutes=${1:-60}
end=$(( $(date +%s) + minutes * 60 ))
log=$(mktemp -d)/soak
mkdir -p "$log"
cargo build --release -p ordo-cli --quiet
cargo test --release -p ordo-algos --test stress --no-run --quiet
cargo test --release -p ordo-sched --test battery --no-run --quiet
data=${ORDO_DATA:-../shared/data}
graphs=()
for g in USA-road-d.NY.gr.gz osm-rome.gr.gz email-Enron.txt.gz wiki-Vote.txt.gz; do
    [[ -f $data/$g ]] && graphs+=("$data/$g")
done
mapfile -t scheds < <(./target/release/ordo schedulers --json |
    python3 -c 'import json,sys; print("\n".join(s["name"] for s in json.load(sys.stdin)))')
apps=(sssp bfs cc kcore pagerank mst tc)
rounds=0 runs=0
while (( $(date +%s) < end )); do
    ORDO_STRESS_REPEAT=5 cargo test --release -q -p ordo-algos --test stress >"$log/stress" 2>&1 ||
        { cat "$log/stress"; echo "soak: stress test failed (log $log)"; exit 1; }
    cargo test --release -q -p ordo-sched --test battery >"$log/battery" 2>&1 ||
        { cat "$log/battery"; echo "soak: battery failed (log $log)"; exit 1; }
    for g in "${graphs[@]}"; do
        s=${scheds[RANDOM % ${#scheds[@]}]}
        a=${apps[RANDOM % ${#apps[@]}]}
        t=$(( RANDOM % 16 + 1 ))
        [[ $s == serial ]] && t=1
        if ! ./target/release/ordo "$a" "$g" -s "$s" -t "$t" >"$log/cli" 2>&1; then
            cat "$log/cli"; echo "soak: ordo $a $g -s $s -t $t failed (log $log)"; exit 1
        fi
        runs=$((runs + 1))
    done
    rounds=$((rounds + 1))
    echo "soak: round $rounds ok ($runs verified CLI runs), $(( (end - $(date +%s)) / 60 )) min left"
done
echo "soak: $rounds rounds in $minutes min, no failure"
