//! The monotonic clock every search, tool and the controller read: `std::time::Instant` on
//! native targets; in WebAssembly (where `std`'s clock is not implemented and panics), the
//! host's `performance.now()` in milliseconds, imported as `env.chariot_now`.

#[cfg(not(target_arch = "wasm32"))]
pub use std::time::Instant;

#[cfg(target_arch = "wasm32")]
pub use web::Instant;

#[cfg(target_arch = "wasm32")]
mod web {
    use std::ops::{Add, Sub};
    use std::time::Duration;

    #[link(wasm_import_module = "env")]
    extern "C" {
        /// Milliseconds from an arbitrary origin, never decreasing (`performance.now()`).
        fn chariot_now() -> f64;
    }

    /// A moment of the host's monotonic clock, in milliseconds. Compared by `f64::total_cmp`,
    /// so the order is total and `==` agrees with it.
    #[derive(Clone, Copy, Debug)]
    pub struct Instant(f64);

    impl PartialEq for Instant {
        fn eq(&self, other: &Self) -> bool {
            self.cmp(other).is_eq()
        }
    }

    impl Eq for Instant {}

    impl PartialOrd for Instant {
        fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
            Some(self.cmp(other))
        }
    }

    impl Ord for Instant {
        fn cmp(&self, other: &Self) -> std::cmp::Ordering {
            self.0.total_cmp(&other.0)
        }
    }

    impl Instant {
        /// Now.
        pub fn now() -> Instant {
            // SAFETY: the import takes nothing and returns a number.
            Instant(unsafe { chariot_now() })
        }

        /// The time from `earlier` to `self`, zero if `earlier` is later.
        pub fn duration_since(&self, earlier: Instant) -> Duration {
            Duration::from_secs_f64(((self.0 - earlier.0) / 1000.0).max(0.0))
        }

        /// The same as [`Instant::duration_since`] (which already saturates).
        pub fn saturating_duration_since(&self, earlier: Instant) -> Duration {
            self.duration_since(earlier)
        }

        /// The time since `self`.
        pub fn elapsed(&self) -> Duration {
            Instant::now().duration_since(*self)
        }
    }

    impl Add<Duration> for Instant {
        type Output = Instant;
        fn add(self, d: Duration) -> Instant {
            Instant(self.0 + d.as_secs_f64() * 1000.0)
        }
    }

    impl Sub<Instant> for Instant {
        type Output = Duration;
        fn sub(self, earlier: Instant) -> Duration {
            self.duration_since(earlier)
        }
    }
}
