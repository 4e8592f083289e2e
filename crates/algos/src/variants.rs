//! The methods (`--algo`) an application offers, and how `auto` picks one. Each
//! application declares its own in its `app.rs` ([`crate::app`]).
//!
//! Most applications have a priority-scheduled version (`priority`, what the papers measure,
//! run on the scheduler the user names). Some also have a method on the frontier executor that
//! is the fastest known for the problem. `auto` runs the fastest one unless the run asks for
//! a scheduler (a scheduler other than `auto`, a scheduler parameter, or a scheduler probe):
//! then the scheduled version, since that is what the request is about. Where a serial
//! method beats the parallel one on few threads (MST's filter-Kruskal on up to two), `auto`
//! on that many runs the serial one.

/// A method an application can run, by what it is rather than by name: applications choose
/// their code by matching on it, and `--algo` takes its [`Method::name`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// The priority-scheduled version, on the scheduler the run names (what the papers
    /// measure).
    Priority,
    DeltaStepping,
    /// Direction-optimizing levels: top-down pushes, bottom-up pulls over in-edges.
    Direction,
    /// Every level pushes.
    Push,
    Afforest,
    Peel,
    /// A serial algorithm on the calling thread.
    Serial,
    Boruvka,
    FilterKruskal,
    /// Gauss-Seidel pull sweeps.
    Pull,
    /// Jacobi pull iterations.
    PullJacobi,
    /// Chunks of nodes handed out without a scheduler.
    Loop,
}

impl Method {
    /// The `--algo` value.
    pub const fn name(self) -> &'static str {
        match self {
            Method::Priority => "priority",
            Method::DeltaStepping => "delta-stepping",
            Method::Direction => "direction",
            Method::Push => "push",
            Method::Afforest => "afforest",
            Method::Peel => "peel",
            Method::Serial => "serial",
            Method::Boruvka => "boruvka",
            Method::FilterKruskal => "filter-kruskal",
            Method::Pull => "pull",
            Method::PullJacobi => "pull-jacobi",
            Method::Loop => "loop",
        }
    }
}

/// One method of an application, as it declares it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Variant {
    pub method: Method,
    /// One line for `--help`.
    pub about: &'static str,
    /// Runs on a priority scheduler (otherwise on the frontier executor, which has none).
    pub scheduled: bool,
    /// Runs on the calling thread alone, whatever the thread count.
    pub serial: bool,
}

impl Variant {
    /// The `--algo` value.
    pub const fn name(&self) -> &'static str {
        self.method.name()
    }

    /// What ran, for reports of a method without a scheduler: the method and where it ran.
    pub fn unscheduled_label(&self) -> String {
        match self.serial {
            true => format!("{} (one thread)", self.name()),
            false => format!("{} (frontier executor)", self.name()),
        }
    }
}

/// An application's methods; the first is what `auto` picks without a scheduler request.
#[derive(Debug, Clone, Copy)]
pub struct Variants {
    pub app: &'static str,
    /// What `auto` picks instead of the first on few threads, if anything: a serial method
    /// that beats the parallel one there.
    pub few_threads: Option<FewThreads>,
    pub list: &'static [Variant],
}

/// A method `auto` runs on at most `up_to` threads.
#[derive(Debug, Clone, Copy)]
pub struct FewThreads {
    pub method: Method,
    pub up_to: usize,
}

/// The priority-scheduled version, as most applications name it.
pub(crate) const PRIORITY: Variant = Variant {
    method: Method::Priority,
    about: "the priority-scheduled version, on --scheduler",
    scheduled: true,
    serial: false,
};

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
            .chain(self.list.iter().map(|v| v.name()))
            .collect()
    }

    /// The `--help` text listing the methods.
    pub fn help(&self) -> String {
        let mut s = String::from("Method: auto (the fastest, unless a scheduler is asked for");
        if let Some(few) = self.few_threads {
            s += &format!(
                "; {} on up to {} threads, {} on more",
                few.method.name(),
                few.up_to,
                self.list[0].name()
            );
        }
        s += ")";
        for v in self.list {
            s += &format!("; {} ({})", v.name(), v.about);
        }
        s
    }

    /// The method called `name`, if the application has one.
    pub fn named(&self, name: &str) -> Option<&'static Variant> {
        self.list.iter().find(|v| v.name() == name)
    }

    /// The application's declaration of `method`, if it offers it.
    pub fn of(&self, method: Method) -> Option<&'static Variant> {
        self.list.iter().find(|v| v.method == method)
    }

    /// The priority-scheduled method, if the application has one.
    pub fn scheduled(&self) -> Option<&'static Variant> {
        self.list.iter().find(|v| v.scheduled)
    }

    /// The method to run for `--algo asked` on `threads` workers. `scheduler_request` names
    /// what in the run asks for a priority scheduler (e.g. `"--scheduler obim"`), if
    /// anything does.
    pub fn resolve(
        &self,
        asked: &str,
        scheduler_request: Option<&str>,
        threads: usize,
    ) -> Result<&'static Variant, VariantError> {
        match (asked, scheduler_request) {
            ("auto", None) => Ok(self
                .few_threads
                .filter(|few| threads <= few.up_to)
                .and_then(|few| self.of(few.method))
                .unwrap_or(&self.list[0])),
            ("auto", Some(_)) => Ok(self.scheduled().expect("every app has a scheduled version")),
            (name, request) => match (self.named(name), request) {
                (None, _) => Err(VariantError::Unknown {
                    app: self.app,
                    asked: name.to_string(),
                    choices: self.names().join(", "),
                }),
                (Some(v), Some(what)) if !v.scheduled => Err(VariantError::NoScheduler {
                    algo: v.name(),
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
    use crate::bfs::app::VARIANTS as BFS;
    use crate::cc::app::VARIANTS as CC;
    use crate::mst::app::VARIANTS as MST;

    #[test]
    fn auto_picks_the_fastest_unless_a_scheduler_is_asked_for() {
        assert_eq!(BFS.resolve("auto", None, 2).unwrap().name(), "direction");
        let asked = Some("--scheduler obim");
        assert_eq!(BFS.resolve("auto", asked, 2).unwrap().name(), "priority");
        assert_eq!(CC.resolve("priority", None, 2).unwrap().name(), "priority");
        assert!(matches!(
            CC.resolve("afforest", asked, 2),
            Err(VariantError::NoScheduler { .. })
        ));
        let e = BFS.resolve("dfs", None, 2).unwrap_err().to_string();
        assert!(e.contains("auto, direction, priority"), "{e}");
    }

    #[test]
    fn auto_on_few_threads_picks_the_serial_method_where_there_is_one() {
        assert_eq!(
            MST.resolve("auto", None, 1).unwrap().name(),
            "filter-kruskal"
        );
        assert_eq!(MST.resolve("boruvka", None, 1).unwrap().name(), "boruvka");
        let asked = Some("--scheduler obim");
        assert_eq!(MST.resolve("auto", asked, 1).unwrap().name(), "priority");
        assert_eq!(BFS.resolve("auto", None, 1).unwrap().name(), "direction");
        assert_eq!(
            MST.resolve("auto", None, 2).unwrap().name(),
            "filter-kruskal"
        );
        assert_eq!(MST.resolve("auto", None, 3).unwrap().name(), "boruvka");
        assert!(MST
            .help()
            .contains("filter-kruskal on up to 2 threads, boruvka on more"));
    }
}
