#!/bin/bash
# Builds .dev/, the folder to copy with the working tree to a bare 16-core machine, for the
# scripts beside this one: a stripped ordo and the barrier timer (`round_cost`), the peers'
# binaries, the libraries a bare machine may lack, the graphs' sources and compare.py's
# manifest (so prep skips the delta sweep). Run from the repository root after `cargo build
# --release` and `compare.py prep` (for the manifest). About 41 MB, so that it and the
# working tree stay within 64 MiB.
set -eu
PEERS=${PEERS:-../shared/peers}
DATA=${ORDO_DATA:-../shared/data}
WORK=${WORK:-/tmp/ordo-peers/graphs}
grep -qx '/.dev/' .git/info/exclude 2>/dev/null || echo '/.dev/' >> .git/info/exclude
mkdir -p .dev/peers/bin .dev/lib .dev/data
strip -o .dev/ordo target/release/ordo
cargo build --release -q -p ordo-exec --example round_cost
strip -o .dev/round_cost target/release/examples/round_cost
cp "$PEERS/compare.py" .dev/peers/
for b in gapbs-bc gapbs-bfs gapbs-cc gapbs-converter gapbs-pr gapbs-sssp gapbs-tc gbbs-BC gbbs-BFS \
    gbbs-Connectivity_SimpleUnionAsync gbbs-DeltaStepping gbbs-KCore gbbs-MSF_Boruvka gbbs-Triangle \
    gbbs-snap_converter graph-convert minimum-spanningtree-cpu preflowpush-cpu connected-components-cpu \
    bfs-directionopt-cpu pagerank-pull-cpu betweennesscentrality-cpu sssp-cpu triangle-counting-cpu; do
  cp "$PEERS/bin/$b" .dev/peers/bin/
done
for l in libnuma.so.1 libtinfo.so.6 libgomp.so.1; do cp -L "/lib/x86_64-linux-gnu/$l" .dev/lib/; done
cp "$DATA/USA-road-d.NY.gr.gz" "$DATA/osm-rome.gr.gz" "$DATA/soc-Slashdot0902.txt.gz" .dev/data/
cp bench/experiments/sixteen-cores/set.json bench/experiments/sixteen-cores/scale16.toml .dev/
cp bench/experiments/sixteen-cores/{common,scaling,delta_sweep,schedulers,placement}.sh .dev/
python3 - "$WORK/manifest.json" <<'P'
import json, sys
m = json.load(open(sys.argv[1]))
json.dump({k: m[k] for k in ["ny", "rome", "slashdot", "kron20", "grid1m"]}, open(".dev/manifest.json", "w"), indent=1)
P
du -sh .dev
