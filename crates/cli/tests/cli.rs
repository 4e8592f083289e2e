//! The `ordo` binary end to end: JSON output, exit codes (0 / 1 bad input / 2 usage), `--out`,
//! conversion to the binary format, generators, the demo.

mod common;

use common::{amsterdam, amsterdam_coords, json, ordo, shared, stderr, tmp};

#[test]
fn new_apps_json_verified_and_consistent() {
    let g = amsterdam();
    let co = amsterdam_coords();
    // A* to a far node equals SSSP's distance there, under two schedulers.
    let sssp = json(&ordo(&["sssp", &g, "--json", "--out", &tmp("d.txt")]));
    let dist_to_5000: u64 = std::fs::read_to_string(tmp("d.txt"))
        .unwrap()
        .lines()
        .find_map(|l| l.strip_prefix("5000 ").map(|d| d.parse().unwrap()))
        .unwrap();
    assert_eq!(sssp["verified"], true);
    for s in ["auto", "smq"] {
        let a = json(&ordo(&[
            "astar", &g, "--coords", &co, "--target", "5000", "-s", s, "--json",
        ]));
        assert_eq!(a["verified"], true);
        assert_eq!(a["dist"], dist_to_5000);
        assert_eq!(a["geometry"], "lonlat");
        assert!(a["scale"].as_f64().unwrap() > 0.0);
        assert!(a["expanded"].as_u64().unwrap() < 68213);
    }
    let c = json(&ordo(&["cc", &g, "--json", "-t", "2"]));
    assert_eq!(c["verified"], true);
    assert!(c["components"].as_u64().unwrap() >= 1);
    let k = json(&ordo(&["kcore", &g, "--json", "-s", "fifo"]));
    assert_eq!(k["verified"], true);
    assert!(k["max_core"].as_u64().unwrap() >= 1);
    let p = json(&ordo(&["pagerank", &g, "--json", "--priority", "prd"]));
    assert_eq!(p["verified"], true);
    assert_eq!(p["top"].as_array().unwrap().len(), 10);
    assert!(p["l1_vs_oracle"].as_f64().unwrap() <= p["error_bound"].as_f64().unwrap());
    let i = json(&ordo(&["pagerank", &g, "--json", "--iterations", "9"]));
    assert_eq!(i["verified"], true);
    assert_eq!(i["iterations"], 9);
    assert_eq!(i["stopping_rule"], "iterations");
    let f = json(&ordo(&["mst", &g, "--json", "-t", "2"]));
    assert_eq!(f["verified"], true);
    assert_eq!(
        f["forest_edges"].as_u64().unwrap() + f["components"].as_u64().unwrap(),
        68213
    );
    // The header's arc count is the graph's, not the forest's.
    assert_eq!(f["edges"], json(&ordo(&["info", &g, "--json"]))["edges"]);
    let t = json(&ordo(&["tc", &g, "--json"]));
    assert_eq!(t["verified"], true);
    assert!(t["triangles"].as_u64().is_some());
}

#[test]
fn pfp_json_flow_and_cut() {
    let g = amsterdam();
    let mut flows = vec![];
    for s in ["auto", "fifo", "smq"] {
        let j = json(&ordo(&[
            "pfp",
            &g,
            "--source",
            "1",
            "--sink",
            "5000",
            "-s",
            s,
            "-t",
            "2",
            "--json",
            "--out",
            &tmp("cut.txt"),
        ]));
        assert_eq!(j["verified"], true);
        flows.push(j["flow"].as_u64().unwrap());
        let cut = std::fs::read_to_string(tmp("cut.txt")).unwrap();
        let sides: Vec<&str> = cut.lines().map(|l| l.split(' ').nth(1).unwrap()).collect();
        assert_eq!(sides.len(), 68213);
        assert_eq!(sides[0], "S");
        assert_eq!(sides[4999], "T");
        assert_eq!(
            sides.iter().filter(|&&x| x == "S").count() as u64,
            j["source_side"].as_u64().unwrap()
        );
    }
    assert!(flows[0] > 0);
    assert!(flows.iter().all(|&f| f == flows[0]), "{flows:?}");
}

