#!/usr/bin/env python3
"""Writes the fuzz targets' seed corpora (fuzz/seeds/TARGET/) from the shared real graphs.

Each seed is a small *valid* file cut from a real one (the arcs among its first K nodes, with
the header rewritten to match), plus a raw prefix of the file (a header whose counts the data
does not meet). libFuzzer mutates from there. Usage: scripts/fuzz_seeds.py [DATA_DIR]
"""

import gzip
import pathlib
import shutil
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
DATA = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ROOT.parent / "shared" / "data")
SEEDS = ROOT / "fuzz" / "seeds"
K = 40  # nodes kept in a cut-down seed
PREFIX = 1500  # bytes in a raw-prefix seed


def lines(name, limit=2_000_000):
    with gzip.open(DATA / name, "rt") as f:
        for i, line in enumerate(f):
            if i >= limit:
                return
            yield line.rstrip("\n")


def prefix(name):
    with gzip.open(DATA / name, "rb") as f:
        head = f.read(PREFIX)
    return head[: head.rfind(b"\n") + 1]


def write(target, name, text):
    d = SEEDS / target
    d.mkdir(parents=True, exist_ok=True)
    data = text.encode() if isinstance(text, str) else text
    (d / name).write_bytes(data)
    return data


def dimacs(name):
    arcs = []
    for line in lines(name):
        if line.startswith("a "):
            _, u, v, w = line.split()
            if int(u) <= K and int(v) <= K:
                arcs.append(f"a {u} {v} {w}")
    return f"c cut from {name}\np sp {K} {len(arcs)}\n" + "\n".join(arcs) + "\n"


def snap(name):
    out = []
    for line in lines(name):
        if line.startswith("#"):
            continue
        u, v = line.split()[:2]
        if int(u) < K and int(v) < K:
            out.append(f"{u}\t{v}")
    return f"# cut from {name}\n" + "\n".join(out) + "\n"


def mtx(name):
    it = lines(name)
    banner = next(it)
    entries, sized = [], False
    for line in it:
        if line.startswith("%"):
            continue
        if not sized:
            sized = True
            continue
        parts = line.split()
        if int(parts[0]) <= K and int(parts[1]) <= K:
            entries.append(line)
    return f"{banner}\n% cut from {name}\n{K} {K} {len(entries)}\n" + "\n".join(entries) + "\n"


def metis(name):
    rows, header = [], None
    for line in lines(name):
        if line.startswith("%"):
            continue
        if header is None:
            header = line.split()
            continue
        if len(rows) == K:
            break
        rows.append([v for v in line.split() if int(v) <= K])
    m = sum(len(r) for r in rows) // 2
    return f"% cut from {name}\n{K} {m}\n" + "\n".join(" ".join(r) for r in rows) + "\n"


def co(name):
    vs = [l for l in lines(name, 50_000) if l.startswith("v ") and int(l.split()[1]) <= K]
    return f"c cut from {name}\np aux sp co {K}\n" + "\n".join(vs) + "\n"


def with_count(n, text):
    """A coords seed: the node count as three little-endian bytes, then the file."""
    return n.to_bytes(3, "little") + text.encode()


def main():
    if not DATA.is_dir():
        sys.exit(f"no shared data at {DATA}")
    if SEEDS.exists():
        shutil.rmtree(SEEDS)
    gz = []
    for g in ["USA-road-d.NY.gr.gz", "osm-rome.gr.gz", "luxembourg-osm.gr.gz"]:
        stem = g.split(".gr")[0]
        gz.append(write("dimacs", f"{stem}-cut.gr", dimacs(g)))
        write("dimacs", f"{stem}-prefix.gr", prefix(g))
    for g in ["email-Enron.txt.gz", "wiki-Vote.txt.gz", "facebook_combined.txt.gz"]:
        stem = g.split(".txt")[0]
        cut = snap(g)
        gz.append(write("snap", f"{stem}-cut.txt", cut))
        write("snap", f"{stem}-prefix.txt", prefix(g))
        body = "".join(l + "\n" for l in cut.splitlines() if not l.startswith("#"))
        # The edgelist target reads odd first bytes as weighted: '1' (0x31) is odd, '0' even.
        write("edgelist", f"{stem}.el", body)
        write("edgelist", f"{stem}.wel", "".join(
            f"{l} {i % 97 + 1}\n" for i, l in enumerate(body.splitlines())))
    for g in ["bcsstk13.mtx.gz", "delaunay_n16.mtx.gz"]:
        stem = g.split(".mtx")[0]
        gz.append(write("mtx", f"{stem}-cut.mtx", mtx(g)))
        write("mtx", f"{stem}-prefix.mtx", prefix(g))
    for g in ["bcsstk33.graph.gz", "finan512.graph.gz", "luxembourg.osm.graph.gz"]:
        stem = g.split(".graph")[0]
        gz.append(write("metis", f"{stem}-cut.graph", metis(g)))
        write("metis", f"{stem}-prefix.graph", prefix(g))
    for g in ["luxembourg-osm.co.gz", "osm-rome.co.gz"]:
        write("coords", g.replace(".co.gz", "-cut.co"), with_count(K, co(g)))
    xyz = "\n".join(list(lines("luxembourg.osm.xyz.gz", K))) + "\n"
    write("coords", "luxembourg-cut.xyz", with_count(K, xyz))
    for i, data in enumerate(gz):
        write("gzip", f"seed{i}.gz", gzip.compress(data, mtime=0))
    # Binary seeds: ordo's own converter writes the cut-down graphs (with coordinates once).
    ordo = ROOT / "target" / "release" / "ordo"
    tmp = SEEDS / "tmp"
    tmp.mkdir()
    for src in sorted((SEEDS / "dimacs").glob("*-cut.gr"))[:2] + sorted((SEEDS / "metis").glob("*-cut.graph"))[:1]:
        out = SEEDS / "binary" / (src.stem + ".ordo")
        out.parent.mkdir(exist_ok=True)
        subprocess.run([str(ordo), "convert", str(src), str(out)], check=True, capture_output=True)
    shutil.rmtree(tmp)
    total = sum(f.stat().st_size for f in SEEDS.rglob("*") if f.is_file())
    print(f"wrote {sum(1 for f in SEEDS.rglob('*') if f.is_file())} seeds ({total} bytes) to {SEEDS}")


if __name__ == "__main__":
    main()
