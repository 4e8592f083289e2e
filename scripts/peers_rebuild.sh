#!/usr/bin/env bash
# Rebuilds the GBBS and Galois peers of ../shared/peers for this machine's CPU, for machines
# where the shipped binaries die with SIGILL (they were built with -march=native on a CPU with
# AVX-512; the AMD EPYC VMs of this project have AVX2 only). Not part of ordo's build or tests.
#
#   scripts/peers_rebuild.sh OUT
#   OUT/peers/compare.py prep        # from the project root, as ../shared/peers/compare.py
#   OUT/peers/compare.py run --apps mst,kcore --threads 1,2
#
# OUT/peers holds a copy of compare.py and a bin/ folder of links to the shipped binaries, the
# rebuilt ones in their place; compare.py finds its binaries beside itself, so it runs
# unchanged. The sources are the peers' commits named in ../shared/peers/README.md, as git
# directories (the `fetch` tool brings them: github:ParAlg/gbbs, github:ParAlg/parlaylib,
# github:IntelligentSoftwareSystems/Galois):
#
#   GBBS_GIT     GBBS (commit bd48872)             default /work/.mirror/ParAlg+gbbs/repo
#   PARLAY_GIT   parlaylib (352f536)               default /work/.mirror/ParAlg+parlaylib/repo
#   GALOIS_GIT   Galois 6.0 (b67f942)              default /work/.mirror/IntelligentSoftwareSystems+Galois/repo
#
# A missing source skips that peer. Galois needs cmake, Boost (serialization, iostreams), fmt
# and LLVM's development files; the script installs the Debian packages when they are absent.
# Flags: GBBS as its Bazel setup builds it (-O3 -std=c++20 -mcx16, homegrown scheduler, 8-byte
# ids), Galois as a CMake Release build; both with -march=native, as the shipped builds.
# Time on 2 cores: about 6 minutes for GBBS, 15 for the Galois apps compare.py uses.
set -euo pipefail

OUT=${1:?usage: scripts/peers_rebuild.sh OUT}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SHARED=${SHARED_PEERS:-$ROOT/../shared/peers}
GBBS_GIT=${GBBS_GIT:-/work/.mirror/ParAlg+gbbs/repo}
PARLAY_GIT=${PARLAY_GIT:-/work/.mirror/ParAlg+parlaylib/repo}
GALOIS_GIT=${GALOIS_GIT:-/work/.mirror/IntelligentSoftwareSystems+Galois/repo}
JOBS=$(nproc)

mkdir -p "$OUT/peers/bin" "$OUT/src"
OUT=$(cd "$OUT" && pwd)
cp "$SHARED/compare.py" "$OUT/peers/compare.py"
for binary in "$SHARED"/bin/*; do
    ln -sf "$binary" "$OUT/peers/bin/$(basename "$binary")"
done
# compare.py reads the graphs from ../data beside itself unless ORDO_DATA says otherwise.
[ -e "$OUT/data" ] || ln -s "$(cd "$SHARED/../data" 2>/dev/null && pwd || echo "$SHARED/../data")" "$OUT/data"

if [ -d "$GBBS_GIT" ] && [ -d "$PARLAY_GIT" ]; then
    src=$OUT/src/gbbs
    rm -rf "$src" && mkdir -p "$src/external/parlaylib"
    git -C "$GBBS_GIT" archive HEAD | tar x -C "$src"
    git -C "$PARLAY_GIT" archive HEAD include | tar x -C "$src/external/parlaylib"
    flags=(-O3 -DNDEBUG -std=c++20 -mcx16 -march=native -DHOMEGROWN -DLONG -DAMORTIZEDPD
        -DUSEMALLOC -DPARLAY_USE_STD_ALLOC -pthread -w -I"$src" -I"$src/external/parlaylib/include")
    common=("$src"/gbbs/graph_io.cc "$src"/gbbs/io.cc "$src"/gbbs/helpers/parse_command_line.cc
        "$src"/gbbs/encodings/byte.cc "$src"/gbbs/encodings/byte_pd.cc
        "$src"/gbbs/encodings/byte_pd_amortized.cc)
    # name: source, as compare.py calls them (gbbs-NAME).
    declare -A gbbs=(
        [snap_converter]=utils/snap_converter.cc
        [KCore]=benchmarks/KCore/JulienneDBS17/KCore.cc
        [MSF_Boruvka]=benchmarks/MinimumSpanningForest/Boruvka/MinimumSpanningForest.cc
        [DeltaStepping]=benchmarks/PositiveWeightSSSP/DeltaStepping/DeltaStepping.cc
        [Connectivity_SimpleUnionAsync]=benchmarks/Connectivity/SimpleUnionAsync/Connectivity.cc
        [BFS]=benchmarks/BFS/NonDeterministicBFS/BFS.cc
        [Triangle]=benchmarks/TriangleCounting/ShunTangwongsan15/Triangle.cc
        [BC]=benchmarks/SSBetweenessCentrality/Brandes/SSBetweennessCentrality.cc
    )
    for name in "${!gbbs[@]}"; do
        echo "peers: building gbbs-$name"
        rm -f "$OUT/peers/bin/gbbs-$name"
        g++ "${flags[@]}" "$src/${gbbs[$name]}" "${common[@]}" -o "$OUT/peers/bin/gbbs-$name" &
        # At most JOBS compilers at once.
        while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n; done
    done
    wait
else
    echo "peers: GBBS or parlaylib sources not found ($GBBS_GIT, $PARLAY_GIT): GBBS skipped"
fi

if [ -d "$GALOIS_GIT" ]; then
    missing=()
    command -v cmake >/dev/null || missing+=(cmake)
    [ -e /usr/include/boost/serialization/serialization.hpp ] || missing+=(libboost-serialization-dev libboost-dev)
    [ -e /usr/include/boost/iostreams/stream.hpp ] || missing+=(libboost-iostreams-dev)
    [ -d /usr/include/fmt ] || missing+=(libfmt-dev)
    command -v llvm-config >/dev/null || ls /usr/lib/llvm-*/lib/cmake/llvm >/dev/null 2>&1 || missing+=(llvm-dev)
    if [ ${#missing[@]} -gt 0 ]; then
        echo "peers: installing ${missing[*]} for Galois"
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
    fi
    src=$OUT/src/galois
    rm -rf "$src" "$OUT/src/galois-build" && mkdir -p "$src" "$OUT/src/galois-build"
    git -C "$GALOIS_GIT" archive HEAD | tar x -C "$src"
    cmake -S "$src" -B "$OUT/src/galois-build" -DCMAKE_BUILD_TYPE=Release \
        -DGALOIS_ENABLE_DIST=OFF -DCMAKE_CXX_FLAGS=-march=native >/dev/null
    apps=(graph-convert sssp-cpu bfs-cpu bfs-directionopt-cpu pagerank-pull-cpu pagerank-push-cpu
        triangle-counting-cpu betweennesscentrality-cpu connected-components-cpu
        minimum-spanningtree-cpu preflowpush-cpu)
    echo "peers: building Galois ${apps[*]}"
    make -C "$OUT/src/galois-build" -j"$JOBS" "${apps[@]}" >/dev/null
    for app in "${apps[@]}"; do
        built=$(find "$OUT/src/galois-build" -type f -name "$app" -perm -u+x | head -1)
        [ -n "$built" ] && ln -sf "$built" "$OUT/peers/bin/$app"
    done
else
    echo "peers: Galois sources not found ($GALOIS_GIT): Galois skipped"
fi

echo "peers: done; from the project root: $OUT/peers/compare.py prep, then $OUT/peers/compare.py run ..."
