"""scripts/py_bench.py (behind `ordo bench --peers`) on the embedded graph: every installed
peer library must agree with ordo on every application, BC on a shared source list included."""

import json
import subprocess
import sys

from conftest import REPO


def test_every_installed_peer_agrees_with_ordo(tmp_path):
    rows_file = tmp_path / "peers.jsonl"
    graph = REPO / "data" / "osm-amsterdam.gr.gz"
    run = subprocess.run(
        [sys.executable, str(REPO / "scripts" / "py_bench.py"), "--graphs", str(graph),
         "--repeat", "1", "--json", str(rows_file)],
        capture_output=True, text=True, timeout=600,
    )
    assert run.returncode == 0, run.stderr
    rows = [json.loads(line) for line in rows_file.read_text().splitlines()]
    apps = {r["app"] for r in rows}
    assert apps == {"sssp", "bfs", "pagerank", "cc", "mst", "bc"}
    for app in apps:
        libs = {r["library"] for r in rows if r["app"] == app}
        # scipy and networkx are in the test environment (scripts/python_env.sh).
        assert "ordo" in libs and len(libs) >= 2, (app, libs)
    assert all(r["agrees"] for r in rows), [r for r in rows if not r["agrees"]]
