#!/bin/bash
# ordo against the peers at 1 to 16 threads on a bare 16-core machine: compare.py's prep and
# run on NY, Slashdot, Kronecker 20 and grid1m, and a paper matrix (scale16.toml). Copied in
# .dev/ by bench/experiments/sixteen-cores/bundle.sh; each argument is GRAPHS:APPS:THREADS (APPS empty: all) or
# BENCH. A full run (about 8.5 minutes):
#   .dev/scaling.sh "kron20,grid1m:sssp,bfs,cc,pagerank,bc,kcore,mst,pfp:1,4,16" \
#     "kron20,grid1m:tc:16" BENCH "ny,slashdot::1,4,16" \
#     "kron20,grid1m:sssp,bfs,cc,pagerank,bc,kcore,mst:2,8"
# Results under $OUT: compare.txt, results.jsonl, bench.tgz, machine.txt.
set -u
cd "$(dirname "$0")/.."
. .dev/common.sh
{ nproc; lscpu; free -g; uname -a; } > $OUT/machine.txt 2>&1
grep -E 'Model name|^CPU\(s\)|Thread|Socket|NUMA node' $OUT/machine.txt
mkdir -p target/release && cp .dev/ordo target/release/ordo && chmod +x target/release/ordo .dev/peers/bin/*
W=${W:-/tmp/g}; mkdir -p $W; cp .dev/manifest.json $W/
el prep
ORDO_DATA=.dev/data timeout 200 python3 .dev/peers/compare.py prep --set-file .dev/set.json --work $W > $OUT/prep.log 2>&1 || { el "prep failed"; tail -20 $OUT/prep.log; }
el prep done
export PYTHONUNBUFFERED=1
for spec in "$@"; do
  if [ "$spec" = BENCH ]; then
    el bench
    timeout 150 target/release/ordo bench .dev/scale16.toml --data $W --out /tmp/bench > $OUT/bench.log 2>&1; el "bench rc $?"
    tail -45 $OUT/bench.log
    tar czf $OUT/bench.tgz -C /tmp bench 2>/dev/null
    continue
  fi
  IFS=: read graphs apps threads <<< "$spec"
  el "compare $graphs $apps $threads"
  PEERS_OUT=$OUT timeout 400 python3 .dev/peers/compare.py run --work $W --threads $threads --rounds 1 --graphs $graphs ${apps:+--apps $apps} 2>&1 | tee -a $OUT/compare.txt
done
el end
