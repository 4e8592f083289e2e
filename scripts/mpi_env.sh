#!/usr/bin/env bash
# Installs what ordo-dist needs to build and run when it is missing: Open MPI (headers,
# library, mpirun) and libclang for rsmpi's bindgen. Debian/Ubuntu packages; run as root or
# with sudo. On a cluster, load the site's MPI module instead (docs/distributed.md).
set -euo pipefail

have() { command -v "$1" >/dev/null 2>&1; }
missing=()
have mpirun || missing+=(openmpi-bin)
[ -e /usr/include/x86_64-linux-gnu/mpi/mpi.h ] || [ -e /usr/lib/x86_64-linux-gnu/openmpi/include/mpi.h ] \
    || have mpicc || missing+=(libopenmpi-dev)
ls /usr/lib/llvm-*/lib/libclang*.so* >/dev/null 2>&1 || missing+=(libclang-dev clang)
have pkg-config || missing+=(pkg-config)
if [ ${#missing[@]} -eq 0 ]; then
    exit 0
fi
echo "installing ${missing[*]} (Open MPI for ordo-dist)"
sudo=""
if [ "$(id -u)" -ne 0 ]; then
    if have sudo; then sudo="sudo"; else
        echo "need root to install ${missing[*]}: apt-get install -y ${missing[*]}" >&2
        exit 1
    fi
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq "${missing[@]}" >/dev/null
