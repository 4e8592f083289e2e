//! `auto`, the default scheduler: needs no tuning.
//!
//! Measured with `bench/experiments/scheduler_matrix.py`, obim with a well-chosen `delta` beat both
//! adaptive schedulers with their defaults (PMOD and SMQ) on every input, and PMOD beat SMQ
//! overall (SMQ only won on road SSSP at 2 threads; on BFS it was 2x slower). So `auto` is:
//!
//! * **obim with the application's delta** when the application knows a good one: SSSP passes
//!   `ordo_algos::delta`'s width (Meyer and Sanders's estimate on small-world graphs, wider
//!   buckets on road networks and meshes), BFS passes 0 (one bag per level is already dense);
//! * **PMOD** otherwise, which finds the merging factor itself.
//!
//! `auto` with `delta=K` runs obim with that delta.

use crate::obim::ObimConfig;
use crate::params::{parse_in, Config, ConfigError, ParamInfo};
use crate::pmod::PmodConfig;

#[derive(Debug, Clone)]
pub struct AutoConfig {
    /// Tasks per chunk of whichever scheduler runs (obim's and PMOD's default, 64).
    pub chunk: usize,
    /// The application's delta hint (or the user's), if any.
    pub delta: Option<u32>,
}

impl Default for AutoConfig {
    fn default() -> Self {
        AutoConfig {
            chunk: ObimConfig::default().chunk,
            delta: None,
        }
    }
}

/// The scheduler `auto` runs (the registry turns it into a `SchedulerConfig`).
#[derive(Debug, Clone)]
pub enum AutoChoice {
    Obim(ObimConfig),
    Pmod(PmodConfig),
}

impl AutoConfig {
    /// The scheduler `auto` runs.
    pub fn resolve(&self) -> AutoChoice {
        match self.delta {
            Some(delta) => AutoChoice::Obim(ObimConfig {
                delta,
                chunk: self.chunk,
                ..Default::default()
            }),
            None => AutoChoice::Pmod(PmodConfig {
                chunk: self.chunk,
                ..Default::default()
            }),
        }
    }
}

impl Config for AutoConfig {
    const NAME: &'static str = "auto";
    const SUMMARY: &'static str =
        "the default: obim with the application's delta estimate if it has one, else pmod";

    fn describe(&self) -> Vec<ParamInfo> {
        vec![
            ParamInfo {
                key: "chunk",
                default: self.chunk.to_string(),
                doc: "tasks per chunk",
            },
            ParamInfo {
                key: "delta",
                default: self.delta.map_or("app".to_string(), |d| d.to_string()),
                doc: "obim's delta; 'app' takes the application's estimate (pmod if it has none)",
            },
        ]
    }

    fn set(&mut self, key: &str, value: &str) -> Result<(), ConfigError> {
        match key {
            "chunk" => self.chunk = parse_in::<Self>(key, value, 1..=1 << 16)? as usize,
            "delta" if value.trim() == "app" => self.delta = None,
            "delta" => self.delta = Some(parse_in::<Self>(key, value, 0..=63)? as u32),
            _ => return Err(Self::unknown_param(key)),
        }
        Ok(())
    }
}
