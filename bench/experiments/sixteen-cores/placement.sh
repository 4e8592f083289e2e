#!/bin/bash
# On a bare 16-core machine (copied in .dev/ by bench/experiments/sixteen-cores/bundle.sh): does
# where the workers run explain 2 threads being no faster than 1? The CPU topology the guest
# sees, the cost of a barrier between pairs of CPUs, then SSSP on NY and grid1m (ordo's default,
# obim tasks, GAPBS) with ordo's pinning against unpinned workers and against chosen CPU pairs,
# and at 4-16 threads pinned against unpinned; medians of 5. About 20 s there.
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
  # One row: LABEL, THREADS, the CPUs every run is held to ("" for any), then ordo's placement
  # flags; GAPBS's OpenMP threads are never bound.
  row() {
    local label=$1 t=$2 cpus=$3; shift 3
    local on=(); [ -n "$cpus" ] && on=(taskset -c "$cpus")
    o() { "${on[@]}" $O sssp $g.ordo --source $s -t $t --repeat 5 --no-verify --json "$@" 2>/dev/null | ot; }
    printf '%-26s %s %s %s\n' "$label" \
      "$(OMP_NUM_THREADS=$t "${on[@]}" $B/gapbs-sssp -f $g.wsg -r $((s - 1)) -d $d -n 5 | gt)" \
      "$(o "$@")" "$(o "$@" --algo priority -s obim)"
  }
  echo "== $g sssp, ms (default = ordo's default; obim = --algo priority -s obim)"
  printf '%-26s %8s %8s %8s\n' placement gapbs default obim
  row "1 thread, pinned" 1 ""
  row "1 thread, unpinned" 1 "" --no-pin
  for t in 2 4 8 16; do
    row "$t, ordo pinned / omp free" $t ""
    row "$t, unpinned" $t "" --no-pin
  done
  for pair in 0,1 0,2 0,8 0,15; do row "2 on cpus $pair" 2 $pair --no-pin; done
  printf '%-26s %s\n' "2, omp bound to cores" \
    "$(OMP_NUM_THREADS=2 OMP_PROC_BIND=close OMP_PLACES=cores $B/gapbs-sssp -f $g.wsg -r $((s - 1)) -d $d -n 5 | gt)"
done
} | tee -a $OUT/placement.txt
el end
