//! Locating the shared real graphs; tests skip with a message when they are absent.
#![allow(dead_code)] // each test file uses its own subset

use std::path::PathBuf;

/// `$ORDO_DATA`, else `../shared/data` beside the repository.
pub fn data_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("ORDO_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data"));
    dir.is_dir().then_some(dir)
}

/// The path of a shared graph, or `None` after printing why the test is skipped.
pub fn shared(name: &str) -> Option<PathBuf> {
    match data_dir() {
        Some(d) if d.join(name).is_file() => Some(d.join(name)),
        _ => {
            eprintln!(
                "SKIP: shared graph {name} not found (set ORDO_DATA or place ../shared/data)"
            );
            None
        }
    }
}

/// A scheduler configuration by name and `key=value` pairs; panics on a bad one (tests only).
/// (Not every test file that includes this module needs it.)
#[allow(dead_code)]
pub fn scheduler(name: &str, params: &[(&str, &str)]) -> ordo_sched::SchedulerConfig {
    let params: Vec<(String, String)> = params
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    ordo_sched::SchedulerConfig::parse(name, &params).unwrap()
}
