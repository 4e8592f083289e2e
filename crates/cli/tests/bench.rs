//! `ordo bench`: a matrix from TOML runs, verifies and records every run, draws its figures,
//! keeps going past a failed run (and says so in the exit status), and every preset parses.

mod common;
use common::{ordo, stderr, tmp};

fn write(name: &str, text: &str) -> String {
    let p = tmp(name);
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn a_matrix_runs_verified_and_draws_its_figures() {
    let spec = write(
        "small.toml",
        r#"
name = "small"
repeat = 1
[[sweep]]
apps = ["sssp", "bfs"]
graphs = ["amsterdam"]
schedulers = ["obim", "smq"]
threads = [1, 2]
flags = ["--breakdown"]
[[sweep]]
simulate = true
apps = ["sssp"]
graphs = ["amsterdam"]
schedulers = ["mq"]
threads = [1, 16]
[[sweep]]
label = "obim-D"
apps = ["astar"]
graphs = ["amsterdam"]
schedulers = ["obim"]
params = [["delta=8"]]
threads = [2]
flags = ["--coords", "{embedded}/osm-amsterdam.co.gz", "--target", "60000", "--breakdown"]
[[figure]]
file = "lines"
kind = "line"
title = "speedup"
x = "threads"
y = "speedup"
series = ["scheduler"]
facet = ["app"]
only = ["simulate=false"]
[[figure]]
file = "bars"
kind = "stacked"
title = "breakdown"
ys = ["breakdown.gwork", "breakdown.deq"]
series = ["scheduler", "threads"]
[[ratio_table]]
file = "ratios"
title = "over the best"
value = "time_s"
group = ["app", "graph", "threads"]
by = ["scheduler"]
per = "app"
[[ratio_table]]
file = "speedups"
title = "the best over each"
value = "time_s"
group = ["app", "graph"]
by = ["label"]
per = "app"
speedup = true
"#,
    );
    let out_dir = tmp("bench-small");
    let out = ordo(&["bench", &spec, "--out", &out_dir]);
    assert!(out.status.success(), "{}", stderr(&out));
    let jsonl = std::fs::read_to_string(format!("{out_dir}/results.jsonl")).unwrap();
    let rows: Vec<serde_json::Value> = jsonl
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 2 * 2 * 2 + 2 + 1);
    // A sweep's label names its runs; without one the scheduler does.
    let labelled: Vec<_> = rows.iter().filter(|r| r["label"] == "obim-D").collect();
    assert_eq!(labelled.len(), 1);
    assert_eq!(labelled[0]["scheduler"], "obim");
    assert!(rows
        .iter()
        .all(|r| r["label"] == "obim-D" || r["label"] == r["scheduler"]));
    // `{embedded}` in a flag is the repository's data folder.
    assert!(labelled[0]["command"]
        .as_str()
        .unwrap()
        .contains("/data/osm-amsterdam.co.gz --target"));
    for r in &rows {
        assert_eq!(r["verified"], true, "{r}");
        assert!(r.get("error").is_none());
    }
    let sim: Vec<_> = rows.iter().filter(|r| r["simulate"] == true).collect();
    assert_eq!(sim.len(), 2);
    assert!(sim
        .iter()
        .all(|r| r["work_increase"].as_f64().unwrap() > 0.0));
    assert!(rows
        .iter()
        .filter(|r| r["simulate"] == false)
        .all(|r| r["breakdown.gwork"].as_f64().is_some()));
    // The speedup baseline is one median oracle time per application and graph.
    for app in ["sssp", "bfs"] {
        let timed: Vec<_> = rows
            .iter()
            .filter(|r| r["simulate"] == false && r["app"] == app)
            .collect();
        let base = &timed[0]["oracle_median_s"];
        assert!(base.as_f64().unwrap() > 0.0, "{app}");
        for r in &timed {
            assert_eq!(&r["oracle_median_s"], base, "{r}");
            let want = base.as_f64().unwrap() / r["time_s"].as_f64().unwrap();
            assert!((r["speedup"].as_f64().unwrap() - want).abs() <= 1e-9 * want);
        }
    }
    let csv = std::fs::read_to_string(format!("{out_dir}/summary.csv")).unwrap();
    assert!(csv.starts_with("app,graph,scheduler,label,param_set,threads,time_s,verified"));
    assert_eq!(csv.lines().count(), rows.len() + 1);
    for fig in ["lines", "bars"] {
        let svg = std::fs::read_to_string(format!("{out_dir}/{fig}.svg")).unwrap();
        assert!(svg.starts_with("<svg") && svg.contains("</svg>"), "{fig}");
        let png = std::fs::read(format!("{out_dir}/{fig}.png")).unwrap();
        assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n", "{fig}.png");
    }
    // Each scheduler's time over the best one's: never below 1, and the best of a group is
    // exactly 1, so the smallest cell of a column is 1 when one scheduler wins every group.
    let ratios = std::fs::read_to_string(format!("{out_dir}/ratios.csv")).unwrap();
    let mut lines = ratios.lines();
    assert_eq!(lines.next(), Some("scheduler,astar,bfs,sssp,all"));
    let cells: Vec<f64> = lines
        .flat_map(|l| l.split(',').skip(1).filter(|c| !c.is_empty()))
        .map(|c| c.parse::<f64>().unwrap())
        .collect();
    assert_eq!(cells.len(), 4 + 3, "{ratios}");
    assert!(cells.iter().all(|&c| c >= 1.0), "{ratios}");
    // As speedups (the best over each), by label: never above 1; obim-D ran A* alone.
    let speedups = std::fs::read_to_string(format!("{out_dir}/speedups.csv")).unwrap();
    let mut lines = speedups.lines();
    assert_eq!(lines.next(), Some("label,astar,bfs,sssp,all"));
    let row: Vec<&str> = lines
        .find(|l| l.starts_with("obim-D,"))
        .unwrap()
        .split(',')
        .collect();
    assert_eq!(row, ["obim-D", "1.000", "", "", "1.000"], "{speedups}");
    let cells: Vec<f64> = speedups
        .lines()
        .skip(1)
        .flat_map(|l| l.split(',').skip(1).filter(|c| !c.is_empty()))
        .map(|c| c.parse::<f64>().unwrap())
        .collect();
    assert_eq!(cells.len(), 2 + 3 + 3, "{speedups}");
    assert!(cells.iter().all(|&c| c > 0.0 && c <= 1.0), "{speedups}");
    let table = String::from_utf8_lossy(&out.stdout);
    assert!(table.contains("amsterdam") && table.contains("figure:"));
    // --redraw draws again from results.jsonl without running; without one it says so.
    std::fs::remove_file(format!("{out_dir}/lines.svg")).unwrap();
    let again = ordo(&["bench", &spec, "--redraw", "--out", &out_dir]);
    assert!(again.status.success(), "{}", stderr(&again));
    assert!(std::path::Path::new(&format!("{out_dir}/lines.svg")).is_file());
    assert_eq!(
        std::fs::read_to_string(format!("{out_dir}/speedups.csv")).unwrap(),
        speedups
    );
    let empty = tmp("bench-empty");
    std::fs::create_dir_all(&empty).unwrap();
    let none = ordo(&["bench", &spec, "--redraw", "--out", &empty]);
    assert_eq!(none.status.code(), Some(1));
    assert!(
        stderr(&none).contains("--redraw needs"),
        "{}",
        stderr(&none)
    );
}

