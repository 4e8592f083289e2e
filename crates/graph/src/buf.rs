//! `Buf<T>`: an immutable slice that either owns its memory or shares a larger buffer's, so
//! the CSR arrays of a graph loaded from ordo's binary format are used in place in the
//! file's bytes.

use std::any::Any;
use std::fmt;
use std::ops::Deref;
use std::sync::Arc;

/// Plain-old-data element types that can be viewed directly in a file's bytes.
///
/// # Safety
/// Every bit pattern must be a valid value and the type must have no padding.
pub unsafe trait Pod: Copy + Send + Sync + 'static {}
// SAFETY: integers and floats accept every bit pattern and have no padding.
unsafe impl Pod for u32 {}
// SAFETY: as above.
unsafe impl Pod for u64 {}
// SAFETY: as above.
unsafe impl Pod for f64 {}

pub struct Buf<T: Pod> {
    ptr: *const T,
    len: usize,
    /// Keeps the memory behind `ptr` alive; never read.
    _owner: Arc<dyn Any + Send + Sync>,
}

// SAFETY: `Buf` is an immutable view of `T: Sync` data whose owner is `Send + Sync`.
unsafe impl<T: Pod> Send for Buf<T> {}
// SAFETY: as above; no interior mutability.
unsafe impl<T: Pod> Sync for Buf<T> {}

impl<T: Pod> Buf<T> {
    pub fn from_vec(v: Vec<T>) -> Self {
        let ptr = v.as_ptr();
        let len = v.len();
        // Moving the Vec into the Arc does not move its heap allocation, so `ptr` stays valid.
        Buf {
            ptr,
            len,
            _owner: Arc::new(v),
        }
    }

    /// A view of `len` elements at byte `offset` of `owner`'s bytes.
    ///
    /// # Safety
    /// `bytes` must stay valid and unchanged while `owner` lives, and `offset` must be aligned
    /// for `T` and leave room for `len` elements.
    pub(crate) unsafe fn from_owner(
        owner: Arc<dyn Any + Send + Sync>,
        bytes: &[u8],
        offset: usize,
        len: usize,
    ) -> Self {
        debug_assert!(offset + len * std::mem::size_of::<T>() <= bytes.len());
        let ptr = bytes.as_ptr().add(offset) as *const T;
        debug_assert_eq!(ptr as usize % std::mem::align_of::<T>(), 0);
        Buf {
            ptr,
            len,
            _owner: owner,
        }
    }
}

impl<T: Pod> Deref for Buf<T> {
    type Target = [T];
    #[inline]
    fn deref(&self) -> &[T] {
        if self.len == 0 {
            return &[];
        }
        // SAFETY: `ptr` points at `len` initialized, aligned `T`s kept alive by `_owner`.
        unsafe { std::slice::from_raw_parts(self.ptr, self.len) }
    }
}

impl<T: Pod + fmt::Debug> fmt::Debug for Buf<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter().take(16)).finish()
    }
}

impl<T: Pod> Clone for Buf<T> {
    fn clone(&self) -> Self {
        Buf {
            ptr: self.ptr,
            len: self.len,
            _owner: self._owner.clone(),
        }
    }
}
