//! Ctrl-C during a long CLI run: the run stops (in milliseconds: the latency is printed), the
//! partial report goes to stderr, and the exit status is 130; a second Ctrl-C quits at once.

mod common;

use common::{ordo, tmp};
use std::io::Read;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A 300 x 300 road grid: each run of a priority-scheduled method takes milliseconds, so
/// `--repeat 1000` is a long job (the frontier methods, well under a millisecond at 8 workers
/// on a warm pool, could finish before the signal). Each test writes its own file (`name`):
/// tests run concurrently.
fn grid(name: &str) -> String {
    let path = tmp(&format!("interrupt-{name}.ordo"));
    let out = ordo(&[
        "gen", "road", "--width", "300", "--height", "300", "-o", &path,
    ]);
    assert!(out.status.success(), "{out:?}");
    path
}

/// `app` on `g`, 1000 times at 8 workers, by its priority-scheduled method.
fn long_priority_run<'a>(app: &'a str, g: &'a str) -> [&'a str; 8] {
    [
        app,
        g,
        "--repeat",
        "1000",
        "--threads",
        "8",
        "--algo",
        "priority",
    ]
}

fn start(args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_ordo"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start ordo")
}

fn sigint(child: &Child) {
    let ok = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("run kill");
    assert!(ok.success());
}

/// Waits for `child` at most `limit`, returning its exit code and stderr; kills it past that.
fn finish_within(mut child: Child, limit: Duration) -> (Option<i32>, String, Duration) {
    let t0 = Instant::now();
    loop {
        if let Some(status) = child.try_wait().expect("wait") {
            let mut err = String::new();
            child
                .stderr
                .take()
                .unwrap()
                .read_to_string(&mut err)
                .unwrap();
            return (status.code(), err, t0.elapsed());
        }
        if t0.elapsed() > limit {
            child.kill().ok();
            panic!("ordo still running {limit:?} after Ctrl-C");
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

#[test]
fn ctrl_c_stops_a_long_run_with_the_partial_report() {
    let g = grid("partial-report");
    let cases: &[&[&str]] = &[
        &long_priority_run("sssp", &g),
        &[
            "pagerank",
            &g,
            "--repeat",
            "1000",
            "--threads",
            "8",
            "-s",
            "smq",
        ],
        &[
            "bc",
            &g,
            "--repeat",
            "1000",
            "--threads",
            "8",
            "--sources",
            "16",
        ],
        &["pfp", &g, "--repeat", "1000", "--threads", "8"],
    ];
    for args in cases {
        let child = start(args);
        std::thread::sleep(Duration::from_millis(1500));
        sigint(&child);
        let (code, err, took) = finish_within(child, Duration::from_secs(10));
        assert_eq!(code, Some(130), "{args:?}: {err}");
        // No time is asserted (timings on shared machines are noise); a run that ignored the
        // signal would fail `finish_within`. The latency is printed for the record.
        eprintln!("{}: stopped {took:.0?} after Ctrl-C", args[0]);
        assert!(err.contains("stopping the run"), "{args:?}: {err}");
        // Either a run was stopped mid-way (its counts) or between two runs.
        assert!(
            err.contains("tasks run,")
                || err.contains("runs (each checked as it ended); nothing was written"),
            "{args:?}: {err}"
        );
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

#[test]
fn a_second_ctrl_c_quits_at_once() {
    let g = grid("second");
    let child = start(&long_priority_run("cc", &g));
    std::thread::sleep(Duration::from_millis(1500));
    sigint(&child);
    sigint(&child);
    let (code, err, _) = finish_within(child, Duration::from_secs(10));
    assert_eq!(code, Some(130), "{err}");
    assert!(err.contains("ordo: interrupted"), "{err}");
}
