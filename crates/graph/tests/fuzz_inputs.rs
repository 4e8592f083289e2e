//! Replays the fuzz seeds (fuzz/seeds) and the saved crash regressions (fuzz/regressions)
//! through every reader on every run, so a fixed reader bug stays fixed without cargo-fuzz.
//! With `ORDO_FUZZ_CORPUS=1` (`scripts/asan.sh` sets it) the corpus a local fuzzing run grew
//! (fuzz/corpus, not in git) goes through too. Each input must give a graph or an error with a
//! message, never a panic.

use ordo_graph::formats::{binary, coords};
use ordo_graph::{load_graph_from_bytes, Format, LoadOptions};
use std::path::{Path, PathBuf};

/// The files of `dir` and of its subfolders, one level down.
fn files_in(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return files;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            if let Ok(inner) = std::fs::read_dir(&p) {
                files.extend(inner.flatten().map(|f| f.path()));
            }
        } else {
            files.push(p);
        }
    }
    files.sort();
    files
}

fn inputs() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz");
    let mut files = files_in(&root.join("seeds"));
    assert!(
        files.len() >= 40,
        "fuzz seeds missing: {} files in fuzz/seeds",
        files.len()
    );
    files.extend(files_in(&root.join("regressions")));
    if std::env::var_os("ORDO_FUZZ_CORPUS").is_some() {
        files.extend(files_in(&root.join("corpus")));
    }
    files
}

#[test]
fn every_seed_and_regression_through_every_reader() {
    for path in &inputs() {
        // A running fuzzer may remove a corpus file it has shrunk.
        let Ok(bytes) = std::fs::read(path) else {
            continue;
        };
        for name in Format::NAMES {
            let opts = LoadOptions {
                format: Format::from_name(name),
                ..Default::default()
            };
            if let Err(e) = load_graph_from_bytes(Path::new("input"), bytes.clone(), &opts) {
                assert!(!e.to_string().is_empty(), "{}: empty error", path.display());
            }
        }
        let _ = binary::from_bytes(Path::new("input"), bytes.clone());
        for n in [0, 1, 40, 1000] {
            let _ = coords::read(Path::new("input"), &bytes, n);
        }
    }
}
