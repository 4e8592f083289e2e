//! `ordo-dist` under `mpirun -np 1, 2, 4` on this machine (oversubscribed, as root where
//! needed): every application against ordo's serial oracles and single-process results,
//! both layouts, binary and text input, generated graphs independent of the rank count,
//! a skewed job under a small memory bound, and failures that must end every rank quickly.

use serde_json::Value;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_ordo-dist");

struct Outcome {
    code: Option<i32>,
    stdout: String,
    stderr: String,
    took: Duration,
}

/// Runs `mpirun -np NP ordo-dist ARGS`, killing it (and failing) after `limit`.
fn mpirun(np: usize, args: &[&str], limit: Duration) -> Outcome {
    let mut child = Command::new("mpirun")
        .args([
            "--allow-run-as-root",
            "--oversubscribe",
            "-np",
            &np.to_string(),
            BIN,
        ])
        .args(args)
        .env("OMPI_MCA_rmaps_base_oversubscribe", "1")
        .env_remove("RUST_BACKTRACE")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("mpirun must be installed (scripts/test.sh installs Open MPI)");
    let start = Instant::now();
    let mut out = child.stdout.take().expect("piped");
    let mut err = child.stderr.take().expect("piped");
    let readers = (
        std::thread::spawn(move || {
            let mut s = String::new();
            let _ = out.read_to_string(&mut s);
            s
        }),
        std::thread::spawn(move || {
            let mut s = String::new();
            let _ = err.read_to_string(&mut s);
            s
        }),
    );
    let status = loop {
        if let Some(s) = child.try_wait().expect("wait") {
            break s;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            panic!("mpirun -np {np} {args:?} hung for {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    Outcome {
        code: status.code(),
        stdout: readers.0.join().expect("reader"),
        stderr: readers.1.join().expect("reader"),
        took: start.elapsed(),
    }
}

fn run_json(np: usize, args: &[&str]) -> Value {
    let mut all = args.to_vec();
    all.extend(["--json", "--threads", "2"]);
    let o = mpirun(np, &all, Duration::from_secs(120));
    assert_eq!(
        o.code,
        Some(0),
        "np {np} {args:?}: {}\n{}",
        o.stdout,
        o.stderr
    );
    let json: Value = serde_json::from_str(o.stdout.trim())
        .unwrap_or_else(|e| panic!("np {np} {args:?}: not one JSON object ({e}): {}", o.stdout));
    assert_eq!(json["ranks"], np as u64);
    json
}

fn amsterdam() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/osm-amsterdam.gr.gz")
}

/// The embedded graph as an ordo binary file (read in parts by offsets), one per test `tag`
/// so that tests running at once neither share nor delete each other's file.
fn amsterdam_binary(tag: &str) -> PathBuf {
    let name = format!("ordo-dist-{tag}-{}.ordo", std::process::id());
    let path = std::env::temp_dir().join(name);
    let g = ordo_graph::load_graph(&amsterdam(), &Default::default(), None)
        .unwrap()
        .graph;
    ordo_graph::write_graph(&g, &path, Some(ordo_graph::Format::Binary)).unwrap();
    path
}

/// The fields `ordo APP` reports for the result, from the serial oracles.
fn expected(app: &str, g: &ordo_graph::Graph) -> Vec<(&'static str, u64)> {
    match app {
        "bfs" => {
            let l = ordo_algos::bfs::serial_bfs(g, 0);
            let (reached, sum, max) = ordo_algos::bfs::summarize(&l);
            vec![
                ("reached", reached),
                ("level_sum", sum),
                ("max_level", max as u64),
            ]
        }
        "sssp" => {
            let d = ordo_algos::sssp::dijkstra(g, 0);
            let (reached, sum, max) = ordo_algos::sssp::summarize(&d);
            vec![
                ("reached", reached),
                ("dist_sum", sum as u64),
                ("max_dist", max),
            ]
        }
        "cc" => {
            let u = ordo_graph::undirected_simple(g).unwrap();
            let l = ordo_algos::cc::serial_cc(&u);
            vec![
                ("components", ordo_algos::cc::count(&l)),
                ("largest", ordo_algos::cc::largest(&l)),
            ]
        }
        "tc" => {
            let u = ordo_graph::undirected_simple(g).unwrap();
            vec![("triangles", ordo_algos::tc::serial_tc(&u))]
        }
        _ => vec![],
    }
}

#[test]
fn every_app_matches_the_single_process_result_at_1_2_4_ranks() {
    let g = ordo_graph::load_graph(&amsterdam(), &Default::default(), None)
        .unwrap()
        .graph;
    let text = amsterdam();
    let binary = amsterdam_binary("apps");
    // Each app by its default method and, where that is bulk-synchronous, as tasks too.
    let methods = [
        ("bfs", "direction"),
        ("bfs", "tasks"),
        ("sssp", "delta"),
        ("sssp", "tasks"),
        ("cc", "afforest"),
        ("cc", "tasks"),
        ("tc", "tasks"),
        ("pagerank", "pull"),
        ("pagerank", "tasks"),
    ];
    for (app, algo) in methods {
        let want = expected(app, &g);
        let tasks = algo == "tasks";
        let mut folded = 0;
        for np in [1, 2, 4] {
            for (input, layout) in [(&text, "ranges"), (&binary, "hash")] {
                let input = input.to_str().unwrap();
                let mut args = vec![app, input, "--partition", layout, "--algo", algo];
                // Sender-side combining is on by default; one run per app goes without it.
                let combine = !(np == 4 && layout == "hash");
                if !combine {
                    args.push("--no-combine");
                }
                // cc joins the local components on rank 0 (the default) and, once per layout
                // at 4 ranks, in rounds of labels across the cut.
                let rounds = app == "cc" && !tasks && np == 4;
                if rounds {
                    args.extend(["--gather-links", "0"]);
                }
                let j = run_json(np, &args);
                assert_eq!(j["verified"], true, "{app} {algo} np {np} {layout}: {j}");
                assert_eq!(j["algo"], algo, "{j}");
                if app == "cc" && !tasks && np > 1 {
                    let by = if rounds { "rounds" } else { "rank 0" };
                    assert_eq!(j["cut_joined_by"], by, "{j}");
                }
                folded += j["folded"].as_u64().unwrap();
                if !combine {
                    assert_eq!(j["folded"], 0, "{j}");
                }
                assert_eq!(j["nodes"], g.num_nodes() as u64);
                for (k, v) in &want {
                    assert_eq!(j[*k], *v, "{app} {algo} np {np} {layout}: {k} in {j}");
                }
                if np == 1 {
                    assert_eq!(j["messages"], 0, "one rank sends nothing");
                } else if !tasks {
                    assert!(j["bytes"].as_u64().unwrap() > 0, "{j}");
                } else if app != "tc" {
                    assert!(j["records"].as_u64().unwrap() > 0, "{j}");
                    let agg = j["aggregation"].as_f64().unwrap();
                    assert!(agg >= 1.0, "{j}");
                }
            }
        }
        // Amsterdam's cut has thousands of arcs: repeated records for the same node fold.
        if tasks && app != "tc" {
            assert!(folded > 0, "{app}: no record was folded at the sender");
        }
    }
    let _ = std::fs::remove_file(&binary);
}

/// The bulk-synchronous methods on a directed graph with hubs: bfs turns bottom-up (reading
/// ghosts of in-neighbours through the halo), pagerank pulls over the transpose, cc takes the
/// undirected view, sssp steps through buckets with remote relaxations, pagerank also for a
/// fixed count; each verified against the oracle at 1, 2 and 4 ranks in both layouts.
#[test]
fn bulk_synchronous_methods_on_a_directed_graph_with_hubs() {
    let mut seen = Vec::new();
    for np in [1, 2, 4] {
        for layout in ["ranges", "hash"] {
            let args = ["gen:kronecker:13", "--partition", layout];
            let b = run_json(np, &[&["bfs"][..], &args].concat());
            assert_eq!(b["verified"], true, "{b}");
            assert_eq!(b["algo"], "direction", "{b}");
            assert_eq!(b["in_edges"], "transpose", "{b}");
            assert!(b["bottom_up_steps"].as_u64().unwrap() > 0, "{b}");
            let c = run_json(np, &[&["cc"][..], &args].concat());
            assert_eq!(c["verified"], true, "{c}");
            let r = run_json(np, &[&["cc"][..], &args, &["--gather-links", "0"]].concat());
            assert_eq!(r["verified"], true, "{r}");
            assert_eq!(r["components"], c["components"], "{r}");
            let d = run_json(np, &[&["sssp"][..], &args].concat());
            assert_eq!(d["verified"], true, "{d}");
            assert_eq!(d["algo"], "delta", "{d}");
            let p = run_json(
                np,
                &[&["pagerank"][..], &args, &["--tolerance", "1e-9"]].concat(),
            );
            assert_eq!(p["verified"], true, "{p}");
            assert_eq!(p["algo"], "pull", "{p}");
            assert_eq!(p["in_edges"], "transpose", "{p}");
            assert_eq!(c["undirected_view"], "rebuilt", "{c}");
            // A fixed count, as Gemini's benchmark runs it: that many, still within its bound.
            let f = run_json(
                np,
                &[&["pagerank"][..], &args, &["--iterations", "7"]].concat(),
            );
            assert_eq!(f["verified"], true, "{f}");
            assert_eq!(f["iterations"], 7, "{f}");
            assert_eq!(f["stopping_rule"], "iterations", "{f}");
            seen.push((
                b["level_sum"].clone(),
                c["components"].clone(),
                p["top"].clone(),
            ));
        }
    }
    assert!(
        seen.iter().all(|s| s.0 == seen[0].0 && s.1 == seen[0].1),
        "{seen:?}"
    );
}

/// Symmetric graphs need no transpose: bfs and pagerank read their in-edges from the
/// out-lists, cc and tc take the lists as read when they are sorted and simple and clean them
/// in place otherwise; every answer verified at 1, 2 and 4 ranks in both layouts.
#[test]
fn symmetric_graphs_are_their_own_transpose() {
    let g = ordo_graph::load_graph(&amsterdam(), &Default::default(), None)
        .unwrap()
        .graph;
    let simple = ordo_graph::undirected_simple(&g).unwrap();
    let path = std::env::temp_dir().join(format!("ordo-dist-simple-{}.ordo", std::process::id()));
    ordo_graph::write_graph(&simple, &path, Some(ordo_graph::Format::Binary)).unwrap();
    let file = path.to_str().unwrap();
    // Kronecker arcs made symmetric keep their repeats and self-loops.
    let inputs: [(&[&str], &str); 2] = [
        (&[file], "as read"),
        (&["gen:kronecker:11", "--symmetrize"], "lists cleaned"),
    ];
    for (input, view) in inputs {
        for np in [1, 2, 4] {
            for layout in ["ranges", "hash"] {
                let args = [input, &["--partition", layout]].concat();
                for app in ["bfs", "pagerank"] {
                    let j = run_json(np, &[&[app][..], &args].concat());
                    assert_eq!(j["verified"], true, "{app} {input:?} np {np}: {j}");
                    assert_eq!(j["in_edges"], "out-lists", "{app} {input:?}: {j}");
                }
                for app in ["cc", "tc"] {
                    let j = run_json(np, &[&[app][..], &args].concat());
                    assert_eq!(j["verified"], true, "{app} {input:?} np {np}: {j}");
                    assert_eq!(j["undirected_view"], view, "{app} {input:?}: {j}");
                }
            }
        }
    }
    let _ = std::fs::remove_file(&path);
}

/// Graphs smaller than the job: ranks that own no node, and exchanges that are empty on
/// every rank (an empty byte buffer's pointer is Open MPI's `MPI_IN_PLACE`); one arc (a
/// transpose and a rebuilt view), and the arc both ways plus a self-loop (a symmetric graph:
/// its own in-lists, its lists cleaned).
#[test]
fn graphs_with_fewer_nodes_than_ranks() {
    for (tag, arcs) in [("one-arc", "0 1\n"), ("pair", "0 1\n1 0\n1 1\n")] {
        let path = std::env::temp_dir().join(format!("ordo-dist-{tag}-{}.el", std::process::id()));
        std::fs::write(&path, arcs).unwrap();
        for np in [2, 3] {
            for app in ["bfs", "sssp", "cc", "pagerank", "tc"] {
                let j = run_json(np, &[app, path.to_str().unwrap()]);
                assert_eq!(j["verified"], true, "{app} {tag} np {np}: {j}");
            }
        }
        let _ = std::fs::remove_file(&path);
    }
}

#[test]
fn generated_graphs_do_not_depend_on_the_rank_count() {
    let mut seen = Vec::new();
    for np in [1, 2, 4] {
        let j = run_json(np, &["tc", "gen:er:12"]);
        assert_eq!(j["verified"], true, "{j}");
        seen.push((j["edges"].clone(), j["triangles"].clone()));
        let k = run_json(np, &["sssp", "gen:kronecker:10", "--scheduler", "smq"]);
        assert_eq!(k["verified"], true, "{k}");
        assert_eq!(k["algo"], "tasks", "a scheduler selects tasks: {k}");
        seen.push((k["edges"].clone(), k["dist_sum"].clone()));
    }
    assert_eq!(seen[0], seen[2]);
    assert_eq!(seen[0], seen[4]);
    assert_eq!(seen[1], seen[3]);
    assert_eq!(seen[1], seen[5]);
}

/// Every arc points into the first 32 nodes, which one rank owns: that rank receives all the
/// messages. A small bound must hold (up to the documented slack) and the job must finish.
#[test]
fn a_skewed_job_completes_within_the_memory_bound() {
    let n: u32 = 4_000;
    let mut el = ordo_graph::EdgeList::with_capacity(n, n as usize * 8, false);
    for u in 32..n {
        for k in 0..8 {
            el.push(u, (u * 7 + k * 13) % 32, 1);
        }
        el.push(u % 32, u, 1);
    }
    let g = el
        .build(&Default::default(), ordo_graph::IdBase::Zero)
        .unwrap();
    let path = std::env::temp_dir().join(format!("ordo-dist-skew-{}.ordo", std::process::id()));
    ordo_graph::write_graph(&g, &path, Some(ordo_graph::Format::Binary)).unwrap();
    let limit: u64 = 64 << 10;
    let aggregate: u64 = 1024;
    for app in ["pagerank", "bfs"] {
        let j = run_json(
            4,
            &[
                app,
                path.to_str().unwrap(),
                "--buffer-limit",
                "64K",
                "--aggregate",
                "1024",
                "--algo",
                "tasks",
            ],
        );
        assert_eq!(j["verified"], true, "{j}");
        let peak = j["peak_buffered_bytes"].as_u64().unwrap();
        // The documented slack (docs/distributed.md): per worker, one task's output (a hub
        // has n / 32 out-arcs of 12-byte records) and a partly filled buffer per destination.
        let slack = 2 * (4 * aggregate + (n as u64 / 32 + 1) * 12);
        assert!(
            peak <= limit + slack,
            "{app}: peak {peak} over {limit} + {slack}: {j}"
        );
        assert!(j["records"].as_u64().unwrap() > 0);
    }
    let _ = std::fs::remove_file(&path);
}

/// Static tasking (GMT's reservation protocol, `slots.rs`): the same answers as the dynamic
/// design. The pools are as small as the command line allows (one block per other rank, all
/// handed out at the start), so senders run out, ask (and may be refused) and wait while they
/// run arrived records; tc sends plain records, sssp keyed ones that may fold (a folded record
/// gives its slot back) and whose handlers push tasks while their worker waits.
#[test]
fn static_tasking_reserves_slots_and_gives_the_same_answers() {
    let g = ordo_graph::load_graph(&amsterdam(), &Default::default(), None)
        .unwrap()
        .graph;
    let text = amsterdam();
    let input = text.to_str().unwrap();
    for app in ["tc", "sssp"] {
        let want = expected(app, &g);
        for np in [2, 4] {
            let block = 64;
            let pool = (block * (np - 1)).to_string();
            let block = block.to_string();
            let args = [
                app,
                input,
                "--algo",
                "tasks",
                "--tasking",
                "static",
                "--task-pool",
                &pool,
                "--reserve-block",
                &block,
            ];
            let j = run_json(np, &args);
            assert_eq!(j["verified"], true, "{app} np {np}: {j}");
            assert_eq!(j["tasking"], "static", "{j}");
            for (k, v) in &want {
                assert_eq!(j[*k], *v, "{app} np {np}: {k} in {j}");
            }
            // Thousands of records cross the cut, a few blocks' worth were held.
            assert!(j["records"].as_u64().unwrap() > 100, "{j}");
            assert!(j["reserve_requests"].as_u64().unwrap() > 0, "{j}");
            assert!(j["slot_waits"].as_u64().unwrap() > 0, "{j}");
        }
    }
    let d = run_json(2, &["tc", input]);
    assert_eq!(d["tasking"], "dynamic", "{d}");
    assert!(d.get("reserve_requests").is_none(), "{d}");
}

#[test]
fn a_rank_that_cannot_read_its_part_stops_every_rank() {
    // Corrupt a target in the last rank's part only: the others read fine.
    let good = amsterdam_binary("good");
    let mut bytes = std::fs::read(&good).unwrap();
    let _ = std::fs::remove_file(&good);
    let n = u64::from_le_bytes(bytes[16..24].try_into().unwrap());
    let m = u64::from_le_bytes(bytes[24..32].try_into().unwrap());
    let last_target = 64 + (n as usize + 1) * 8 + (m as usize - 1) * 4;
    bytes[last_target..last_target + 4].copy_from_slice(&u32::MAX.to_le_bytes());
    let bad = std::env::temp_dir().join(format!("ordo-dist-bad-{}.ordo", std::process::id()));
    std::fs::write(&bad, &bytes).unwrap();
    let o = mpirun(4, &["bfs", bad.to_str().unwrap()], Duration::from_secs(60));
    assert_eq!(o.code, Some(1), "{}\n{}", o.stdout, o.stderr);
    assert!(
        o.stderr.contains("rank 3") && o.stderr.contains("not below n"),
        "{}",
        o.stderr
    );
    assert!(o.stderr.contains("rank(s) 3 failed"), "{}", o.stderr);
    assert!(o.took < Duration::from_secs(30));
    // A file that is missing everywhere.
    let o = mpirun(
        2,
        &["bfs", "/nonexistent/graph.gr"],
        Duration::from_secs(60),
    );
    assert_eq!(o.code, Some(1), "{}", o.stderr);
    assert!(o.stderr.contains("/nonexistent/graph.gr"), "{}", o.stderr);
    let _ = std::fs::remove_file(&bad);
}

#[test]
fn running_out_of_memory_ends_the_job_quickly() {
    // Kronecker scale 21 needs about 400 MB per rank for its arcs alone.
    let o = mpirun(
        2,
        &[
            "bfs",
            "gen:kronecker:21",
            "--max-memory",
            "300M",
            "--threads",
            "1",
        ],
        Duration::from_secs(90),
    );
    assert_ne!(o.code, Some(0), "{}", o.stdout);
    assert!(o.stderr.contains("memory allocation"), "{}", o.stderr);
}

#[test]
fn usage_errors_exit_2_with_one_message() {
    let o = mpirun(
        2,
        &["bfs", "gen:er:8", "--scheduler", "nope"],
        Duration::from_secs(60),
    );
    assert_eq!(o.code, Some(2), "{}", o.stderr);
    assert_eq!(
        o.stderr.matches("unknown scheduler").count(),
        1,
        "{}",
        o.stderr
    );
    let cases: [(usize, &[&str], &str); 12] = [
        (2, &["bfs", "gen:what:8"], "unknown generator"),
        (
            2,
            &["pagerank", "gen:er:8", "--iterations", "0"],
            "not in 1..=",
        ),
        (
            2,
            &[
                "pagerank",
                "gen:er:8",
                "--iterations",
                "5",
                "--algo",
                "tasks",
            ],
            "counts pull iterations",
        ),
        (
            2,
            &["bfs", "gen:er:8", "--iterations", "5"],
            "applies to pagerank only",
        ),
        (
            2,
            &["bfs", "gen:er:8", "--algo", "pull"],
            "is not a method of bfs",
        ),
        (
            2,
            &["sssp", "gen:er:8", "--algo", "delta", "--scheduler", "obim"],
            "apply to --algo tasks",
        ),
        (
            2,
            &["sssp", "gen:er:8", "--tasking", "static"],
            "applies to --algo tasks",
        ),
        (
            2,
            &["tc", "gen:er:8", "--task-pool", "64"],
            "apply to --tasking static",
        ),
        (
            4,
            &["tc", "gen:er:8", "--tasking", "static", "--task-pool", "64"],
            "--task-pool 64 is too small",
        ),
        (1, &["sssp", "gen:er:8", "--source", "100000"], ""),
        (
            1,
            &["sssp", "gen:er:8", "--format", "snap"],
            "not to generators",
        ),
        (
            1,
            &["sssp", "gen:er:8", "--weights", "9:1:0"],
            "bad weight spec",
        ),
    ];
    for (np, args, message) in cases {
        usage_error(np, args, message);
    }
}

/// `mpirun -np NP ordo-dist ARGS` exits 2 with `message` on stderr.
fn usage_error(np: usize, args: &[&str], message: &str) {
    let o = mpirun(np, args, Duration::from_secs(60));
    assert_eq!(o.code, Some(2), "{args:?}: {}", o.stderr);
    assert!(o.stderr.contains(message), "{args:?}: {}", o.stderr);
}

/// The input flags are `ordo`'s: the same flags give the graph `ordo_graph`'s builder gives
/// on one machine, from a text file (scattered by rank 0) and a binary one (read in parts).
#[test]
fn input_flags_build_the_graph_ordo_builds() {
    let flags = [
        "--symmetrize",
        "--drop-self-loops",
        "--merge-parallel",
        "--weights",
        "1:9:4",
        "--divide-weights",
        "3",
    ];
    let opts = ordo_graph::LoadOptions {
        format: None,
        build: ordo_graph::BuildOptions {
            symmetrize: true,
            drop_self_loops: true,
            merge_parallel: true,
            weights: Some("1:9:4".parse().unwrap()),
            weight_divisor: Some(3),
        },
    };
    let g = ordo_graph::load_graph(&amsterdam(), &opts, None)
        .unwrap()
        .graph;
    let text = amsterdam();
    let binary = amsterdam_binary("flags");
    for np in [1, 2] {
        for input in [&text, &binary] {
            let mut args = vec!["sssp", input.to_str().unwrap()];
            args.extend(flags);
            let j = run_json(np, &args);
            assert_eq!(j["verified"], true, "{j}");
            assert_eq!(j["edges"], g.num_edges() as u64, "{j}");
            assert_eq!(j["weights"], "1:9:4", "{j}");
            for (k, v) in expected("sssp", &g) {
                assert_eq!(j[k], v, "np {np}: {k} in {j}");
            }
        }
    }
    // `ordo tc G --symmetrize` is accepted; so is ordo-dist's.
    let j = run_json(2, &["tc", text.to_str().unwrap(), "--symmetrize"]);
    assert_eq!(j["triangles"], expected("tc", &g)[0].1, "{j}");
    let _ = std::fs::remove_file(&binary);
}

/// sssp on an unweighted file draws `ordo sssp`'s default weights (1:255:1) and says so.
#[test]
fn sssp_on_an_unweighted_file_uses_ordos_default_weights() {
    let g = ordo_graph::load_graph(&amsterdam(), &Default::default(), None)
        .unwrap()
        .graph;
    let mut text = String::new();
    for u in 0..g.num_nodes() as u32 {
        for (v, _) in g.out_edges(u) {
            text.push_str(&format!("{u}\t{v}\n"));
        }
    }
    let path =
        std::env::temp_dir().join(format!("ordo-dist-unweighted-{}.txt", std::process::id()));
    std::fs::write(&path, text).unwrap();
    let mut want = ordo_graph::load_graph(&path, &Default::default(), None)
        .unwrap()
        .graph;
    want.assign_weights(ordo_graph::WeightSpec::DEFAULT);
    let mut args = vec!["sssp", path.to_str().unwrap(), "--json", "--threads", "1"];
    let o = mpirun(2, &args, Duration::from_secs(120));
    assert_eq!(o.code, Some(0), "{}", o.stderr);
    assert_eq!(
        o.stderr.matches("using random weights 1:255:1").count(),
        1,
        "{}",
        o.stderr
    );
    let j: Value = serde_json::from_str(o.stdout.trim()).unwrap();
    assert_eq!(j["weights"], "1:255:1", "{j}");
    for (k, v) in expected("sssp", &want) {
        assert_eq!(j[k], v, "{k} in {j}");
    }
    args.extend(["--weights", "2:2:0"]);
    let o = mpirun(1, &args, Duration::from_secs(120));
    assert_eq!(o.code, Some(0), "{}", o.stderr);
    assert!(!o.stderr.contains("random weights"), "{}", o.stderr);
    let j: Value = serde_json::from_str(o.stdout.trim()).unwrap();
    assert_eq!(j["weights"], "2:2:0", "{j}");
    assert_eq!(j["max_dist"], 2 * expected("bfs", &want)[2].1, "{j}");
    let _ = std::fs::remove_file(&path);
}

/// Termination must neither fire early nor hang when work hops between ranks one message at
/// a time: on a path with the hash layout every arc crosses ranks, so each rank is idle most
/// of the time while the single live task travels. An early decision leaves nodes unreached
/// (verification fails); a missed one hangs (the harness fails after its limit).
#[test]
fn termination_waits_for_work_that_hops_between_ranks() {
    let n: u32 = 1_000;
    let mut el = ordo_graph::EdgeList::with_capacity(n, n as usize, false);
    for u in 0..n - 1 {
        el.push(u, u + 1, 1);
    }
    let g = el
        .build(&Default::default(), ordo_graph::IdBase::Zero)
        .unwrap();
    let path = std::env::temp_dir().join(format!("ordo-dist-path-{}.ordo", std::process::id()));
    ordo_graph::write_graph(&g, &path, Some(ordo_graph::Format::Binary)).unwrap();
    for np in [2, 4] {
        let j = run_json(
            np,
            &[
                "bfs",
                path.to_str().unwrap(),
                "--partition",
                "hash",
                "--flush-us",
                "50",
                "--algo",
                "tasks",
            ],
        );
        assert_eq!(j["verified"], true, "{j}");
        assert_eq!(j["reached"], n as u64, "{j}");
        assert_eq!(j["max_level"], (n - 1) as u64, "{j}");
        assert!(j["messages"].as_u64().unwrap() >= (n - 1) as u64 / 2, "{j}");
        assert!(j["termination_waves"].as_u64().unwrap() >= 2, "{j}");
    }
    let _ = std::fs::remove_file(&path);
}
