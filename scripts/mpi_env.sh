#!/usr/bin/env bash
# Installs what ordo-dist needs to build and run when it is missing: Open MPI (headers,
# library, mpirun) and libclang for rsmpi's bindgen. Debian/Ubuntu packages; run as root or
# with sudo. On a cluster, load the site's MPI module instead (docs/distributed.md).
#
# Each check looks for the file its consumer loads, never a look-alike: bindgen (clang-sys)
# opens libclang.so, libclang.so.N or libclang-N.so*, and the base image's libclang-cpp14
# (libclang-cpp.so.14) is not one of them. Prints one `prereq:` line per prerequisite.
set -euo pipefail

have() { command -v "$1" >/dev/null 2>&1; }

# The first libclang that clang-sys would load, searched where it searches on Debian.
find_libclang() {
    local dir file
    local dirs=()
    [ -n "${LIBCLANG_PATH:-}" ] && dirs+=("$LIBCLANG_PATH")
    have llvm-config && dirs+=("$(llvm-config --libdir 2>/dev/null)")
    dirs+=(/usr/lib/llvm-*/lib /usr/lib/x86_64-linux-gnu /usr/lib64 /usr/lib /usr/local/lib)
    for dir in "${dirs[@]}"; do
        for file in "$dir"/libclang.so "$dir"/libclang.so.[0-9]* "$dir"/libclang-[0-9]*.so*; do
            if [ -e "$file" ]; then
                echo "$file"
                return 0
            fi
        done
    done
    return 1
}

find_mpi_header() {
    local file
    for file in /usr/lib/x86_64-linux-gnu/openmpi/include/mpi.h /usr/include/x86_64-linux-gnu/mpi/mpi.h \
        /usr/include/mpi.h; do
        [ -e "$file" ] && { echo "$file"; return 0; }
    done
    return 1
}

missing=()
mpirun_path=$(command -v mpirun || true)
[ -n "$mpirun_path" ] || missing+=(openmpi-bin)
mpi_header=$(find_mpi_header || true)
[ -n "$mpi_header" ] || missing+=(libopenmpi-dev)
libclang=$(find_libclang || true)
[ -n "$libclang" ] || missing+=(libclang-dev)
pkg_config=$(command -v pkg-config || true)
[ -n "$pkg_config" ] || missing+=(pkg-config)

if [ ${#missing[@]} -gt 0 ]; then
    echo "prereq: installing ${missing[*]} (Debian packages, for ordo-dist)"
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
fi

status() { # name, what was found before, what is found now
    if [ -n "$2" ]; then
        echo "prereq: $1: present ($2)"
    elif [ -n "$3" ]; then
        echo "prereq: $1: installed ($3)"
    else
        echo "prereq: $1: still missing after the install" >&2
        exit 1
    fi
}
status "Open MPI mpirun" "$mpirun_path" "$(command -v mpirun || true)"
status "Open MPI headers" "$mpi_header" "$(find_mpi_header || true)"
status "libclang (bindgen)" "$libclang" "$(find_libclang || true)"
status "pkg-config" "$pkg_config" "$(command -v pkg-config || true)"
