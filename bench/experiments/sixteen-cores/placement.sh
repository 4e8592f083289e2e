#!/bin/bash
# On a bare 16-core machine (copied in .dev/ by bench/experiments/sixteen-cores/bundle.sh): does
# where the workers run explain 2 threads being no faster than 1? The CPU topology the guest
# sees, the cost of a barrier between pairs of CPUs, then SSSP on NY and grid1m (ordo's default,
# obim tasks, GAPBS) with ordo's pinning against unpinned workers and against chosen CPU pairs,
# and at 4-16 threads pinned against unpinned; medians of 5. About 3 minutes there.
#   .dev/placement.sh [GRAPHS]          # default "ny grid1m"
# Results under $OUT: placement.txt and placement.jsonl.
set -u
cd "$(dirname "$0")/.."
GRAPHS=${1:-ny grid1m}
JSONL=$OUT/placement.jsonl
. .dev/common.sh
{
lscpu | grep -E 'Model name|^CPU\(s\)|Thread|Core|Socket|NUMA|L2|L3'
lscpu -e 2>/dev/null | head -20
for c in $(seq 0 15); do
  f=/sys/devices/system/cpu/cpu$c/topology
  [ -d $f ] && echo "cpu$c core $(cat $f/core_id) pkg $(cat $f/physical_package_id) siblings $(cat $f/thread_siblings_list)"
done
el "barrier between two CPUs (unpinned team held to the pair by taskset)"
for pair in 0,1 0,2 0,3 0,8 0,15 2,3 6,7; do
  echo "pair $pair: $(NOPIN=1 taskset -c $pair .dev/round_cost 2 2>&1 | tr '\n' ' ')"
done
echo "pinned 2: $(.dev/round_cost 2 2>&1 | tr '\n' ' ')"
} | tee $OUT/placement.txt
el prep
for g in $GRAPHS; do prep_graph $g; done
cd $W
el prep done
{
for g in $GRAPHS; do
  s=$(source_of $g); d=$(gapbs_delta_of $g)
  o() { $O sssp $g.ordo --source $s --repeat 5 --no-verify --json "$@" 2>/dev/null | ot; }
  gap() { $B/gapbs-sssp -f $g.wsg -r $((s - 1)) -d $d -n 5 | gt; }
  echo "== $g sssp, ms (default = ordo's default; obim = --algo priority -s obim)"
  printf '%-26s %8s %8s %8s\n' placement gapbs default obim
  printf '%-26s %s %s %s\n' "1 thread, pinned" "$(OMP_NUM_THREADS=1 gap)" "$(o -t 1)" "$(o -t 1 --algo priority -s obim)"
  printf '%-26s %s %s %s\n' "1 thread, unpinned" "$(OMP_NUM_THREADS=1 gap)" "$(o -t 1 --no-pin)" "$(o -t 1 --no-pin --algo priority -s obim)"
  printf '%-26s %s %s %s\n' "2, ordo pinned / omp free" "$(OMP_NUM_THREADS=2 gap)" "$(o -t 2)" "$(o -t 2 --algo priority -s obim)"
  printf '%-26s %s %s %s\n' "2, unpinned" "$(OMP_NUM_THREADS=2 gap)" "$(o -t 2 --no-pin)" "$(o -t 2 --no-pin --algo priority -s obim)"
  for pair in 0,1 0,2 0,8 0,15; do
    tp() { taskset -c $pair "$@"; }
    printf '%-26s %s %s %s\n' "2 on cpus $pair" "$(OMP_NUM_THREADS=2 tp $B/gapbs-sssp -f $g.wsg -r $((s - 1)) -d $d -n 5 | gt)" \
      "$(tp $O sssp $g.ordo --source $s --repeat 5 --no-verify --json -t 2 --no-pin 2>/dev/null | ot)" \
      "$(tp $O sssp $g.ordo --source $s --repeat 5 --no-verify --json -t 2 --no-pin --algo priority -s obim 2>/dev/null | ot)"
  done
  printf '%-26s %s %s %s\n' "2, omp bound to cores" "$(OMP_NUM_THREADS=2 OMP_PROC_BIND=close OMP_PLACES=cores gap)" "-" "-"
  for t in 4 8 16; do
    printf '%-26s %s %s %s\n' "$t, ordo pinned / omp free" "$(OMP_NUM_THREADS=$t gap)" "$(o -t $t)" "$(o -t $t --algo priority -s obim)"
    printf '%-26s %s %s %s\n' "$t, unpinned" "$(OMP_NUM_THREADS=$t gap)" "$(o -t $t --no-pin)" "$(o -t $t --no-pin --algo priority -s obim)"
  done
done
} | tee -a $OUT/placement.txt
el end