#[test]
fn a_failed_run_is_kept_and_fails_the_bench() {
    let spec = write(
        "failing.toml",
        r#"
name = "failing"
repeat = 1
[[sweep]]
apps = ["bfs"]
graphs = ["amsterdam"]
schedulers = ["obim", "nosuch"]
threads = [1]
"#,
    );
    let out_dir = tmp("bench-failing");
    let out = ordo(&["bench", &spec, "--out", &out_dir]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("1 of 2 runs failed"),
        "{}",
        stderr(&out)
    );
    let jsonl = std::fs::read_to_string(format!("{out_dir}/results.jsonl")).unwrap();
    assert_eq!(jsonl.lines().count(), 2);
    assert!(jsonl.contains("nosuch"));
}

#[test]
fn a_run_past_the_limit_is_stopped_and_kept_as_timed_out() {
    // lifo on a road graph relaxes nodes over and over: ten repeats take about 20 s on 2
    // cores, so a 1 s limit stops that run on any machine.
    let spec = write(
        "slow.toml",
        r#"
name = "slow"
repeat = 10
[[sweep]]
apps = ["sssp"]
graphs = ["amsterdam"]
schedulers = ["lifo", "obim"]
threads = [2]
"#,
    );
    let out_dir = tmp("bench-slow");
    let out = ordo(&["bench", &spec, "--out", &out_dir, "--run-limit", "1"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stderr(&out).contains("run limit"), "{}", stderr(&out));
    let jsonl = std::fs::read_to_string(format!("{out_dir}/results.jsonl")).unwrap();
    let rows: Vec<serde_json::Value> = jsonl
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 2);
    let lifo = rows.iter().find(|r| r["scheduler"] == "lifo").unwrap();
    assert_eq!(lifo["timed_out"], true, "{lifo}");
    assert!(lifo.get("verified").is_none(), "{lifo}");
}

