//! The vector kernels of the network: accumulator updates and the output layer, in AVX2
//! (`std::arch`) and in portable scalar code that gives bit-identical results.
//!
//! Exactness: accumulators add and subtract `i16` with wrapping (as `vpaddw`/`vpsubw` do),
//! `v·w` is an `i16` product with wrapping (as `vpmullw`), `v·(v·w)` pairs are summed exactly
//! in `i32` (`vpmaddwd` cannot overflow on these ranges) and every further sum wraps, so the
//! order of summation, lane by lane or pairwise, cannot change the result.

use super::net::QA;

/// Sixteen `i16`, aligned for one 256-bit load.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(32))]
pub struct Lane(pub [i16; 16]);

impl Lane {
    /// Values per lane.
    pub const WIDTH: usize = 16;
    /// All zeros.
    pub const ZERO: Lane = Lane([0; 16]);
}

/// Which kernels run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    /// Plain Rust, any CPU.
    Scalar,
    /// AVX2 (x86-64 CPUs that have it).
    Avx2,
}

impl Backend {
    /// The fastest backend this CPU runs.
    pub fn best() -> Backend {
        if Backend::Avx2.available() {
            Backend::Avx2
        } else {
            Backend::Scalar
        }
    }

    /// Whether this CPU runs the backend.
    pub fn available(self) -> bool {
        match self {
            Backend::Scalar => true,
            Backend::Avx2 => avx2_detected(),
        }
    }
}

#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn avx2_detected() -> bool {
    #[cfg(target_feature = "avx2")]
    {
        true
    }
    #[cfg(not(target_feature = "avx2"))]
    {
        std::arch::is_x86_feature_detected!("avx2")
    }
}

#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn avx2_detected() -> bool {
    false
}

/// `dst = src + add - sub`, lane by lane (one accumulator perspective, a quiet move).
#[inline(always)]
pub fn add_sub(b: Backend, dst: &mut [Lane], src: &[Lane], add: &[Lane], sub: &[Lane]) {
    debug_assert!(src.len() == dst.len() && add.len() == dst.len() && sub.len() == dst.len());
    #[cfg(target_arch = "x86_64")]
    if b == Backend::Avx2 && avx2_detected() {
        // SAFETY: AVX2 is present (checked just above); lengths are equal (the caller's slices
        // are rows and accumulators of the same net) and the loops index within `dst.len()`.
        unsafe { avx2::add_sub(dst, src, add, sub) };
        return;
    }
    let _ = b;
    for i in 0..dst.len() {
        for j in 0..Lane::WIDTH {
            dst[i].0[j] = src[i].0[j].wrapping_add(add[i].0[j]).wrapping_sub(sub[i].0[j]);
        }
    }
}

/// `dst = src + add - sub1 - sub2` (a capture).
#[inline(always)]
pub fn add_sub_sub(b: Backend, dst: &mut [Lane], src: &[Lane], add: &[Lane], sub1: &[Lane], sub2: &[Lane]) {
    debug_assert!(src.len() == dst.len() && add.len() == dst.len());
    debug_assert!(sub1.len() == dst.len() && sub2.len() == dst.len());
    #[cfg(target_arch = "x86_64")]
    if b == Backend::Avx2 && avx2_detected() {
        // SAFETY: as in `add_sub`.
        unsafe { avx2::add_sub_sub(dst, src, add, sub1, sub2) };
        return;
    }
    let _ = b;
    for i in 0..dst.len() {
        for j in 0..Lane::WIDTH {
            dst[i].0[j] = src[i].0[j]
                .wrapping_add(add[i].0[j])
                .wrapping_sub(sub1[i].0[j])
                .wrapping_sub(sub2[i].0[j]);
        }
    }
}

/// `dst += add` (a full refresh, one feature at a time).
#[inline(always)]
pub fn add_assign(b: Backend, dst: &mut [Lane], add: &[Lane]) {
    debug_assert!(add.len() == dst.len());
    #[cfg(target_arch = "x86_64")]
    if b == Backend::Avx2 && avx2_detected() {
        // SAFETY: as in `add_sub`.
        unsafe { avx2::add_assign(dst, add) };
        return;
    }
    let _ = b;
    for i in 0..dst.len() {
        for j in 0..Lane::WIDTH {
            dst[i].0[j] = dst[i].0[j].wrapping_add(add[i].0[j]);
        }
    }
}

/// The output layer's sum: `Σ v·(v·w)` over `acc` and `w`, with `v = clamp(acc, 0, QA)`,
/// `v·w` an `i16` product and the sum wrapping in `i32`.
#[inline(always)]
pub fn output_sum(b: Backend, acc: &[Lane], w: &[Lane]) -> i32 {
    debug_assert!(acc.len() == w.len());
    #[cfg(target_arch = "x86_64")]
    if b == Backend::Avx2 && avx2_detected() {
        // SAFETY: as in `add_sub`.
        return unsafe { avx2::output_sum(acc, w) };
    }
    let _ = b;
    let mut sum = 0i32;
    for i in 0..acc.len() {
        for j in 0..Lane::WIDTH {
            let v = acc[i].0[j].clamp(0, QA as i16);
            let vw = v.wrapping_mul(w[i].0[j]);
            sum = sum.wrapping_add(v as i32 * vw as i32);
        }
    }
    sum
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    //! The AVX2 kernels; every function needs AVX2 and slices of equal length.

    use super::{Lane, QA};
    use std::arch::x86_64::*;

    #[inline(always)]
    unsafe fn load(l: &Lane) -> __m256i {
        _mm256_load_si256(l.0.as_ptr() as *const __m256i)
    }

    #[inline(always)]
    unsafe fn store(l: &mut Lane, v: __m256i) {
        _mm256_store_si256(l.0.as_mut_ptr() as *mut __m256i, v)
    }

    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn add_sub(dst: &mut [Lane], src: &[Lane], add: &[Lane], sub: &[Lane]) {
        for (((d, s), a), b) in dst.iter_mut().zip(src).zip(add).zip(sub) {
            store(d, _mm256_sub_epi16(_mm256_add_epi16(load(s), load(a)), load(b)));
        }
    }

    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn add_sub_sub(dst: &mut [Lane], src: &[Lane], add: &[Lane], sub1: &[Lane], sub2: &[Lane]) {
        for ((((d, s), a), b), c) in dst.iter_mut().zip(src).zip(add).zip(sub1).zip(sub2) {
            let v = _mm256_sub_epi16(_mm256_add_epi16(load(s), load(a)), load(b));
            store(d, _mm256_sub_epi16(v, load(c)));
        }
    }

    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn add_assign(dst: &mut [Lane], add: &[Lane]) {
        for (d, a) in dst.iter_mut().zip(add) {
            store(d, _mm256_add_epi16(load(d), load(a)));
        }
    }

    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn output_sum(acc: &[Lane], w: &[Lane]) -> i32 {
        let zero = _mm256_setzero_si256();
        let qa = _mm256_set1_epi16(QA as i16);
        let mut sum = _mm256_setzero_si256();
        for (a, w) in acc.iter().zip(w) {
            let v = _mm256_min_epi16(_mm256_max_epi16(load(a), zero), qa);
            let vw = _mm256_mullo_epi16(v, load(w));
            sum = _mm256_add_epi32(sum, _mm256_madd_epi16(v, vw));
        }
        let s = _mm_add_epi32(_mm256_castsi256_si128(sum), _mm256_extracti128_si256(sum, 1));
        let s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0b01_00_11_10));
        let s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0b10_11_00_01));
        _mm_cvtsi128_si32(s)
    }
}
