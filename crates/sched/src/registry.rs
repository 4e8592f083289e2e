//! Schedulers by name: parsing `name` + `key=value` parameters into a configuration, listing
//! them with their defaults, and running generic code on the chosen scheduler.
//!
//! Applications stay generic over [`Scheduler`]; the choice by name happens once, here, through
//! a [`SchedulerVisitor`], so every run is monomorphized for its scheduler.

use crate::contract::{Scheduler, Task};
use crate::obim::{Obim, ObimConfig};
use crate::params::{Config, ConfigError, ParamInfo};
use crate::serial::{Serial, SerialConfig};
use crate::topology::Topology;
use crate::unordered::{FifoConfig, LifoConfig, Unordered};

/// A scheduler chosen by name, with its configuration.
#[derive(Debug, Clone)]
pub enum SchedulerConfig {
    Serial(SerialConfig),
    Fifo(FifoConfig),
    Lifo(LifoConfig),
    Obim(ObimConfig),
}

/// One entry of the catalogue `ordo schedulers` prints.
#[derive(Debug, Clone)]
pub struct SchedulerInfo {
    pub name: &'static str,
    pub summary: &'static str,
    pub params: Vec<ParamInfo>,
}

fn info<C: Config>() -> SchedulerInfo {
    SchedulerInfo {
        name: C::NAME,
        summary: C::SUMMARY,
        params: C::default().describe(),
    }
}

/// Every scheduler with its parameters and defaults.
pub fn catalogue() -> Vec<SchedulerInfo> {
    vec![
        info::<ObimConfig>(),
        info::<SerialConfig>(),
        info::<FifoConfig>(),
        info::<LifoConfig>(),
    ]
}

/// The names accepted by [`SchedulerConfig::parse`].
pub fn names() -> Vec<&'static str> {
    catalogue().iter().map(|i| i.name).collect()
}

impl SchedulerConfig {
    /// Builds the configuration of scheduler `name` from `key=value` parameters.
    pub fn parse(name: &str, params: &[(String, String)]) -> Result<Self, ConfigError> {
        Ok(match name {
            "serial" => SchedulerConfig::Serial(SerialConfig::from_params(params)?),
            "fifo" => SchedulerConfig::Fifo(FifoConfig::from_params(params)?),
            "lifo" => SchedulerConfig::Lifo(LifoConfig::from_params(params)?),
            "obim" => SchedulerConfig::Obim(ObimConfig::from_params(params)?),
            _ => {
                return Err(ConfigError::UnknownScheduler {
                    name: name.to_string(),
                    valid: names().join(", "),
                })
            }
        })
    }

