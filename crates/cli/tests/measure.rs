//! The measurement front ends: `--breakdown` and `--trace` on the applications, and
//! `ordo simulate`.

mod common;
use common::{amsterdam, json, ordo, stderr};

#[test]
fn breakdown_fractions_sum_to_one_for_every_app() {
    let g = amsterdam();
    for app in ["sssp", "bfs", "cc", "kcore", "mst", "pagerank", "tc"] {
        let j = json(&ordo(&[app, &g, "-t", "2", "--breakdown", "--json"]));
        let b = &j["breakdown"];
        let sum: f64 = ["gwork", "uwork", "enq", "deq", "fdeq", "other"]
            .iter()
            .map(|k| {
                b[k].as_f64()
                    .unwrap_or_else(|| panic!("{app}: breakdown.{k}"))
            })
            .sum();
        assert!((sum - 1.0).abs() < 1e-9, "{app}: fractions sum to {sum}");
        assert_eq!(
            b["deqs"], j["stats"]["tasks"],
            "{app}: one dequeue per task"
        );
        assert!(b["cycles_per_deq"].as_f64().unwrap() > 0.0, "{app}");
        assert_eq!(j["verified"], true, "{app}");
    }
    // Without the flag there is no breakdown.
    let j = json(&ordo(&["sssp", &g, "-t", "2", "--json"]));
    assert!(j.get("breakdown").is_none() && j.get("trace").is_none());
}

#[test]
fn sssp_breakdown_reports_the_obim_papers_work_classes() {
    let g = amsterdam();
    let j = json(&ordo(&["sssp", &g, "-t", "2", "--breakdown", "--json"]));
    let w = &j["work"];
    // Each reached node gets its final distance from one good task, the source included;
    // every task is good, bad or empty (stale).
    assert_eq!(w["good"], j["reached"]);
    let (good, bad, empty) = (w["good"].as_u64(), w["bad"].as_u64(), w["empty"].as_u64());
    assert_eq!(
        good.unwrap() + bad.unwrap() + empty.unwrap(),
        j["stats"]["tasks"].as_u64().unwrap()
    );
    assert_eq!(w["empty"], j["stale_tasks"]);
    let text = ordo(&["sssp", &g, "-t", "2", "--breakdown"]);
    assert!(String::from_utf8_lossy(&text.stdout).contains("cycles: gwork"));
}

#[test]
fn trace_has_one_series_per_worker() {
    let g = amsterdam();
    for app in ["bfs", "sssp", "cc", "kcore", "mst", "pagerank"] {
        let j = json(&ordo(&[app, &g, "-t", "3", "--trace", "--json"]));
        let t = j["trace"].as_array().unwrap();
        assert_eq!(t.len(), 3, "{app}");
        let samples: usize = t.iter().map(|w| w.as_array().unwrap().len()).sum();
        assert!(samples > 0, "{app}: no priority traced");
    }
}

#[test]
fn simulate_reports_work_increase_and_rank_error() {
    let g = amsterdam();
    let run = |extra: &[&str]| {
        let mut args = vec!["simulate", "sssp", &g, "--json"];
        args.extend_from_slice(extra);
        json(&ordo(&args))
    };
    let j = run(&["-s", "smq", "-P", "256"]);
    assert_eq!(j["workers"], 256);
    assert_eq!(j["verified"], true);
    assert!(j["work_increase"].as_f64().unwrap() >= 0.5);
    assert!(j["rank_error_mean"].as_f64().unwrap() > 0.0);
    // Deterministic: the same run gives the same counts.
    let mut again = run(&["-s", "smq", "-P", "256"]);
    let mut first = j.clone();
    for o in [&mut first, &mut again] {
        o.as_object_mut().unwrap().remove("simulation_s");
    }
    assert_eq!(first, again);
    // The exact serial scheduler is the baseline: no work increase, no rank error.
    let s = run(&["-s", "serial", "-P", "1"]);
    assert_eq!(s["work_increase"], 1.0);
    assert_eq!(s["rank_error_max"], 0);
    // A list of worker counts gives one point each.
    let p = run(&["-s", "obim", "-P", "1,16,64"]);
    let points = p["points"].as_array().unwrap();
    assert_eq!(points.len(), 3);
    assert_eq!(points[2]["workers"], 64);
}

#[test]
fn simulate_rejects_bad_worker_counts() {
    let g = amsterdam();
    for bad in ["0", "x", "100000"] {
        let out = ordo(&["simulate", "bfs", &g, "-P", bad]);
        assert_eq!(out.status.code(), Some(2), "-P {bad}: {}", stderr(&out));
    }
    let out = ordo(&["simulate", "bfs", &g, "-s", "serial", "-P", "4"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("serial"));
}

#[test]
fn rank_error_of_a_threaded_run() {
    let g = amsterdam();
    // Every app whose tasks report the priority they were pushed with: under the exact
    // scheduler each popped task is the best pending one, so a misreported priority shows.
    for app in ["sssp", "bfs", "cc", "kcore", "mst", "pagerank"] {
        let j = json(&ordo(&[app, &g, "-s", "serial", "--rank-error", "--json"]));
        let r = &j["rank_error"];
        assert_eq!(
            r["max"], 0,
            "{app}: the exact scheduler pops the best pending task"
        );
        assert_eq!(r["ranked_tasks"], j["stats"]["tasks"], "{app}");
    }
    let j = json(&ordo(&[
        "bfs",
        &g,
        "-s",
        "smq",
        "-t",
        "2",
        "--rank-error",
        "--json",
    ]));
    assert!(j["rank_error"]["samples"].as_u64().unwrap() > 0);
    assert_eq!(j["verified"], true);
}

#[test]
fn sssp_json_reports_the_delta_in_use() {
    // An explicit --param delta wins over the application's hint, and the JSON says so.
    let g = amsterdam();
    let j = json(&ordo(&[
        "sssp", &g, "-s", "obim", "-p", "delta=3", "-t", "1", "--json",
    ]));
    assert_eq!(j["delta"], 3);
    assert_eq!(j["params"]["delta"], "3");
    let j = json(&ordo(&["sssp", &g, "-s", "pmod", "-t", "1", "--json"]));
    assert!(j["delta"].is_null(), "pmod has no delta");
}