#[test]
fn bad_matrices_are_clear_errors() {
    let bad = write("bad.toml", "name = \"x\"\n[[sweep]]\napps = 3\n");
    let out = ordo(&["bench", &bad]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("bad.toml"), "{}", stderr(&out));
    let out = ordo(&["bench", "no-such-preset"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("pmod-fig6"));
    let out = ordo(&["bench"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn every_preset_parses_and_expands_quick() {
    let list = ordo(&["bench", "--list"]);
    assert!(list.status.success(), "{}", stderr(&list));
    let listing = String::from_utf8_lossy(&list.stdout);
    let names: Vec<String> = listing
        .lines()
        .map(|l| l.split_whitespace().next().unwrap().to_string())
        .collect();
    assert!(names.len() >= 7, "{names:?}");
    // Each preset named after a paper shows which paper it reproduces.
    for line in listing.lines().filter(|l| !l.starts_with("simulate")) {
        let paper = line.rsplit_once(" [").map(|(_, p)| p).unwrap_or("");
        // The paper's name, authors and venue: "PMOD: Yesil, ..., SC'19]".
        assert!(paper.contains(": ") && paper.ends_with("]"), "{line}");
    }
    for name in names {
        let out = ordo(&["bench", &name, "--quick", "--dry-run"]);
        assert!(out.status.success(), "{name}: {}", stderr(&out));
        // Every quick preset has at least one run on the embedded graph.
        let runs = String::from_utf8_lossy(&out.stdout);
        assert!(runs.contains("osm-amsterdam"), "{name}: {runs}");
    }
}

/// What docs/papers.md cites must run: every preset with --quick, verified, drawing what it
/// declares (about 35 s on 2 cores; Enron's runs are skipped with a note without the data).
#[test]
fn every_preset_runs_quick_verified_and_draws() {
    let data = common::shared("email-Enron.txt.gz").map(|p| {
        std::path::Path::new(&p)
            .parent()
            .unwrap()
            .to_string_lossy()
            .into_owned()
    });
    let list = ordo(&["bench", "--list"]);
    let names: Vec<String> = String::from_utf8_lossy(&list.stdout)
        .lines()
        .map(|l| l.split_whitespace().next().unwrap().to_string())
        .collect();
    for name in names {
        let out_dir = tmp(&format!("quick-{name}"));
        let mut args = vec!["bench", &name, "--quick", "--out", &out_dir];
        if let Some(d) = &data {
            args.extend(["--data", d]);
        }
        let out = ordo(&args);
        assert!(out.status.success(), "{name}: {}", stderr(&out));
        let drawn = std::fs::read_dir(&out_dir)
            .unwrap()
            .filter_map(|e| e.ok())
            .filter(|e| {
                let n = e.file_name().to_string_lossy().into_owned();
                n.ends_with(".svg") || (n.ends_with(".csv") && n != "summary.csv")
            })
            .count();
        assert!(drawn > 0, "{name}: no figure or table");
    }
}

#[test]
fn peers_without_python_is_a_clear_error() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_ordo"))
        .args(["bench", "--peers", "--quick", "--out", &tmp("peers")])
        .env("ORDO_PYTHON", "/nonexistent/python")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("python_env.sh"), "{}", stderr(&out));
    // The repository comes from --repo (or $ORDO_REPO), not from a build-time path.
    let elsewhere = tmp("peers-repo");
    std::fs::create_dir_all(&elsewhere).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_ordo"))
        .args(["bench", "--peers", "--quick", "--out", &tmp("peers2")])
        .args(["--repo", &elsewhere])
        .env_remove("ORDO_PYTHON")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let python = format!("{elsewhere}/.venv/bin/python");
    assert!(stderr(&out).contains(&python), "{}", stderr(&out));
}
