//! Pinning worker threads to CPUs.

/// Pins the calling thread to OS CPU `cpu`; false if the OS refused.
#[cfg(target_os = "linux")]
pub fn pin_current_thread(cpu: usize) -> bool {
    // SAFETY: `set` is a properly initialized cpu_set_t on our stack; sched_setaffinity(0, ..)
    // only affects the calling thread.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        if cpu >= libc::CPU_SETSIZE as usize {
            return false;
        }
        libc::CPU_SET(cpu, &mut set);
        libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set) == 0
    }
}

#[cfg(not(target_os = "linux"))]
pub fn pin_current_thread(_cpu: usize) -> bool {
    false
}

/// True if the calling thread may run on OS CPU `cpu` (its affinity holds it).
pub fn may_run_on(cpu: usize) -> bool {
    SavedAffinity::of_current_thread().is_some_and(|a| a.holds(cpu))
}

/// A thread's CPU affinity as it was, to undo a pin (a pool thread that a pinned run used and
/// an unpinned one reuses).
#[cfg(target_os = "linux")]
pub struct SavedAffinity(libc::cpu_set_t);

#[cfg(target_os = "linux")]
impl SavedAffinity {
    /// The calling thread's affinity; `None` if the OS does not say.
    pub fn of_current_thread() -> Option<Self> {
        // SAFETY: `set` is a zeroed cpu_set_t on our stack, which sched_getaffinity(0, ..)
        // fills for the calling thread.
        unsafe {
            let mut set: libc::cpu_set_t = std::mem::zeroed();
            let ok = libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set);
            (ok == 0).then_some(SavedAffinity(set))
        }
    }

    /// True if this affinity holds OS CPU `cpu`.
    pub fn holds(&self, cpu: usize) -> bool {
        // SAFETY: CPU_ISSET reads the set, a valid cpu_set_t, at an index below CPU_SETSIZE.
        cpu < libc::CPU_SETSIZE as usize && unsafe { libc::CPU_ISSET(cpu, &self.0) }
    }

    /// Gives the calling thread this affinity again; false if the OS refused.
    pub fn restore(&self) -> bool {
        // SAFETY: as in `pin_current_thread`: a valid cpu_set_t, the calling thread only.
        unsafe { libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &self.0) == 0 }
    }
}

#[cfg(not(target_os = "linux"))]
pub struct SavedAffinity;

#[cfg(not(target_os = "linux"))]
impl SavedAffinity {
    pub fn of_current_thread() -> Option<Self> {
        None
    }

    pub fn holds(&self, _cpu: usize) -> bool {
        false
    }

    pub fn restore(&self) -> bool {
        false
    }
}
