#!/usr/bin/env bash
# ordo against the peers on graphs outside compare.py's default set: the shared data's other
# files (a road map of Amsterdam, the Princeton US road map, ego-Facebook, two Walshaw meshes,
# a Delaunay mesh) and a uniform random graph of 2^20 nodes (GAPBS's `-u 20`, 33.5M arcs),
# the kind of graph compare.py's set lacks. Guards against tuning to the default set.
#
#   scripts/heldout.sh prep              # converts them once (3-4 min on 2 cores; 2.5 GB)
#   scripts/heldout.sh run --apps pagerank,bfs --threads 1,2 --rounds 2
#
# Run from the project root after `cargo build --release`. WORK (default /tmp/ordo-heldout)
# holds the converted graphs; PEERS the directory of compare.py and bin/ (default
# ../shared/peers); ORDO_DATA the shared graphs (default ../shared/data).
set -euo pipefail
cmd=${1:?usage: scripts/heldout.sh prep|run [compare.py run options]}
shift
PEERS=${PEERS:-$(cd "$(dirname "$0")/../../shared/peers" && pwd)}
WORK=${WORK:-/tmp/ordo-heldout}
export ORDO_DATA=${ORDO_DATA:-$(cd "$(dirname "$0")/../../shared/data" && pwd)}
[ -x target/release/ordo ] || { echo "run from the project root after cargo build --release" >&2; exit 2; }
mkdir -p "$WORK"
case $cmd in
prep)
    if [ ! -e "$WORK/urand20.gr" ]; then
        # GAPBS's generator writes both directions of each of its 16.8M edges, weights 1-255.
        "$PEERS/bin/gapbs-converter" -u 20 -k 16 -w -e "$WORK/urand20.wel"
        target/release/ordo convert "$WORK/urand20.wel" "$WORK/urand20.gr"
        rm "$WORK/urand20.wel"
    fi
    cat > "$WORK/set.json" <<EOF
{"amsterdam": ["osm-amsterdam.gr.gz", "road", []],
 "princeton": ["princeton-usa.gr.gz", "road", []],
 "facebook": ["facebook_combined.txt.gz", "sym", ["--weights", "1:255:1", "--symmetrize"]],
 "finan512": ["finan512.graph.gz", "sym", ["--weights", "1:255:1", "--symmetrize"]],
 "delaunay": ["delaunay_n16.mtx.gz", "sym", ["--weights", "1:255:1", "--symmetrize"]],
 "bcsstk33": ["bcsstk33.graph.gz", "sym", ["--weights", "1:255:1", "--symmetrize"]],
 "urand20": ["$WORK/urand20.gr", "sym", []]}
EOF
    exec "$PEERS/compare.py" prep --set-file "$WORK/set.json" --work "$WORK/g"
    ;;
run)
    exec "$PEERS/compare.py" run --work "$WORK/g" "$@"
    ;;
*)
    echo "unknown command $cmd (prep or run)" >&2
    exit 2
    ;;
esac
