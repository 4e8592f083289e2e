//! When an unlinked skip-list node may be freed.
//!
//! Normally this is epoch-based reclamation from `crossbeam-epoch`: every list operation runs
//! pinned, and a node retired while some thread is pinned is freed only after that thread
//! unpins. Under `--cfg loom` the model checker cannot see crossbeam's atomics, so retired nodes
//! are instead kept until the list is dropped: loom then checks the linking protocol (which
//! nodes are reachable when) and crossbeam's own loom tests cover its epochs.

#[cfg(not(loom))]
mod imp {
    use std::marker::PhantomData;

    /// One reclamation domain per skip list.
    pub struct Domain(crossbeam_epoch::Collector);

    /// A worker's registration with the domain.
    pub struct Local(crossbeam_epoch::LocalHandle);

    /// Proof that the current thread is pinned: nodes it reached stay allocated.
    pub struct Pin<'d>(crossbeam_epoch::Guard, PhantomData<&'d Domain>);

    impl Domain {
        pub fn new() -> Self {
            Domain(crossbeam_epoch::Collector::new())
        }

        pub fn register(&self) -> Local {
            Local(self.0.register())
        }

        /// Pins the thread that owns `local`, which must be registered with this domain.
        #[inline]
        pub fn pin(&self, local: &Local) -> Pin<'_> {
            debug_assert!(local.0.collector() == &self.0);
            Pin(local.0.pin(), PhantomData)
        }
    }

    impl Pin<'_> {
        /// Frees `node` once no thread pinned now can still reach it.
        ///
        /// # Safety
        /// `node` came from `Box::into_raw`, is unreachable for threads that pin from now on,
        /// and is retired once.
        pub unsafe fn retire<N>(&self, node: *mut N) {
            // SAFETY: the closure runs once, after every thread pinned now has unpinned
            // (crossbeam's guarantee), by which time nobody holds `node` (the caller's).
            unsafe { self.0.defer_unchecked(move || drop(Box::from_raw(node))) }
        }
    }
}

#[cfg(loom)]
mod imp {
    use std::sync::Mutex;

    type Free = (usize, unsafe fn(usize));

    /// Under loom: retired nodes wait in a list that is freed when the domain is dropped.
    pub struct Domain(Mutex<Vec<Free>>);

    pub struct Local;

    pub struct Pin<'d>(&'d Domain);

    impl Domain {
        pub fn new() -> Self {
            Domain(Mutex::new(Vec::new()))
        }

        pub fn register(&self) -> Local {
            Local
        }

        pub fn pin(&self, _local: &Local) -> Pin<'_> {
            Pin(self)
        }
    }

    impl Pin<'_> {
        /// # Safety
        /// As in the epoch build: `node` came from `Box::into_raw` and is retired once.
        pub unsafe fn retire<N>(&self, node: *mut N) {
            unsafe fn free<N>(p: usize) {
                // SAFETY: `p` came from `Box::into_raw::<N>` (see `retire`).
                drop(unsafe { Box::from_raw(p as *mut N) });
            }
            let mut g = self.0 .0.lock().unwrap_or_else(|e| e.into_inner());
            g.push((node as usize, free::<N>));
        }
    }

    impl Drop for Domain {
        fn drop(&mut self) {
            let g = self.0.get_mut().unwrap_or_else(|e| e.into_inner());
            for (p, free) in g.drain(..) {
                // SAFETY: each pointer was retired once (see `retire`).
                unsafe { free(p) }
            }
        }
    }
}

pub(crate) use imp::{Domain, Local, Pin};