#[test]
fn bc_json_layouts_and_queues_agree() {
    let g = amsterdam();
    let run = |extra: &[&str]| {
        let mut args = vec![
            "bc",
            &g,
            "--sources",
            "6",
            "--seed",
            "3",
            "--json",
            "-t",
            "2",
        ];
        args.extend_from_slice(extra);
        json(&ordo(&args))
    };
    let base = run(&["--layout", "input", "--queues", "dynamic"]);
    assert_eq!(base["verified"], true);
    assert_eq!(base["sources"], 6);
    assert!(base["adl_s"].is_null());
    // auto: ADL from 4 sources on (6 here), the input's order for fewer.
    let nwq = run(&["--working-set", "--out", &tmp("bc.txt")]);
    assert_eq!(nwq["verified"], true);
    assert_eq!(nwq["layout"], "adl");
    let one = json(&ordo(&["bc", &g, "--sources", "1,", "--json"]));
    assert_eq!(one["layout"], "input");
    assert_eq!(nwq["queues"], "nwq");
    assert_eq!(nwq["argmax"], base["argmax"]);
    assert!(nwq["adl_bfs_equivalents"].as_f64().unwrap() > 0.0);
    let ws = &nwq["working_set"];
    assert!(ws["mean"].as_f64().unwrap() >= ws["ideal"].as_f64().unwrap() * 0.999);
    assert_eq!(ws["per_thread"].as_array().unwrap().len(), 2);
    // --out holds one score per node, the maximum at argmax.
    let text = std::fs::read_to_string(tmp("bc.txt")).unwrap();
    assert_eq!(text.lines().count(), 68213);
    let scores: Vec<(String, f64)> = text
        .lines()
        .map(|l| l.split_once(' ').unwrap())
        .map(|(id, s)| (id.to_string(), s.parse().unwrap()))
        .collect();
    let best = scores.iter().map(|s| s.1).fold(f64::MIN, f64::max);
    let argmax = nwq["argmax"].to_string();
    let at_argmax = scores.iter().find(|s| s.0 == argmax);
    assert_eq!(at_argmax.unwrap().1, best);
    // A listed source (the file's ids).
    let one = json(&ordo(&["bc", &g, "--sources", "17,", "--json"]));
    assert_eq!(one["source_ids"], serde_json::json!([17]));
    // --source names one node, as in every other application (GAPBS's -r).
    let single = json(&ordo(&["bc", &g, "--source", "17", "--json"]));
    assert_eq!(single["source_ids"], serde_json::json!([17]));
    assert_eq!(single["sum"], one["sum"]);
}

#[test]
fn sssp_json_has_every_field_and_agrees_across_schedulers() {
    let g = amsterdam();
    let mut sums = vec![];
    for args in [
        vec!["--scheduler", "serial", "--threads", "1"],
        // Without --threads, serial runs on its one thread rather than failing.
        vec!["--scheduler", "serial"],
        vec!["--scheduler", "obim", "--threads", "2", "--repeat", "3"],
        vec![
            "--scheduler",
            "obim",
            "--threads",
            "8",
            "--delta",
            "0",
            "--chunk",
            "8",
        ],
        vec!["--scheduler", "fifo", "--threads", "2", "--topology", "2x4"],
    ] {
        let mut a = vec!["sssp", g.as_str(), "--json"];
        a.extend(args);
        let j = json(&ordo(&a));
        for key in [
            "app",
            "scheduler",
            "threads",
            "nodes",
            "edges",
            "load_s",
            "time_s",
            "verified",
            "stats",
            "reached",
            "dist_sum",
            "max_dist",
        ] {
            assert!(!j[key].is_null(), "missing {key} in {j}");
        }
        for key in ["tasks", "pushes", "pops", "empty_pops"] {
            assert!(j["stats"][key].is_u64(), "missing stats.{key}");
        }
        assert_eq!(j["verified"], true);
        assert_eq!(j["nodes"], 68_213);
        sums.push((
            j["reached"].clone(),
            j["dist_sum"].clone(),
            j["max_dist"].clone(),
        ));
    }
    assert!(sums.windows(2).all(|w| w[0] == w[1]), "{sums:?}");
}

#[test]
fn bfs_json_and_out_file() {
    let g = amsterdam();
    let out = tmp("levels.txt");
    let j = json(&ordo(&[
        "bfs",
        &g,
        "--json",
        "--threads",
        "2",
        "--source",
        "5",
        "--out",
        &out,
    ]));
    for key in ["reached", "level_sum", "max_level", "verified"] {
        assert!(!j[key].is_null(), "missing {key}");
    }
    assert_eq!(j["source"], 5);
    let text = std::fs::read_to_string(&out).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 68_213);
    assert_eq!(
        lines[4], "5 0",
        "DIMACS ids are 1-based; the source has level 0"
    );
    assert!(lines[0].starts_with("1 "));
}

