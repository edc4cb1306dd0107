//! Room in a modulus context for what a backend derives from the modulus
//! (the IFMA backend's radix-2^52 constants): made by that backend on first
//! use and kept with the context, so every later batch on the context
//! reuses it, without the context knowing what it holds or who made it.

use std::any::Any;
use std::sync::{Arc, OnceLock};

/// One backend's precomputation for one context (public values only: the
/// modulus is public).
#[derive(Default)]
pub(crate) struct BackendCache(OnceLock<Arc<dyn Any + Send + Sync>>);

impl BackendCache {
    /// The cached `T`, made by `make` the first time. The cache holds one
    /// value; if it already holds another type (a second backend caching on
    /// the same context), `make` runs each time and nothing is stored, so
    /// the answer is always right.
    pub(crate) fn get_or_make<T: Any + Send + Sync>(&self, make: impl FnOnce() -> T) -> Arc<T> {
        if let Some(stored) = self.0.get() {
            return Arc::clone(stored)
                .downcast::<T>()
                .unwrap_or_else(|_| Arc::new(make()));
        }
        let made = Arc::new(make());
        // Another thread may have stored its own copy meanwhile: both are
        // the same values, and this one is used once.
        let _ = self.0.set(Arc::clone(&made) as Arc<dyn Any + Send + Sync>);
        made
    }
}

impl Clone for BackendCache {
    /// A copy of a context starts with an empty cache (it refills on use).
    fn clone(&self) -> Self {
        BackendCache::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn made_once_then_reused() {
        let cache = BackendCache::default();
        let first = cache.get_or_make(|| 7u32);
        let second = cache.get_or_make(|| -> u32 { unreachable!("cached") });
        assert!(Arc::ptr_eq(&first, &second));
    }

    #[test]
    fn another_type_is_made_each_time() {
        let cache = BackendCache::default();
        cache.get_or_make(|| 7u32);
        assert_eq!(*cache.get_or_make(|| 9u64), 9);
        assert_eq!(*cache.get_or_make(|| 10u64), 10);
        assert_eq!(*cache.get_or_make(|| 0u32), 7);
    }
}
