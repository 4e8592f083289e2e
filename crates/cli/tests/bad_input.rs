//! Every subcommand that reads a graph, on every kind of bad input: exit status 1, one line on
//! stderr naming the file (and the line where there is one), never a panic or a signal, and
//! memory bounded by the input's real size: each run is limited to 3 GiB of address space,
//! so a reader that believed a header claiming 10^12 nodes would die instead of erroring.

mod common;

use common::tmp;
use std::io::Write;
use std::os::unix::process::CommandExt;
use std::process::{Command, Output};

/// Runs ordo under an address-space limit, with the gzip expansion limit set low. Under
/// AddressSanitizer (`scripts/asan.sh`), whose shadow memory needs terabytes of address space,
/// there is no limit here; its `max_allocation_size_mb` refuses any single allocation over
/// 3 GiB instead.
fn ordo_limited(args: &[&str]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_ordo"));
    cmd.args(args).env("ORDO_MEMORY_LIMIT", "50000000");
    if cfg!(ordo_asan) {
        return cmd.output().expect("run ordo");
    }
    // SAFETY: setrlimit is async-signal-safe, as pre_exec requires.
    unsafe {
        cmd.pre_exec(|| {
            let limit = libc::rlimit {
                rlim_cur: 3 << 30,
                rlim_max: 3 << 30,
            };
            if libc::setrlimit(libc::RLIMIT_AS, &limit) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    cmd.output().expect("run ordo")
}

fn write(name: &str, bytes: &[u8]) -> String {
    let path = tmp(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut gz = flate2::write::GzEncoder::new(&mut out, flate2::Compression::fast());
    gz.write_all(bytes).unwrap();
    gz.finish().unwrap();
    out
}

/// (file, what stderr must contain besides the file name).
fn bad_inputs() -> Vec<(String, &'static str)> {
    let good_gr = b"p sp 3 2\na 1 2 5\na 2 3 1\n".to_vec();
    let mut corrupt_gz = gzip(&good_gr);
    let mid = corrupt_gz.len() / 2;
    corrupt_gz.truncate(mid);
    // A valid binary graph, then the same with one body byte flipped and with its tail cut.
    let ordo_ok = tmp("ok.ordo");
    let src = write("ok.gr", &good_gr);
    let conv = Command::new(env!("CARGO_BIN_EXE_ordo"))
        .args(["convert", &src, &ordo_ok])
        .output()
        .unwrap();
    assert!(conv.status.success());
    let bin = std::fs::read(&ordo_ok).unwrap();
    let mut flipped = bin.clone();
    *flipped.last_mut().unwrap() ^= 1;
    let mut huge_header = bin.clone();
    huge_header[24..32].copy_from_slice(&(1u64 << 40).to_le_bytes());
    vec![
        (tmp("missing.gr"), "No such file"),
        (std::env::temp_dir().to_string_lossy().into_owned(), "directory"),
        (write("empty.gr", b""), "no 'p sp"),
        (write("garbage.gr", &[0xff, 0xfe, 0x00, 0x13, 0x37]), ""),
        (write("claims.gr", b"p sp 1000000000000 1\na 1 2 3\n"), ":1:"),
        (write("claims-arcs.gr", b"p sp 3 1000000000000\na 1 2 3\n"), ""),
        (write("bad-line.gr", b"p sp 3 2\na 1 2 5\na 2 x 1\n"), ":3:"),
        (write("out-of-range.gr", b"p sp 3 1\na 1 9 5\n"), ":2:"),
        (write("negative.gr", b"p sp 3 1\na 1 2 -5\n"), ":2:"),
        (write("few-arcs.gr", b"p sp 3 5\na 1 2 5\n"), ""),
        (write("claims.mtx", b"%%MatrixMarket matrix coordinate pattern general\n1000000000000 1000000000000 1\n1 1\n"), ":2:"),
        (write("bad-banner.mtx", b"%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n"), ":1:"),
        (write("claims.graph", b"1000000000000 1\n2\n1\n"), ":1:"),
        (write("asymmetric.graph", b"2 1\n2\n\n"), ""),
        (write("bad.txt", b"# snap\n0 1\n1 two\n"), ":3:"),
        (write("huge-id.el", b"0 4294967295\n"), ":1:"),
        (write("corrupt.gr.gz", &corrupt_gz), "gzip"),
        (write("bomb.gr.gz", &gzip(&vec![b' '; 60_000_000])), "gzip bomb"),
        (write("flipped.ordo", &flipped), "checksum"),
        (write("truncated.ordo", &bin[..bin.len() - 8]), "truncated"),
        (write("huge-header.ordo", &huge_header), "implies"),
        (write("not-ordo.ordo", b"ORDOGRF\0 this is not a graph"), ""),
    ]
}

#[test]
fn every_subcommand_rejects_every_bad_input_in_one_line() {
    let out_file = tmp("bad-input-out.txt");
    let commands: &[&[&str]] = &[
        &["sssp"],
        &["bfs"],
        &["astar", "--target", "2", "--coords", "/dev/null"],
        &["pagerank"],
        &["cc"],
        &["kcore"],
        &["mst"],
        &["tc"],
        &["bc", "--sources", "2"],
        &["pfp"],
        &["info"],
        &["convert", "@IN", &out_file],
    ];
    let inputs = bad_inputs();
    let mut failures = Vec::new();
    for cmd in commands {
        for (file, want) in &inputs {
            let mut args: Vec<&str> = cmd.to_vec();
            match args.iter().position(|&a| a == "@IN") {
                Some(i) => args[i] = file,
                None => args.insert(1, file),
            }
            let out = ordo_limited(&args);
            let err = String::from_utf8_lossy(&out.stderr);
            let lines: Vec<&str> = err.lines().filter(|l| !l.starts_with("note:")).collect();
            let name = std::path::Path::new(file)
                .file_name()
                .unwrap()
                .to_string_lossy();
            let problem = if out.status.code() != Some(1) {
                Some(format!("status {:?}", out.status))
            } else if err.contains("panicked") {
                Some("panicked".into())
            } else if lines.len() != 1 {
                Some("not one line".into())
            } else if !err.contains(&*name) {
                Some("does not name the file".into())
            } else if !err.contains(want) {
                Some(format!("lacks '{want}'"))
            } else {
                None
            };
            if let Some(p) = problem {
                failures.push(format!("{args:?}: {p}: {}", err.trim_end()));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn bad_coordinate_files_are_rejected_in_one_line() {
    let g = write("coords-graph.gr", b"p sp 3 2\na 1 2 5\na 2 3 1\n");
    let cases: &[(&str, &[u8], &str)] = &[
        (
            "short.co",
            b"p aux sp co 3\nv 1 0 0\nv 2 1 1\n",
            "node 3 has no coordinates",
        ),
        ("claims.co", b"p aux sp co 1000000000000\n", ":1:"),
        (
            "nan.co",
            b"p aux sp co 3\nv 1 0 0\nv 2 nan 1\nv 3 1 1\n",
            ":3:",
        ),
        (
            "twice.co",
            b"p aux sp co 3\nv 1 0 0\nv 1 0 0\nv 3 1 1\n",
            ":3:",
        ),
        ("rows.xyz", b"1 2\n3 4\n", "2 coordinate lines for 3 nodes"),
    ];
    for (name, text, want) in cases {
        let co = write(name, text);
        for args in [
            vec![
                "astar", &g, "--source", "1", "--target", "3", "--coords", &co,
            ],
            vec!["info", &g, "--coords", &co],
        ] {
            let out = ordo_limited(&args);
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
            assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
            assert!(
                err.contains(name) && err.contains(want),
                "{args:?}: '{err}' lacks '{want}'"
            );
        }
    }
}