#[test]
fn divided_weights_round_up_and_keep_every_node_reached() {
    // Weights 1, 64, 65 and 200 on a path become 1, 1, 2 and 4 with K = 64.
    let (j, text) = sssp_on(
        "path.wel",
        "0 1 1\n1 2 64\n2 3 65\n3 4 200\n",
        &["--divide-weights", "64", "--threads", "2"],
    );
    assert_eq!(j["verified"], true);
    assert_eq!(text.lines().last(), Some("4 8"), "{text}");
    // On a road graph: verified against Dijkstra on the same divided weights, and the same
    // nodes reached as with the weights as read.
    let run = |extra: &[&str]| {
        let mut args = vec!["sssp", "--algo", "priority", "--json", "--threads", "2"];
        args.extend_from_slice(extra);
        let g = amsterdam();
        args.push(&g);
        json(&ordo(&args))
    };
    let (as_read, divided) = (run(&[]), run(&["--divide-weights", "64"]));
    assert_eq!(divided["verified"], true);
    assert_eq!(divided["reached"], as_read["reached"]);
    assert!(divided["dist_sum"].as_u64() < as_read["dist_sum"].as_u64());
    let out = ordo(&["sssp", &amsterdam(), "--divide-weights", "0"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn unreachable_nodes_print_inf() {
    let (j, text) = sssp_on("two.el", "0 1\n2 3\n", &["--threads", "1"]);
    assert_eq!(j["reached"], 2);
    assert_eq!(
        j["weights"], "1:255:1",
        "unweighted input gets the documented default weights"
    );
    assert!(text.contains("2 inf") && text.contains("0 0"), "{text}");
}

/// `ordo sssp` on a graph file `name` holding `text`, with `extra` flags: its JSON and its
/// `--out` file.
fn sssp_on(name: &str, text: &str, extra: &[&str]) -> (serde_json::Value, String) {
    let p = tmp(name);
    std::fs::write(&p, text).unwrap();
    let out = tmp(&format!("{name}.out"));
    let mut args = vec!["sssp", &p, "--json", "--out", &out];
    args.extend_from_slice(extra);
    let j = json(&ordo(&args));
    (j, std::fs::read_to_string(&out).unwrap())
}

#[test]
fn exit_codes_and_one_line_errors() {
    let g = amsterdam();
    let co = amsterdam_coords();
    let cases: &[(&[&str], i32, &str)] = &[
        (&["sssp", "/no/such/file.gr"], 1, "/no/such/file.gr"),
        (
            &["sssp", &g, "--scheduler", "nope"],
            2,
            "valid schedulers: auto, obim, pmod, smq",
        ),
        (
            &["sssp", &g, "--param", "chunkk=3"],
            2,
            "valid parameters: chunk, delta",
        ),
        (&["sssp", &g, "--param", "chunk"], 2, "expected key=value"),
        (
            &["sssp", &g, "--scheduler", "serial", "--threads", "2"],
            2,
            "exactly 1 thread",
        ),
        (
            &["sssp", &g, "--source", "0"],
            1,
            "out of range: this graph's ids run from 1 to 68213",
        ),
        (&["sssp", &g, "--source", "68214"], 1, "out of range"),
        (&["sssp", &g, "--weights", "9:1:0"], 2, "bad weight spec"),
        (&["sssp", &g, "--topology", "2y4"], 2, "bad topology"),
        (&["sssp", &g, "--threads", "0"], 2, "--threads 0"),
        (&["sssp"], 2, "GRAPH"),
        (&["frobnicate"], 2, "unrecognized subcommand"),
        (
            &["astar", &g, "--target", "5", "--coords", "/no/such.co"],
            1,
            "/no/such.co: coordinate file not found",
        ),
        (&["astar", &g, "--target", "5"], 1, "pass --coords FILE"),
        (
            &["astar", &g, "--target", "68214", "--coords", &co],
            1,
            "out of range",
        ),
        (&["astar", &g, "--coords", &co], 2, "--target"),
        (
            &["astar", &g, "--target", "5", "--out", "/tmp/x"],
            2,
            "no per-node output",
        ),
        (&["kcore", "/no/such/file.gr"], 1, "/no/such/file.gr"),
        (
            &["pagerank", &g, "--tolerance", "2"],
            2,
            "must be in (0, 1)",
        ),
        (&["pagerank", &g, "--priority", "x"], 2, "invalid value"),
        (&["pagerank", &g, "--iterations", "0"], 2, "not in 1..="),
        (
            &["pagerank", &g, "--iterations", "5", "--algo", "priority"],
            2,
            "counts pull iterations",
        ),
        (&["bc", &g, "--sources", "0"], 2, "at least one source"),
        (&["bc", &g, "--sources", "x"], 2, "expected a count"),
        (&["bc", &g, "--sources", "1,x"], 2, "'x' is not a node id"),
        (&["bc", &g, "--sources", "3,68214"], 1, "out of range"),
        (&["bc", &g, "--source", "68214"], 1, "out of range"),
        (
            &["bc", &g, "--source", "3", "--sources", "4"],
            2,
            "cannot be used with",
        ),
        (&["bc", &g, "-s", "obim"], 2, "do not apply"),
        (&["bc", &g, "--queues", "lifo"], 2, "invalid value"),
        (&["bc", &g, "--task", "0"], 2, "--task"),
        (
            &["pfp", &g, "--source", "7", "--sink", "7"],
            1,
            "the source and the sink are the same node (7)",
        ),
        (&["pfp", &g, "--sink", "68214"], 1, "out of range"),
    ];
    for &(args, code, want) in cases {
        let out = ordo(args);
        assert_eq!(out.status.code(), Some(code), "{args:?}: {}", stderr(&out));
        let err = stderr(&out);
        assert!(
            err.contains(want),
            "{args:?}: stderr '{err}' lacks '{want}'"
        );
        assert!(!err.contains("panicked"), "{args:?} panicked: {err}");
    }
    let bad = tmp("bad.gr");
    std::fs::write(&bad, "p sp 3 1\na 1 5 2\n").unwrap();
    let out = ordo(&["sssp", &bad]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("bad.gr:2: node id 5 is out of range"), "{err}");
}

#[test]
fn convert_to_binary_and_back_gives_the_same_answers() {
    let g = amsterdam();
    let bin = tmp("ams.ordo");
    let out = ordo(&["convert", &g, &bin]);
    assert!(out.status.success(), "{}", stderr(&out));
    let a = json(&ordo(&["sssp", &g, "--json", "--source", "100"]));
    let b = json(&ordo(&["sssp", &bin, "--json", "--source", "100"]));
    assert_eq!(a["dist_sum"], b["dist_sum"]);
    assert_eq!(b["format"], "ordo");
    let info = json(&ordo(&["info", &bin, "--json"]));
    assert_eq!(info["nodes"], 68_213);
    assert_eq!(info["first_id"], 1);
}

#[test]
fn generators_are_reproducible() {
    let (a, b) = (tmp("k1.el"), tmp("k2.el"));
    for p in [&a, &b] {
        let out = ordo(&["gen", "kronecker", "--scale", "10", "-o", p, "--seed", "3"]);
        assert!(out.status.success(), "{}", stderr(&out));
    }
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
    let r = tmp("road.gr");
    assert!(
        ordo(&["gen", "road", "--width", "30", "--height", "20", "-o", &r])
            .status
            .success()
    );
    let j = json(&ordo(&["sssp", &r, "--json", "--threads", "2"]));
    assert_eq!(j["reached"], 600);
    let u = tmp("u.wel");
    let out = ordo(&[
        "gen",
        "uniform",
        "--nodes",
        "100",
        "--edges",
        "300",
        "--weights",
        "1:9:2",
        "-o",
        &u,
    ]);
    assert!(out.status.success());
    assert_eq!(json(&ordo(&["info", &u, "--json"]))["edges"], 300);
}

#[test]
fn schedulers_lists_every_scheduler_with_defaults() {
    let out = ordo(&["schedulers", "--json"]);
    let j: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let names: Vec<&str> = j
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        vec![
            "auto",
            "obim",
            "pmod",
            "smq",
            "mq",
            "reld",
            "spraylist",
            "heap",
            "sheap",
            "pheap",
            "serial",
            "fifo",
            "lifo"
        ]
    );
    assert_eq!(j[1]["params"][0]["key"], "chunk");
    assert_eq!(j[1]["params"][0]["default"], "64");
}

#[test]
fn real_graph_runs_verified() {
    let Some(ny) = shared("USA-road-d.NY.gr.gz") else {
        return;
    };
    let j = json(&ordo(&["sssp", &ny, "--json", "--threads", "2"]));
    assert_eq!(j["verified"], true);
    assert_eq!(j["reached"], 264_346);
    let Some(sd) = shared("soc-Slashdot0902.txt.gz") else {
        return;
    };
    let j = json(&ordo(&[
        "bfs",
        &sd,
        "--json",
        "--threads",
        "2",
        "--scheduler",
        "obim",
    ]));
    assert_eq!(j["verified"], true);
}

#[test]
fn demo_prints_a_verified_table() {
    let out = ordo(&["demo", "--repeat", "1"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("scheduler") && text.contains("verified"));
    assert!(!text.contains(" NO"), "{text}");
    assert!(
        text.lines()
            .filter(|l| l.trim_end().ends_with("yes"))
            .count()
            >= 5,
        "{text}"
    );
}

#[test]
fn every_app_reports_the_input_graphs_own_counts() {
    // An application's fields are merged over the header: none may reuse `nodes` or `edges`
    // (mst's forest size under `edges` would replace the graph's arc count in the summary
    // line).
    let g = amsterdam();
    let co = amsterdam_coords();
    let info = json(&ordo(&["info", &g, "--json"]));
    for args in [
        vec!["sssp"],
        vec!["bfs"],
        vec!["astar", "--coords", &co, "--target", "5000"],
        vec!["pagerank"],
        vec!["cc"],
        vec!["kcore"],
        vec!["mst"],
        vec!["tc"],
        vec!["bc", "--sources", "1,"],
        vec!["pfp"],
    ] {
        let mut a = args.clone();
        a.extend([g.as_str(), "--json", "-t", "2"]);
        let j = json(&ordo(&a));
        assert_eq!(j["verified"], true, "{args:?}");
        assert_eq!(j["nodes"], info["nodes"], "{args:?}");
        assert_eq!(j["edges"], info["edges"], "{args:?}");
    }
}

/// `--shuffle` renumbers the nodes but every id in and out keeps the file's numbering: the
/// same sources and sinks by default, the same sampled bc sources, and the same `--out` files
/// (floats within their rounding), for every application.
#[test]
fn shuffled_runs_give_the_files_answers() {
    let g = amsterdam();
    let co = amsterdam_coords();
    let values = |path: &str| -> Vec<(u64, String)> {
        std::fs::read_to_string(path)
            .unwrap()
            .lines()
            .map(|l| {
                let (id, v) = l.split_once(' ').unwrap();
                (id.parse().unwrap(), v.to_string())
            })
            .collect()
    };
    let close = |a: &str, b: &str| match (a.parse::<f64>(), b.parse::<f64>()) {
        _ if a == b => true,
        (Ok(x), Ok(y)) => (x - y).abs() <= 1e-9 * x.abs().max(y.abs()).max(1.0),
        _ => false,
    };
    for (app, extra, headline) in [
        ("sssp", vec![], vec!["dist_sum", "max_dist", "source"]),
        (
            "sssp",
            vec!["--algo", "priority"],
            vec!["dist_sum", "source"],
        ),
        ("bfs", vec![], vec!["level_sum", "max_level", "source"]),
        (
            "astar",
            vec!["--coords", &co, "--target", "5000"],
            vec!["dist"],
        ),
        ("pagerank", vec!["--tolerance", "1e-12"], vec![]),
        ("cc", vec![], vec!["components", "largest"]),
        ("kcore", vec![], vec!["max_core", "in_max_core"]),
        ("mst", vec![], vec!["weight", "forest_edges"]),
        ("tc", vec![], vec!["triangles"]),
        ("bc", vec!["--sources", "6"], vec!["source_ids"]),
        ("pfp", vec![], vec!["flow", "source", "sink", "source_side"]),
    ] {
        let mut runs = vec![];
        for shuffle in [None, Some("7")] {
            let out = tmp(&format!("shuffle-{app}-{}.txt", shuffle.is_some()));
            let mut a = vec![app, g.as_str(), "--json", "-t", "2"];
            a.extend(extra.iter().copied());
            if !matches!(app, "astar" | "mst") {
                a.extend(["--out", &out]);
            }
            if let Some(seed) = shuffle {
                a.extend(["--shuffle", seed]);
            }
            let j = json(&ordo(&a));
            assert_eq!(j["verified"], true, "{app} {shuffle:?}");
            assert_eq!(
                j["shuffle"],
                shuffle.map_or(serde_json::Value::Null, |s| s
                    .parse::<u64>()
                    .unwrap()
                    .into())
            );
            runs.push((j, out));
        }
        let ((plain, plain_out), (shuffled, shuffled_out)) = (&runs[0], &runs[1]);
        for key in &headline {
            assert_eq!(plain[key], shuffled[key], "{app} {extra:?}: {key}");
        }
        if !matches!(app, "astar" | "mst") {
            let (a, b) = (values(plain_out), values(shuffled_out));
            assert_eq!(a.len(), b.len(), "{app}");
            for ((ia, va), (ib, vb)) in a.iter().zip(&b) {
                assert_eq!(ia, ib, "{app}: the --out file in the file's order");
                assert!(
                    close(va, vb),
                    "{app} {extra:?}: node {ia}: {va} against {vb}"
                );
            }
        }
    }
}
