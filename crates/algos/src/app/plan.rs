//! The run protocol, written once: a [`Plan`] is an application's graph prepared for the
//! method a request chose, with the scheduler and executor configured. The command line,
//! `ordo simulate`, Python and the registry tests all run applications through it, and only
//! parse their input, print and convert.

use super::{Answer, App, AppError, AppSpec, PerNode, Prepared, Reported, RunContext, Source};
use super::{RunRequest, SpecError, Values};
use crate::variants::Variant;
use crate::VerifyError;
use ordo_exec::{ExecConfig, RunReport};
use ordo_graph::Graph;
use ordo_sched::SchedulerConfig;
use std::time::Instant;

/// One application's run, planned: steps 1 and 2 of the protocol done (module docs of
/// [`crate::app`]), ready to run, verify and report.
pub struct Plan<A: App> {
    prepared: Prepared<A::Setup>,
    method: &'static Variant,
    /// The scheduler, for a scheduled method.
    sched: Option<SchedulerConfig>,
    exec: ExecConfig,
}

impl<A: App> Plan<A> {
    /// The method the request names, from its thread count alone. Front ends call it before
    /// they load the graph, so that a bad request fails before a long load.
    pub fn choose_method(request: &RunRequest) -> Result<&'static Variant, AppError> {
        let threads = request.threads(None);
        A::SPEC.method(&request.algo, request.asks_scheduler.as_deref(), threads)
    }

    /// Chooses the method, prepares the graph from `source` for it, lets `auto` look at the
    /// graph ([`App::auto_for_graph`]), and configures the scheduler (for a scheduled method,
    /// with the application's bucket width) and the executor. `notes` collects what the user
    /// should hear, also when preparing fails.
    pub fn new(
        source: &mut dyn Source,
        values: &Values,
        request: &RunRequest,
        notes: &mut Vec<String>,
    ) -> Result<Plan<A>, AppError> {
        let method = Self::choose_method(request)?;
        let prepared = A::prepare(source, values, method, notes)?;
        let method = match request.algo.as_str() {
            "auto" => A::auto_for_graph(&prepared, method, request.threads(None)),
            _ => method,
        };
        if !method.scheduled {
            let exec = request.exec(None)?;
            return Ok(Plan {
                prepared,
                method,
                sched: None,
                exec,
            });
        }
        let (mut sched, mut exec) = request.scheduled(A::delta_hint(&prepared))?;
        let given_delta = values.given("delta").then(|| values.int("delta")).flatten();
        if let (true, Some(delta)) = (request.strict_delta, given_delta) {
            if !sched.has_param("delta") {
                return Err(SpecError::NoDelta(sched.name().to_string()).into());
            }
            sched.set("delta", &delta.to_string())?;
        }
        if request.probes.breakdown {
            // Untimed: the probes tell good work from useless work by the final labels.
            let expected = A::oracle(&prepared);
            exec.probes.oracle = A::oracle_labels(&prepared, &expected).map(Into::into);
        }
        Ok(Plan {
            prepared,
            method,
            sched: Some(sched),
            exec,
        })
    }

    pub fn spec(&self) -> &'static AppSpec {
        &A::SPEC
    }

    /// The method that runs.
    pub fn method(&self) -> &'static Variant {
        self.method
    }

    /// The scheduler, for a scheduled method.
    pub fn sched(&self) -> Option<&SchedulerConfig> {
        self.sched.as_ref()
    }

    pub fn exec(&self) -> &ExecConfig {
        &self.exec
    }

    /// The graph the answer is about (its nodes are the file's, in the file's numbering).
    pub fn graph(&self) -> &Graph {
        &self.prepared.graph
    }

    /// What ran: the scheduler's label, or the method and where it ran.
    pub fn label(&self) -> String {
        match &self.sched {
            Some(s) => s.label(),
            None => self.method.unscheduled_label(),
        }
    }

    /// The scheduler for the request `other` (another scheduler on the same graph, such as
    /// `ordo simulate`'s serial baseline), with the application's bucket width.
    pub fn scheduler_for(&self, other: &RunRequest) -> Result<SchedulerConfig, AppError> {
        Ok(other.scheduler(A::delta_hint(&self.prepared))?)
    }

    /// One run as planned.
    pub fn run(&self) -> Result<A::Output, AppError> {
        A::run(&self.prepared, self.method, self.sched.as_ref(), &self.exec)
    }

    /// One run of the planned method on another scheduler and executor (`ordo simulate`).
    pub fn run_on(
        &self,
        sched: Option<&SchedulerConfig>,
        exec: &ExecConfig,
    ) -> Result<A::Output, AppError> {
        A::run(&self.prepared, self.method, sched, exec)
    }

    pub fn report<'o>(&self, out: &'o A::Output) -> &'o RunReport {
        out.report()
    }

    /// The serial oracle's answer, untimed.
    pub fn oracle(&self) -> A::Expected {
        A::oracle(&self.prepared)
    }

    pub fn verify(&self, expected: &A::Expected, out: &A::Output) -> Result<(), VerifyError> {
        A::verify(&self.prepared, expected, out)
    }

    /// Checks `out` against the oracle's answer, computing (and timing) it on first use.
    pub fn check(
        &self,
        oracle: &mut Oracle<A::Expected>,
        out: &A::Output,
    ) -> Result<(), VerifyError> {
        let expected = oracle.expected.get_or_insert_with(|| {
            let start = Instant::now();
            let e = A::oracle(&self.prepared);
            oracle.seconds = start.elapsed().as_secs_f64();
            e
        });
        A::verify(&self.prepared, expected, out)
    }

    /// The `--out` column, where the application has one.
    pub fn per_node<'a>(&'a self, out: &'a A::Output) -> Option<PerNode<'a>> {
        A::per_node(&self.prepared, out)
    }

    pub fn answer(&self, out: A::Output) -> Answer {
        A::answer(&self.prepared, out)
    }

    /// The application's named figures for `out`, a run of `median_s` seconds (the median of
    /// `--repeat`), with the oracle's answer where the run was verified.
    pub fn summary(
        &self,
        out: &A::Output,
        expected: Option<&A::Expected>,
        median_s: f64,
    ) -> serde_json::Value {
        let ctx = RunContext {
            method: self.method,
            sched: self.sched.as_ref(),
            median_s,
        };
        A::summary(&self.prepared, out, expected, &ctx)
    }
}

/// The serial oracle's answer, computed the first time a run is checked ([`Plan::check`]),
/// and the seconds it took: the baseline every parallel time is compared with.
pub struct Oracle<E> {
    expected: Option<E>,
    seconds: f64,
}

impl<E> Default for Oracle<E> {
    fn default() -> Self {
        Oracle {
            expected: None,
            seconds: 0.0,
        }
    }
}

impl<E> Oracle<E> {
    /// The answer, once a run was checked.
    pub fn expected(&self) -> Option<&E> {
        self.expected.as_ref()
    }

    /// Seconds the oracle took, once a run was checked.
    pub fn seconds(&self) -> Option<f64> {
        self.expected.as_ref().map(|_| self.seconds)
    }
}
