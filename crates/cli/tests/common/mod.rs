//! Running the `ordo` binary from tests, and the inputs they share.
#![allow(dead_code)] // each test file uses its own subset

use std::path::PathBuf;
use std::process::{Command, Output};

pub fn ordo(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ordo"))
        .args(args)
        .output()
        .expect("run ordo")
}

pub fn shared(name: &str) -> Option<String> {
    let dir = std::env::var_os("ORDO_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data"));
    let p = dir.join(name);
    if p.is_file() {
        Some(p.to_string_lossy().into_owned())
    } else {
        eprintln!("SKIP: shared graph {name} not found");
        None
    }
}

pub fn tmp(name: &str) -> String {
    let dir = std::env::temp_dir().join(format!("ordo-cli-tests-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name).to_string_lossy().into_owned()
}

pub fn json(out: &Output) -> serde_json::Value {
    assert!(
        out.status.success(),
        "ordo failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("one JSON object on stdout")
}

pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// A small embedded-size road graph: the demo's data file.
pub fn amsterdam() -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../data/osm-amsterdam.gr.gz")
        .to_string_lossy()
        .into_owned()
}

pub fn amsterdam_coords() -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../data/osm-amsterdam.co.gz")
        .to_string_lossy()
        .into_owned()
}
