# Sourced by the scripts beside this one, from the repository root on the bare 16-core machine:
# the libraries a bare machine lacks, ordo as $O, the peers' binaries under $B, elapsed-time
# logging, and `prep_graph G`, which writes G.ordo, G.wsg and G.sg into the working folder $W
# (G: ny, rome, grid1m or kron20).
T0=$(date +%s)
el() { echo "[t+$(( $(date +%s) - T0 ))s] $*"; }
mkdir -p /tmp/extralib
for l in libnuma.so.1 libtinfo.so.6 libgomp.so.1; do
  ldconfig -p | grep -q "$l " || cp .dev/lib/$l /tmp/extralib/
done
export LD_LIBRARY_PATH=/tmp/extralib
O=/tmp/o; cp .dev/ordo $O; chmod +x $O .dev/peers/bin/*
B=$PWD/.dev/peers/bin; M=$PWD/.dev/manifest.json; D=$PWD/.dev/data
W=${W:-/tmp/g}; mkdir -p $W

prep_graph() {
  local g=$1 f
  ( cd $W
    case $g in
      ny|rome) f=$(ls $D | grep -i -m1 "$g.*\.gr\.gz")
        $O convert $D/$f $g.gr --drop-self-loops --merge-parallel >/dev/null ;;
      grid1m) $O gen road --width 1000 --height 1000 -o g.tmp.ordo >/dev/null &&
        $O convert g.tmp.ordo grid1m.gr --symmetrize --merge-parallel >/dev/null && rm g.tmp.ordo ;;
      kron20) $B/gapbs-converter -g 20 -k 16 -w -e kron20.wel >/dev/null &&
        $O convert kron20.wel kron20.gr >/dev/null && rm kron20.wel ;;
      *) echo "prep_graph: unknown graph $g" >&2; return 1 ;;
    esac
    $O convert $g.gr $g.ordo >/dev/null && $B/gapbs-converter -f $g.gr -wb $g.wsg -s >/dev/null &&
      $B/gapbs-converter -f $g.gr -b $g.sg -s >/dev/null && rm $g.gr )
}

# The source vertex (1-based, as ordo takes it) and GAPBS's delta of graph $1, from the manifest.
source_of() { python3 -c "import json; print(json.load(open('$M'))['$1']['source'])"; }
gapbs_delta_of() { python3 -c "import json; print(json.load(open('$M'))['$1']['gapbs_delta'])"; }

# Median of the numbers on stdin; GAPBS's trial times and ordo's JSON times in ms.
med() { sort -n | awk '{a[NR]=$1} END {printf "%8.2f", (NR ? a[int((NR+1)/2)] : -1)}'; }
gt() { grep -o 'Trial Time: *[0-9.]*' | awk '{print $3*1000}' | med; }
ot() { tee -a ${JSONL:-/dev/null} | python3 -c "import json,sys
for l in sys.stdin:
    if l.startswith('{'): print(*[x*1e3 for x in json.loads(l)['times_s']], sep='\n')" | med; }
