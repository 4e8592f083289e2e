#!/bin/bash
# On a bare 16-core machine (copied in .dev/ by bench/experiments/sixteen-cores/bundle.sh): ordo's and GAPBS's
# delta-stepping at widths 2^8..2^16 on grid1m and NY at 4, 8 and 16 threads (what
# `delta::delta_stepping_width` was fitted on), and PageRank per thread count. 30 s there.
set -u
cd "$(dirname "$0")/.."
. .dev/common.sh
cat /sys/kernel/mm/transparent_hugepage/enabled /sys/kernel/mm/transparent_hugepage/defrag
el prep
prep_graph grid1m && prep_graph ny
cd $W
$O convert $D/soc-Slashdot0902.txt.gz sd.gr --drop-self-loops --merge-parallel --weights 1:255:1 >/dev/null && $O convert sd.gr sd.ordo >/dev/null
$B/gapbs-converter -f sd.gr -b sd.sg >/dev/null
ls -la
el sweep
js() { python3 -c "import json,sys; d=json.load(sys.stdin); print(*[d.get(k) for k in sys.argv[1:]], [round(x*1e3,2) for x in d['times_s']])" "$@"; }
# GAPBS's trial times in ms, all of them sorted (common.sh's gt gives their median).
trial_times() { grep -o 'Trial Time: *[0-9.]*' | awk '{print $3*1000}' | sort -n | tr '\n' ' '; }
for g in grid1m ny; do for t in 4 8 16; do for d in 8 9 10 11 12 13 14 15 16; do
  echo -n "sssp $g t=$t d=$d ordo: "; $O sssp $g.ordo -t $t --delta $d --repeat 7 --no-verify --json | js delta rounds edges_scanned time_s
  echo -n "   gapbs: "; OMP_NUM_THREADS=$t $B/gapbs-sssp -f $g.wsg -r 0 -d $((1<<d)) -n 7 | trial_times; echo
done; done; done
el pagerank
for g in grid1m ny sd; do n=$($O info $g.ordo --json 2>/dev/null | python3 -c "import json,sys; print(json.load(sys.stdin)['nodes'])" 2>/dev/null || echo 1000000)
  tol=$(python3 -c "print(f'{1e-4/$n:.3e}')")
  for t in 1 2 4 8 16; do
    echo -n "pr $g t=$t ordo: "; $O pagerank $g.ordo -t $t --tolerance $tol --repeat 7 --no-verify --json | js iterations time_s
    echo -n "   gapbs: "; OMP_NUM_THREADS=$t $B/gapbs-pr -f $g.sg -t 1e-4 -i 1000 -n 7 -l > pr.txt; trial_times < pr.txt; echo " iters $(( $(grep -cE '^ *[0-9]+ +[0-9.e-]+$' pr.txt) / 7 ))"
  done
  echo -n "pr $g t=1 nopin ordo: "; $O pagerank $g.ordo -t 1 --no-pin --tolerance $tol --repeat 7 --no-verify --json | js iterations time_s
done
el end
