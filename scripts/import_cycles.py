#!/usr/bin/env python3
"""Fails when files of a crate under crates/ import each other in a circle.

Each .rs file is a module; a file depends on another when its code (comments and string
literals aside) names an item defined in the other file, through `use` or a path (`crate::`,
`super::`, `self::`, a child module), following re-exports to where the item is defined.
Declaring a child module (`mod x;`) and re-exporting (`pub use`) are not dependencies, and
test-only files (`tests.rs`, `#[cfg(test)] mod tests { .. }` blocks) may use what they test.
Prints each cycle found and exits 1; exits 0 when there is none.

    scripts/import_cycles.py            # every crate
    scripts/import_cycles.py crates/algos
"""

import re
import sys
from pathlib import Path

PATH = re.compile(r"\b(crate|super|self)((?:::[A-Za-z_][A-Za-z0-9_]*)+)")
USE = re.compile(r"\buse\s+([^;]*);")
# A re-export makes an item reachable through this module; it is not this module's own use.
REEXPORT = re.compile(r"\bpub(?:\([^)]*\))?\s+use\s+[^;]*;")
CHILD_PATH = re.compile(r"(?<![:\w])([a-z_][a-z0-9_]*)((?:::[A-Za-z_][A-Za-z0-9_]*)+)")


def strip(code: str) -> str:
    """The code without comments, string literals and test modules."""
    code = re.sub(r"//[^\n]*", "", code)
    code = re.sub(r"/\*.*?\*/", "", code, flags=re.S)
    code = re.sub(r'r#*"(?:.|\n)*?"#*', '""', code)
    code = re.sub(r'"(?:\\.|[^"\\])*"', '""', code)
    code = re.sub(r"'(?:\\.|[^'\\])'", "' '", code)
    # A test module written inline: drop it to its closing brace.
    out, i = [], 0
    for m in re.finditer(r"#\[cfg\([^\]]*\btest\b[^\]]*\)\]\s*mod\s+\w+\s*\{", code):
        if m.start() < i:
            continue
        out.append(code[i:m.start()])
        depth, j = 1, m.end()
        while j < len(code) and depth:
            depth += {"{": 1, "}": -1}.get(code[j], 0)
            j += 1
        i = j
    out.append(code[i:])
    return "".join(out)


def modules(src: Path) -> dict:
    """Module path (tuple) -> file, for the crate rooted at `src` (lib.rs or main.rs)."""
    mods = {}
    for f in src.rglob("*.rs"):
        rel = f.relative_to(src).with_suffix("")
        parts = list(rel.parts)
        if parts[-1] == "mod":
            parts.pop()
        if parts in (["lib"], ["main"]):
            parts = []
        mods[tuple(parts)] = f
    return mods


def use_paths(tree: str) -> list:
    """The paths of one `use` tree, each as (segments, name it binds)."""
    tree = re.sub(r"\s+", "", tree)
    out = []

    def walk(prefix: list, t: str):
        if "{" not in t:
            parts = t.split("::")
            last = parts[-1]
            alias = None
            if "as" in last and re.fullmatch(r"\w+as\w+", last):
                last, alias = re.fullmatch(r"(\w+)as(\w+)", last).groups()
                parts[-1] = last
            if last == "self":
                parts = parts[:-1]
                last = parts[-1] if parts else ""
            segs = prefix + [p for p in parts if p]
            out.append((segs, alias or (segs[-1] if segs else "")))
            return
        head, inner = t.split("{", 1)
        inner = inner[: inner.rindex("}")]
        head_parts = [p for p in head.split("::") if p]
        depth, cur, items = 0, "", []
        for ch in inner:
            if ch == "," and depth == 0:
                items.append(cur)
                cur = ""
                continue
            depth += {"{": 1, "}": -1}.get(ch, 0)
            cur += ch
        items.append(cur)
        for item in filter(None, items):
            walk(prefix + head_parts, item)

    walk([], tree)
    return out


class Crate:
    def __init__(self, src: Path):
        self.mods = modules(src)
        self.code = {m: strip(f.read_text()) for m, f in self.mods.items()}
        # Per module: the names its `use` declarations bind, and where they point.
        self.uses = {}
        for m, code in self.code.items():
            binds = {}
            for tree in USE.findall(code):
                for segs, name in use_paths(tree):
                    if segs and segs[-1] != "*":
                        binds[name] = segs
            self.uses[m] = binds

    def base(self, me: tuple, segs: list):
        """Where a path starting `segs` begins, and the rest: None for another crate's."""
        if not segs:
            return None
        first = segs[0]
        if first == "crate":
            return (), segs[1:]
        if first in ("super", "self"):
            cur = me
            while segs and segs[0] in ("super", "self"):
                if segs[0] == "super":
                    cur = cur[:-1]
                segs = segs[1:]
            return cur, segs
        if me + (first,) in self.mods:
            return me, segs
        if first in self.uses.get(me, {}) and self.uses[me][first] != segs:
            target = self.base(me, self.uses[me][first])
            if target is not None:
                return target[0], target[1] + segs[1:]
        return None

    def item(self, me: tuple, segs: list, depth: int = 0):
        """The file defining the item `segs` names from module `me`, if in this crate."""
        start = self.base(me, segs)
        if start is None or depth > 20:
            return None
        cur, rest = start
        for i, seg in enumerate(rest):
            if cur + (seg,) in self.mods:
                cur = cur + (seg,)
                continue
            binds = self.uses.get(cur, {})
            if seg in binds:
                found = self.item(cur, binds[seg] + rest[i + 1:], depth + 1)
                return found if found is not None else cur
            return cur
        return cur


def edges_of(crate: Crate, me: tuple) -> set:
    code = REEXPORT.sub("", crate.code[me])
    found = set()
    for tree in USE.findall(code):
        for segs, _ in use_paths(tree):
            segs = [s for s in segs if s != "*"]
            target = crate.item(me, segs)
            if target is not None:
                found.add(target)
    body = USE.sub("", code)
    for kind, tail in PATH.findall(body):
        target = crate.item(me, [kind] + [s for s in tail.split("::") if s])
        if target is not None:
            found.add(target)
    for head, tail in CHILD_PATH.findall(body):
        if me + (head,) in crate.mods:
            target = crate.item(me, [head] + [s for s in tail.split("::") if s])
            if target is not None:
                found.add(target)
    found.discard(me)
    return found


def cycles(graph: dict) -> list:
    """Strongly connected components of more than one file (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(comp)

    sys.setrecursionlimit(10000)
    for v in graph:
        if v not in index:
            visit(v)
    return out


def main() -> int:
    root = Path(__file__).resolve().parent.parent
    crates = [Path(a) for a in sys.argv[1:]] or sorted((root / "crates").iterdir())
    bad = 0
    for crate in crates:
        src = crate / "src"
        if not src.is_dir():
            continue
        c = Crate(src)
        graph = {me: edges_of(c, me) for me in c.mods if not (me and me[-1] == "tests")}
        for comp in cycles(graph):
            bad += 1
            files = sorted(str(c.mods[m].relative_to(crate.parent)) for m in comp)
            print(f"import cycle in {crate.name}: " + " <-> ".join(files))
    if bad:
        return 1
    print(f"no import cycle among the files of {len(crates)} crates")
    return 0


if __name__ == "__main__":
    sys.exit(main())
