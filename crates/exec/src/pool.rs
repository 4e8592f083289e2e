//! The worker pool every parallel run uses: scoped threads, worker `w` pinned to the
//! topology's `w`-th CPU, a panic in one worker caught, the others told, and reported once.

use crate::config::ExecConfig;
use crate::error::{ExecError, FirstPanic};
use crate::pin::pin_current_thread;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::{Duration, Instant};

/// Runs `work(w, input)` for each worker `w` and its input, one thread each, and returns the
/// results in worker order with the wall time from before the first spawn to the last join.
///
/// Worker `w` runs on the topology's `w`-th CPU when `cfg.pin` and there are enough CPUs. A
/// worker that panics calls `on_panic` (which must make the others stop, or a barrier wait
/// forever) and leaves `R::default()`; the first panic is returned as
/// [`ExecError::OperatorPanicked`].
pub fn run_workers<D, R, W, P>(
    cfg: &ExecConfig,
    inputs: Vec<D>,
    work: W,
    on_panic: P,
) -> Result<(Vec<R>, Duration), ExecError>
where
    D: Send,
    R: Send + Default,
    W: Fn(usize, D) -> R + Sync,
    P: Fn() + Sync,
{
    let pin = cfg.pin && inputs.len() <= cfg.topology.num_cpus();
    let failure = FirstPanic::default();
    let start = Instant::now();
    let results: Vec<R> = std::thread::scope(|scope| {
        let workers: Vec<_> = inputs
            .into_iter()
            .enumerate()
            .map(|(w, input)| {
                let (work, on_panic, failure) = (&work, &on_panic, &failure);
                let cpu = cfg.topology.cpu_of(w).os_id;
                scope.spawn(move || {
                    if let (true, Some(cpu)) = (pin, cpu) {
                        pin_current_thread(cpu);
                    }
                    match catch_unwind(AssertUnwindSafe(|| work(w, input))) {
                        Ok(r) => r,
                        Err(payload) => {
                            on_panic();
                            failure.record(w, payload.as_ref());
                            R::default()
                        }
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|h| h.join().unwrap_or_default())
            .collect()
    });
    let time = start.elapsed();
    failure.into_result()?;
    Ok((results, time))
}
