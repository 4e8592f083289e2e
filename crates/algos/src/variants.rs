//! The methods (`--algo`) each application offers, and how `auto` picks one.
//!
//! Every application has its priority-scheduled version (`priority`, what the papers measure,
//! run on the scheduler the user names). Some also have a method on the frontier executor that
//! is the fastest known for the problem. `auto` runs the fastest one unless the run asks for
//! a scheduler (a scheduler other than `auto`, a scheduler parameter, or a scheduler probe):
//! then the scheduled version, since that is what the request is about.

/// One method of an application.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Variant {
    /// The `--algo` value.
    pub name: &'static str,
    /// One line for `--help`.
    pub about: &'static str,
    /// Runs on a priority scheduler (otherwise on the frontier executor, which has none).
    pub scheduled: bool,
}

/// An application's methods; the first is what `auto` picks without a scheduler request.
#[derive(Debug, Clone, Copy)]
pub struct Variants {
    pub app: &'static str,
    pub list: &'static [Variant],
}

const PRIORITY: Variant = Variant {
    name: "priority",
    about: "the priority-scheduled version (seed 000), on --scheduler",
    scheduled: true,
};

/// `ordo sssp`.
pub const SSSP: Variants = Variants {
    app: "sssp",
    list: &[
        Variant {
            name: "delta-stepping",
            about: "delta-stepping with per-worker bins and bucket fusion (GAPBS; Zhang et al., CGO 2020) on the frontier executor",
            scheduled: false,
        },
        Variant {
            name: "priority",
            about: "prioritized relaxation (seed 000), on --scheduler: Dijkstra-like on an exact queue, delta-stepping-like on obim",
            scheduled: true,
        },
    ],
};

/// `ordo astar`.
pub const ASTAR: Variants = Variants {
    app: "astar",
    list: &[
        Variant {
            name: "delta-stepping",
            about: "delta-stepping on distance + estimate with pruning at the target's distance, on the frontier executor",
            scheduled: false,
        },
        Variant {
            name: "priority",
            about: "prioritized relaxation by distance + estimate (seed 000), on --scheduler",
            scheduled: true,
        },
    ],
};

/// `ordo bfs`.
pub const BFS: Variants = Variants {
    app: "bfs",
    list: &[
        Variant {
            name: "direction",
            about: "direction-optimizing BFS (Beamer et al., SC 2012) on the frontier executor",
            scheduled: false,
        },
        PRIORITY,
    ],
};

/// `ordo cc`.
pub const CC: Variants = Variants {
    app: "cc",
    list: &[
        Variant {
            name: "afforest",
            about: "Afforest (Sutton et al., IPDPS 2018): sampled linking, union-find, on the frontier executor",
            scheduled: false,
        },
        PRIORITY,
    ],
};

/// `ordo pagerank`.
pub const PAGERANK: Variants = Variants {
    app: "pagerank",
    list: &[
        Variant {
            name: "pull",
            about: "Gauss-Seidel pull sweeps over in-edges until a sweep's L1 change < n x tolerance, on the frontier executor",
            scheduled: false,
        },
        Variant {
            name: "pull-jacobi",
            about: "as pull, with Jacobi iterations (every score from the previous iteration's)",
            scheduled: false,
        },
        Variant {
            name: "priority",
            about: "residual pushing by priority (seed 000's PR and PR-D, --priority), on --scheduler",
            scheduled: true,
        },
    ],
};

/// `ordo kcore`.
pub const KCORE: Variants = Variants {
    app: "kcore",
    list: &[
        Variant {
            name: "peel",
            about: "bucketed peeling by levels (Julienne, SPAA 2017; PKC) on the frontier executor",
            scheduled: false,
        },
        Variant {
            name: "priority",
            about:
                "asynchronous h-index updates by priority (lowest estimate first), on --scheduler",
            scheduled: true,
        },
    ],
};

/// `ordo mst`.
pub const MST: Variants = Variants {
    app: "mst",
    list: &[
        Variant {
            name: "boruvka",
            about: "parallel Boruvka rounds with edge filtering and union-find hooking, on the frontier executor",
            scheduled: false,
        },
        Variant {
            name: "priority",
            about: "Boruvka with merging by priority (seed 000: smallest component first), on --scheduler",
            scheduled: true,
        },
    ],
};

/// Every application with more than one method.
pub const ALL: &[Variants] = &[SSSP, ASTAR, BFS, CC, PAGERANK, KCORE, MST];

/// The methods of the application `app`, if it has several.
pub fn of(app: &str) -> Option<&'static Variants> {
    ALL.iter().find(|v| v.app == app)
}

/// Why an `--algo` request cannot run.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum VariantError {
    #[error("{app} has no method '{asked}': choose from {choices}")]
    Unknown {
        app: &'static str,
        asked: String,
        choices: String,
    },
    #[error("--algo {algo} runs on the frontier executor, without a priority scheduler: {what} applies to --algo priority")]
    NoScheduler { algo: &'static str, what: String },
}

impl Variants {
    /// `auto` and every method's name, for argument parsers.
    pub fn names(&self) -> Vec<&'static str> {
        std::iter::once("auto")
            .chain(self.list.iter().map(|v| v.name))
            .collect()
    }

    /// The `--help` text listing the methods.
    pub fn help(&self) -> String {
        let mut s = String::from("Method: auto (the fastest, unless a scheduler is asked for)");
        for v in self.list {
            s += &format!("; {} ({})", v.name, v.about);
        }
        s
    }

    /// The method to run for `--algo asked`. `scheduler_request` names what in the run asks
    /// for a priority scheduler (e.g. `"--scheduler obim"`), if anything does.
    pub fn resolve(
        &self,
        asked: &str,
        scheduler_request: Option<&str>,
    ) -> Result<&'static Variant, VariantError> {
        let by_name = |name: &str| self.list.iter().find(|v| v.name == name);
        match (asked, scheduler_request) {
            ("auto", None) => Ok(&self.list[0]),
            ("auto", Some(_)) => Ok(self
                .list
                .iter()
                .find(|v| v.scheduled)
                .expect("every app has a scheduled version")),
            (name, request) => match (by_name(name), request) {
                (None, _) => Err(VariantError::Unknown {
                    app: self.app,
                    asked: name.to_string(),
                    choices: self.names().join(", "),
                }),
                (Some(v), Some(what)) if !v.scheduled => Err(VariantError::NoScheduler {
                    algo: v.name,
                    what: what.to_string(),
                }),
                (Some(v), _) => Ok(v),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn auto_picks_the_fastest_unless_a_scheduler_is_asked_for() {
        assert_eq!(BFS.resolve("auto", None).unwrap().name, "direction");
        let asked = Some("--scheduler obim");
        assert_eq!(BFS.resolve("auto", asked).unwrap().name, "priority");
        assert_eq!(CC.resolve("priority", None).unwrap().name, "priority");
        assert!(matches!(
            CC.resolve("afforest", asked),
            Err(VariantError::NoScheduler { .. })
        ));
        let e = BFS.resolve("dfs", None).unwrap_err().to_string();
        assert!(e.contains("auto, direction, priority"), "{e}");
    }
}