    pub fn name(&self) -> &'static str {
        match self {
            SchedulerConfig::Serial(_) => SerialConfig::NAME,
            SchedulerConfig::Fifo(_) => FifoConfig::NAME,
            SchedulerConfig::Lifo(_) => LifoConfig::NAME,
            SchedulerConfig::Obim(_) => ObimConfig::NAME,
        }
    }

    /// The current parameter values.
    pub fn params(&self) -> Vec<ParamInfo> {
        match self {
            SchedulerConfig::Serial(c) => c.describe(),
            SchedulerConfig::Fifo(c) => c.describe(),
            SchedulerConfig::Lifo(c) => c.describe(),
            SchedulerConfig::Obim(c) => c.describe(),
        }
    }

    /// Sets one parameter.
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), ConfigError> {
        match self {
            SchedulerConfig::Serial(c) => c.set(key, value),
            SchedulerConfig::Fifo(c) => c.set(key, value),
            SchedulerConfig::Lifo(c) => c.set(key, value),
            SchedulerConfig::Obim(c) => c.set(key, value),
        }
    }

    /// The most workers the scheduler supports, if it is limited.
    pub fn max_workers(&self) -> Option<usize> {
        match self {
            SchedulerConfig::Serial(_) => Some(1),
            _ => None,
        }
    }

    /// Whether the scheduler has parameter `key`.
    pub fn has_param(&self, key: &str) -> bool {
        self.params().iter().any(|p| p.key == key)
    }

    /// `name` followed by its non-default parameters, e.g. `obim(delta=10)`.
    pub fn label(&self) -> String {
        let defaults = SchedulerConfig::parse(self.name(), &[])
            .expect("valid name")
            .params();
        let changed: Vec<String> = self
            .params()
            .iter()
            .zip(defaults)
            .filter(|(p, d)| p.default != d.default)
            .map(|(p, _)| format!("{}={}", p.key, p.default))
            .collect();
        if changed.is_empty() {
            self.name().to_string()
        } else {
            format!("{}({})", self.name(), changed.join(","))
        }
    }

    /// Whether the scheduler can run with `workers` workers.
    pub fn check_workers(&self, workers: usize) -> Result<(), ConfigError> {
        if workers == 0 {
            return Err(ConfigError::Unsupported {
                scheduler: self.name(),
                why: "needs at least one worker".into(),
            });
        }
        if matches!(self, SchedulerConfig::Serial(_)) && workers != 1 {
            return Err(ConfigError::Unsupported {
                scheduler: "serial",
                why: format!("runs on exactly 1 thread (asked for {workers})"),
            });
        }
        Ok(())
    }

    /// Builds the scheduler for `workers` workers on `topo` and hands it to `visitor`.
    pub fn with<T: Task, V: SchedulerVisitor<T>>(
        &self,
        workers: usize,
        topo: &Topology,
        visitor: V,
    ) -> Result<V::Output, ConfigError> {
        self.check_workers(workers)?;
        Ok(match self {
            SchedulerConfig::Serial(c) => visitor.visit(&Serial::new(c, workers)?),
            SchedulerConfig::Fifo(c) => visitor.visit(&Unordered::fifo(c, workers, topo)),
            SchedulerConfig::Lifo(c) => visitor.visit(&Unordered::lifo(c, workers, topo)),
            SchedulerConfig::Obim(c) => visitor.visit(&Obim::new(c, workers, topo)),
        })
    }
}

/// Generic code to run on whichever scheduler a [`SchedulerConfig`] names.
pub trait SchedulerVisitor<T: Task> {
    type Output;
    fn visit<S: Scheduler<T>>(self, scheduler: &S) -> Self::Output;
}

/// Parses `key=value`.
pub fn parse_param(s: &str) -> Result<(String, String), String> {
    match s.split_once('=') {
        Some((k, v)) if !k.trim().is_empty() => Ok((k.trim().to_string(), v.trim().to_string())),
        _ => Err(format!(
            "bad parameter '{s}': expected key=value, e.g. chunk=32"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_names_and_params_with_clear_errors() {
        let c = SchedulerConfig::parse("obim", &[("delta".into(), "10".into())]).unwrap();
        assert_eq!(c.label(), "obim(delta=10)");
        let e = SchedulerConfig::parse("nope", &[]).unwrap_err().to_string();
        assert!(
            e.contains("valid schedulers: obim, serial, fifo, lifo"),
            "{e}"
        );
        let e = SchedulerConfig::parse("obim", &[("chunkk".into(), "1".into())])
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("valid parameters: chunk, delta, variant, backscan"),
            "{e}"
        );
        let e = SchedulerConfig::parse("obim", &[("chunk".into(), "0".into())])
            .unwrap_err()
            .to_string();
        assert!(e.contains("must be in 1..=65536"), "{e}");
        let c = SchedulerConfig::parse("obim", &[("variant".into(), "cmn".into())]).unwrap();
        assert_eq!(c.label(), "obim(variant=cmn,backscan=false)");
        assert!(SchedulerConfig::parse("serial", &[])
            .unwrap()
            .check_workers(2)
            .is_err());
        assert!(parse_param("a=b").is_ok() && parse_param("=b").is_err());
    }
}
