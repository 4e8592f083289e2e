#!/usr/bin/env bash
# Runs every scheduler on small SSSP and CC inputs (4 workers) under valgrind's race detectors
# (helgrind and drd) and summarizes the reported races by the first ordo source line involved.
#
# Both tools understand pthread locks, not C11/Rust atomics: they report every access ordered
# only by an Acquire/Release pair as a "possible data race". The summary therefore needs
# reading against the protocols written down beside the code (crates/sched/src/obim/README.md,
# the SAFETY comments); docs/reliability.md records the last review. Not in CI (minutes, and
# the reports are evidence to read, not a pass/fail signal).
#
#   scripts/race_check.sh [helgrind|drd ...]
set -euo pipefail
cd "$(dirname "$0")/.."
tools=(helgrind drd)
if (($#)); then
    tools=("$@")
fi
cargo build --release -p ordo-cli --quiet
g=$(mktemp --suffix=.gr)
./target/release/ordo gen road --width 12 --height 12 -o "$g" >/dev/null
mapfile -t scheds < <(./target/release/ordo schedulers --json |
    python3 -c 'import json,sys; print("\n".join(s["name"] for s in json.load(sys.stdin)))')
report=$(mktemp)
ours=$(find crates -name '*.rs' -printf '%f\n' | grep -vE '^(mod|lib|main)\.rs$' | sort -u | paste -sd'|')
for tool in "${tools[@]}"; do
    for s in "${scheds[@]}"; do
        t=4
        [[ $s == serial ]] && t=1
        for app in sssp cc; do
            out=$(valgrind --tool="$tool" ./target/release/ordo "$app" "$g" -s "$s" -t "$t" --no-pin 2>&1 || true)
            grep -q "verified: yes" <<<"$out" || { echo "$tool $s $app: NOT VERIFIED"; echo "$out" | tail -20; exit 1; }
            printf '%s\n' "$out" >"$report"
            python3 - "$tool" "$s" "$app" "$ours" "$report" <<'PY'
import re, sys
tool, sched, app, ours, report = sys.argv[1:6]
ours = set(ours.split("|"))
text = open(report).read()
blocks, cur = [], []
for line in text.splitlines():
    body = re.sub(r"^==\d+==\s?", "", line)
    if line.startswith("==") and not body.strip():
        blocks.append("\n".join(cur))
        cur = []
    else:
        cur.append(line)
blocks.append("\n".join(cur))
sites = {}
for b in blocks:
    if "data race" not in b and "Conflicting" not in b:
        continue
    site = "(no ordo frame: std runtime)"
    for m in re.finditer(r"(?:at|by) 0x[0-9A-F]+: (.*?) \(([\w./-]+\.rs):(\d+)\)", b):
        f = m.group(2).rsplit("/", 1)[-1]
        if f in ours and "library/" not in m.group(2):
            site = f"{f}:{m.group(3)}"
            break
    sites[site] = sites.get(site, 0) + 1
summary = ", ".join(f"{k} x{v}" for k, v in sorted(sites.items(), key=lambda kv: -kv[1]))
print(f"{tool:8} {sched:9} {app:4} verified; {sum(sites.values())} race reports: {summary or 'none'}")
PY
        done
    done
done
rm -f "$g" "$report"
