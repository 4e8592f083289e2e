#!/bin/bash
# On a bare 16-core machine (copied in .dev/ by bench/experiments/sixteen-cores/bundle.sh): the
# papers' engine (SSSP and BFS as prioritized tasks under obim, PMOD and SMQ) against GAPBS and
# ordo's default at 1-16 threads, on NY, Rome, Kronecker 20 and grid1m, each cell the median of
# 3 trials, the systems interleaved per thread count; then (unless DIAG=0), on the road graphs,
# obim's cycle breakdown (`--breakdown`) and its SSSP time against chunk size. About 2 minutes
# there, plus 1 for the graphs.
#   .dev/schedulers.sh [GRAPHS [THREADS]]     # defaults: "ny rome kron20 grid1m" "1 2 4 8 16"
#   SCHEDS="obim obim:local=true pmod" .dev/schedulers.sh    # the columns (name[:key=value,...])
# Results under $OUT: schedulers.txt (the tables) and schedulers.jsonl (ordo's JSON lines).
set -u
cd "$(dirname "$0")/.."
GRAPHS=${1:-ny rome kron20 grid1m}
SCHEDS=${SCHEDS:-obim pmod smq}
THREADS=${2:-1 2 4 8 16}
JSONL=$OUT/schedulers.jsonl
. .dev/common.sh
grep -E 'Model name|^CPU\(s\)' <(lscpu)
el prep
for g in $GRAPHS; do prep_graph $g; done
cd $W
el prep done
# "pmod:local=true,chunk=32" -> --scheduler pmod --param local=true --param chunk=32
sched_args() { echo "--scheduler ${1%%:*}"; [[ $1 == *:* ]] && tr ',' '\n' <<< "${1#*:}" | sed 's/^/--param /'; }
{ printf '%-7s %-4s %3s %8s %8s' graph app t gapbs default; printf ' %s' $SCHEDS; echo; } | tee $OUT/schedulers.txt
for g in $GRAPHS; do
  s=$(source_of $g); d=$(gapbs_delta_of $g)
  for t in $THREADS; do
    run() { $O $1 $g.ordo --source $s -t $t --repeat 3 --no-verify --json "${@:2}" 2>/dev/null | ot; }
    {
      printf '%-7s %-4s %3s ' $g sssp $t
      OMP_NUM_THREADS=$t $B/gapbs-sssp -f $g.wsg -r $((s - 1)) -d $d -n 3 | gt
      run sssp; for q in $SCHEDS; do run sssp --algo priority $(sched_args $q); done; echo
      printf '%-7s %-4s %3s ' $g bfs $t
      OMP_NUM_THREADS=$t $B/gapbs-bfs -f $g.sg -r $((s - 1)) -n 3 | gt
      run bfs; for q in $SCHEDS; do run bfs --algo priority $(sched_args $q); done; echo
    } | tee -a $OUT/schedulers.txt
  done
done
[ "${DIAG:-1}" = 0 ] && { el end; exit 0; }
el diagnosis
bd() { python3 -c "import json,sys
for l in sys.stdin:
    if l.startswith('{'):
        d=json.loads(l); b=d['breakdown']; s=d['stats']
        print('%-5s tasks %8d stale %7d edges %8d empty_pops %7d' % (d['scheduler'], s['tasks'], d['stale_tasks'], d['edges_scanned'], s['empty_pops']),
              ' '.join('%s %.2f' % (k, b[k]) for k in ('gwork', 'uwork', 'enq', 'deq', 'fdeq', 'other')), s.get('scheduler'))"; }
for g in $GRAPHS; do
  case $g in ny|rome|grid1m) ;; *) continue ;; esac
  s=$(source_of $g)
  for t in 1 2 16; do for q in obim pmod smq; do
    echo -n "$g t=$t "
    $O sssp $g.ordo --source $s -t $t --no-verify --json --breakdown --algo priority --scheduler $q 2>/dev/null | tee -a $OUT/schedulers.jsonl | bd
  done; done
  for t in 2 8 16; do
    echo -n "$g sssp obim t=$t chunk 16 64 256 1024:"
    for c in 16 64 256 1024; do
      $O sssp $g.ordo --source $s -t $t --repeat 3 --no-verify --json --algo priority --scheduler obim --param chunk=$c 2>/dev/null | ot
    done; echo
  done
done 2>&1 | tee -a $OUT/schedulers.txt
el end
