//! Schedulers by name: parsing `name` + `key=value` parameters into a configuration, listing
//! them with their defaults, and running generic code on the chosen scheduler.
//!
//! Applications stay generic over [`Scheduler`]; the choice by name happens once, here, through
//! a [`SchedulerVisitor`], so every run is monomorphized for its scheduler.

use crate::auto::{AutoChoice, AutoConfig};
use crate::contract::{Scheduler, Task};
use crate::heap::{Heap, HeapConfig};
use crate::mq::{Mq, MqConfig};
use crate::obim::{Obim, ObimConfig};
use crate::params::{Config, ConfigError, ParamInfo};
use crate::pheap::{self, PheapConfig};
use crate::pmod::{self, PmodConfig};
use crate::reld::{self, ReldConfig};
use crate::serial::{Serial, SerialConfig};
use crate::sheap::{self, SheapConfig};
use crate::smq::{Smq, SmqConfig};
use crate::spraylist::{SprayList, SprayListConfig};
use crate::topology::Topology;
use crate::unordered::{FifoConfig, LifoConfig, Unordered};

/// Declares [`SchedulerConfig`] and its per-scheduler dispatch from one table:
/// variant, configuration type, and how to build the scheduler from `(cfg, workers, topo)`.
macro_rules! schedulers {
    ($($variant:ident($cfg:ty) => |$c:ident, $w:ident, $t:ident| $build:expr;)*) => {
        /// A scheduler chosen by name, with its configuration.
        #[derive(Debug, Clone)]
        pub enum SchedulerConfig {
            /// Resolves to one of the others when run (see `auto.rs`).
            Auto(AutoConfig),
            $($variant($cfg),)*
        }

        /// Every scheduler with its parameters and defaults, in the order `ordo schedulers`
        /// lists them.
        pub fn catalogue() -> Vec<SchedulerInfo> {
            vec![info::<AutoConfig>(), $(info::<$cfg>(),)*]
        }

        impl SchedulerConfig {
            fn parse_known(name: &str, params: &[(String, String)]) -> Option<Result<Self, ConfigError>> {
                if name == AutoConfig::NAME {
                    return Some(AutoConfig::from_params(params).map(SchedulerConfig::Auto));
                }
                $(if name == <$cfg as Config>::NAME {
                    return Some(<$cfg>::from_params(params).map(SchedulerConfig::$variant));
                })*
                None
            }

            pub fn name(&self) -> &'static str {
                match self {
                    SchedulerConfig::Auto(_) => AutoConfig::NAME,
                    $(SchedulerConfig::$variant(_) => <$cfg as Config>::NAME,)*
                }
            }

            /// The current parameter values.
            pub fn params(&self) -> Vec<ParamInfo> {
                match self {
                    SchedulerConfig::Auto(c) => c.describe(),
                    $(SchedulerConfig::$variant(c) => c.describe(),)*
                }
            }

            /// Sets one parameter.
            pub fn set(&mut self, key: &str, value: &str) -> Result<(), ConfigError> {
                match self {
                    SchedulerConfig::Auto(c) => c.set(key, value),
                    $(SchedulerConfig::$variant(c) => c.set(key, value),)*
                }
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
                    SchedulerConfig::Auto(a) => {
                        return SchedulerConfig::from(a.resolve()).with(workers, topo, visitor)
                    }
                    $(SchedulerConfig::$variant($c) => {
                        let ($w, $t) = (workers, topo);
                        visitor.visit(&$build)
                    })*
                })
            }
        }
    };
}

schedulers! {
    Obim(ObimConfig) => |c, w, t| Obim::new(c, w, t);
    Pmod(PmodConfig) => |c, w, t| pmod::new(c, w, t);
    Smq(SmqConfig) => |c, w, t| Smq::new(c, w, t);
    Mq(MqConfig) => |c, w, t| Mq::new(c, w, t);
    Reld(ReldConfig) => |c, w, _t| reld::new(c, w);
    Spraylist(SprayListConfig) => |c, w, _t| SprayList::new(c, w);
    Heap(HeapConfig) => |c, w, _t| Heap::new(c, w);
    Sheap(SheapConfig) => |c, w, _t| sheap::new(c, w);
    Pheap(PheapConfig) => |c, w, _t| pheap::new(c, w);
    Serial(SerialConfig) => |c, w, _t| Serial::new(c, w)?;
    Fifo(FifoConfig) => |c, w, t| Unordered::fifo(c, w, t);
    Lifo(LifoConfig) => |c, w, t| Unordered::lifo(c, w, t);
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

/// The names accepted by [`SchedulerConfig::parse`].
pub fn names() -> Vec<&'static str> {
    catalogue().iter().map(|i| i.name).collect()
}

impl SchedulerConfig {
    /// Builds the configuration of scheduler `name` from `key=value` parameters.
    pub fn parse(name: &str, params: &[(String, String)]) -> Result<Self, ConfigError> {
        Self::parse_known(name, params).unwrap_or_else(|| {
            Err(ConfigError::UnknownScheduler {
                name: name.to_string(),
                valid: names().join(", "),
            })
        })
    }

    /// Sets `delta` to an application's estimate when the scheduler takes one and the user's
    /// `params` did not set it.
    pub fn hint_delta(
        &mut self,
        delta: u32,
        params: &[(String, String)],
    ) -> Result<(), ConfigError> {
        if self.has_param("delta") && !params.iter().any(|(k, _)| k == "delta") {
            self.set("delta", &delta.to_string())?;
        }
        Ok(())
    }

    /// The priority shift the scheduler uses: its `delta` parameter (`None` for schedulers
    /// without one).
    pub fn delta(&self) -> Option<u32> {
        self.params()
            .into_iter()
            .find(|p| p.key == "delta")
            .and_then(|p| p.default.parse().ok())
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

    /// `name` followed by its non-default parameters, e.g. `obim(delta=10)`; for `auto`, what
    /// it resolved to, e.g. `auto:obim(delta=13)`.
    pub fn label(&self) -> String {
        if let SchedulerConfig::Auto(a) = self {
            return format!("auto:{}", SchedulerConfig::from(a.resolve()).label());
        }
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

impl From<AutoChoice> for SchedulerConfig {
    fn from(c: AutoChoice) -> SchedulerConfig {
        match c {
            AutoChoice::Obim(o) => SchedulerConfig::Obim(o),
            AutoChoice::Pmod(p) => SchedulerConfig::Pmod(p),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn auto_resolves_to_obim_with_a_delta_else_pmod() {
        let mut c = SchedulerConfig::parse("auto", &[]).unwrap();
        assert_eq!(c.label(), "auto:pmod");
        c.set("delta", "13").unwrap();
        assert_eq!(c.label(), "auto:obim(delta=13)");
        c.set("chunk", "32").unwrap();
        assert_eq!(c.label(), "auto:obim(chunk=32,delta=13)");
        c.set("delta", "app").unwrap();
        assert_eq!(c.label(), "auto:pmod(chunk=32)");
        assert!(c.set("delta", "99").is_err());
    }

    #[test]
    fn parses_names_and_params_with_clear_errors() {
        let c = SchedulerConfig::parse("obim", &[("delta".into(), "10".into())]).unwrap();
        assert_eq!(c.label(), "obim(delta=10)");
        let e = SchedulerConfig::parse("nope", &[]).unwrap_err().to_string();
        assert!(
            e.contains("valid schedulers: auto, obim, pmod, smq, mq, reld, spraylist, heap, sheap, pheap, serial, fifo, lifo"),
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
