//! Replays the fuzz seeds (fuzz/seeds) and the saved crash regressions (fuzz/regressions)
//! through every reader on every run, so a fixed reader bug stays fixed without cargo-fuzz,
//! and the corpus a local fuzzing run grew (fuzz/corpus, not in git) where there is one, so
//! `scripts/asan.sh` runs it under AddressSanitizer. Each input must give a graph or an error
//! with a message, never a panic.

use ordo_graph::formats::{binary, coords};
use ordo_graph::{load_graph_from_bytes, Format, LoadOptions};
use std::path::{Path, PathBuf};

fn inputs() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz");
    let mut files = Vec::new();
    for dir in ["seeds", "regressions", "corpus"] {
        let Ok(entries) = std::fs::read_dir(root.join(dir)) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                files.extend(std::fs::read_dir(&p).unwrap().flatten().map(|f| f.path()));
            } else {
                files.push(p);
            }
        }
    }
    files.sort();
    files
}

#[test]
fn every_seed_and_regression_through_every_reader() {
    let files = inputs();
    assert!(
        files.len() >= 40,
        "fuzz seeds missing: {} files",
        files.len()
    );
    for path in &files {
        let bytes = std::fs::read(path).unwrap();
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
