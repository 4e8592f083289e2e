//! Ctrl-C: the first one stops the running application at its next task and lets the command
//! print the partial report (or, while a run of `--repeat` is checked, stops before the next
//! run); outside the runs (loading, writing) or on a second Ctrl-C the process exits at once
//! with status 130.
//!
//! The handler only does what a signal handler may: atomic loads and stores, `write(2)` and
//! `_exit(2)`. The cancel flag is the executor's own (`ExecConfig::cancel`), polled by every
//! worker between tasks, so the run ends within one task's time per worker.

// SeqCst throughout: these are touched a few times per process (never per task; the workers
// poll the flag with their own Relaxed loads), and one total order keeps the handler's
// "armed and first" test simple to argue.
use std::sync::atomic::{AtomicBool, Ordering::SeqCst};
use std::sync::{Arc, OnceLock};

/// The executor's cancel flag, shared by every run of this process.
static CANCEL: OnceLock<Arc<AtomicBool>> = OnceLock::new();
/// True while an application runs: only then can Ctrl-C stop gracefully.
static ARMED: AtomicBool = AtomicBool::new(false);

/// The exit status of a process stopped by SIGINT, as shells report it.
pub const EXIT_INTERRUPTED: i32 = 130;

/// Installs the SIGINT handler (once) and returns the flag runs must poll.
pub fn cancel_flag() -> Arc<AtomicBool> {
    CANCEL
        .get_or_init(|| {
            install();
            Arc::new(AtomicBool::new(false))
        })
        .clone()
}

/// Whether Ctrl-C has asked the runs to stop.
pub fn requested() -> bool {
    CANCEL.get().is_some_and(|c| c.load(SeqCst))
}

/// Marks an application run in progress for as long as the guard lives.
pub struct Armed(());

impl Armed {
    pub fn new() -> Self {
        ARMED.store(true, SeqCst);
        Armed(())
    }
}

impl Drop for Armed {
    fn drop(&mut self) {
        ARMED.store(false, SeqCst);
    }
}

fn install() {
    // SAFETY: `on_sigint` is async-signal-safe (see the module comment); the sigaction struct
    // is fully initialised before the call.
    unsafe {
        let mut action: libc::sigaction = std::mem::zeroed();
        action.sa_sigaction = on_sigint as *const () as libc::sighandler_t;
        action.sa_flags = libc::SA_RESTART;
        libc::sigemptyset(&mut action.sa_mask);
        libc::sigaction(libc::SIGINT, &action, std::ptr::null_mut());
    }
}

extern "C" fn on_sigint(_: libc::c_int) {
    let first = CANCEL
        .get()
        .is_some_and(|c| !c.swap(true, SeqCst) && ARMED.load(SeqCst));
    if first {
        say(b"\nordo: interrupted: stopping the run (Ctrl-C again to quit at once)\n");
    } else {
        say(b"\nordo: interrupted\n");
        // SAFETY: _exit is async-signal-safe and ends the process without running Rust code.
        unsafe { libc::_exit(EXIT_INTERRUPTED) };
    }
}

fn say(msg: &[u8]) {
    // SAFETY: write(2) on stderr with a valid buffer; a failed write is ignored.
    unsafe {
        libc::write(2, msg.as_ptr().cast(), msg.len());
    }
}
