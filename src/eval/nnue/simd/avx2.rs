//! The AVX2 kernels (x86-64); every function needs a CPU with AVX2.

use super::{Lane, Lane8, Row};
use std::arch::x86_64::*;

#[inline(always)]
pub(super) unsafe fn load(l: &Lane) -> __m256i {
    _mm256_load_si256(l.0.as_ptr() as *const __m256i)
}

/// Sixteen `i8`, sign-extended to sixteen `i16`.
#[inline(always)]
pub(super) unsafe fn load8(l: &Lane8) -> __m256i {
    _mm256_cvtepi8_epi16(_mm_load_si128(l.0.as_ptr() as *const __m128i))
}

#[inline(always)]
unsafe fn store(l: &mut Lane, v: __m256i) {
    _mm256_store_si256(l.0.as_mut_ptr() as *mut __m256i, v)
}

/// The width, in lanes, of the hidden layer the kernels are unrolled for (256 units, the
/// shipped net's): short loops of unknown length spend much of their time counting.
const FIXED: usize = 16;

#[inline(always)]
unsafe fn add_sub1<W: Row>(dst: &mut Lane, src: &Lane, add: &W, sub: &W) {
    store(
        dst,
        _mm256_sub_epi16(_mm256_add_epi16(load(src), add.load_avx2()), sub.load_avx2()),
    );
}

#[inline(always)]
unsafe fn add_sub_sub1<W: Row>(dst: &mut Lane, src: &Lane, add: &W, sub1: &W, sub2: &W) {
    let v = _mm256_sub_epi16(_mm256_add_epi16(load(src), add.load_avx2()), sub1.load_avx2());
    store(dst, _mm256_sub_epi16(v, sub2.load_avx2()));
}

#[target_feature(enable = "avx2")]
pub(super) unsafe fn add_sub<W: Row>(dst: &mut [Lane], src: &[Lane], add: &[W], sub: &[W]) {
    if let (Ok(d), Ok(s), Ok(a), Ok(b)) = (
        <&mut [Lane; FIXED]>::try_from(&mut *dst),
        <&[Lane; FIXED]>::try_from(src),
        <&[W; FIXED]>::try_from(add),
        <&[W; FIXED]>::try_from(sub),
    ) {
        for k in 0..FIXED {
            add_sub1(&mut d[k], &s[k], &a[k], &b[k]);
        }
        return;
    }
    for (((d, s), a), b) in dst.iter_mut().zip(src).zip(add).zip(sub) {
        add_sub1(d, s, a, b);
    }
}

#[target_feature(enable = "avx2")]
pub(super) unsafe fn add_sub_sub<W: Row>(dst: &mut [Lane], src: &[Lane], add: &[W], sub1: &[W], sub2: &[W]) {
    if let (Ok(d), Ok(s), Ok(a), Ok(b), Ok(c)) = (
        <&mut [Lane; FIXED]>::try_from(&mut *dst),
        <&[Lane; FIXED]>::try_from(src),
        <&[W; FIXED]>::try_from(add),
        <&[W; FIXED]>::try_from(sub1),
        <&[W; FIXED]>::try_from(sub2),
    ) {
        for k in 0..FIXED {
            add_sub_sub1(&mut d[k], &s[k], &a[k], &b[k], &c[k]);
        }
        return;
    }
    for ((((d, s), a), b), c) in dst.iter_mut().zip(src).zip(add).zip(sub1).zip(sub2) {
        add_sub_sub1(d, s, a, b, c);
    }
}

#[target_feature(enable = "avx2")]
pub(super) unsafe fn add_assign<W: Row>(dst: &mut [Lane], add: &[W]) {
    for (d, a) in dst.iter_mut().zip(add) {
        store(d, _mm256_add_epi16(load(d), a.load_avx2()));
    }
}

#[target_feature(enable = "avx2")]
pub(super) unsafe fn sub_assign<W: Row>(dst: &mut [Lane], sub: &[W]) {
    for (d, s) in dst.iter_mut().zip(sub) {
        store(d, _mm256_sub_epi16(load(d), s.load_avx2()));
    }
}

/// `Σ clamp(acc)² · w` as eight `i32` partial sums.
#[inline(always)]
unsafe fn output_terms(acc: &[Lane], w: &[Lane], ceiling: i16) -> __m256i {
    let zero = _mm256_setzero_si256();
    let top = _mm256_set1_epi16(ceiling);
    let term = |a: &Lane, w: &Lane| {
        let v = _mm256_min_epi16(_mm256_max_epi16(load(a), zero), top);
        _mm256_madd_epi16(v, _mm256_mullo_epi16(v, load(w)))
    };
    let mut sum = _mm256_setzero_si256();
    if let (Ok(acc), Ok(w)) = (<&[Lane; FIXED]>::try_from(acc), <&[Lane; FIXED]>::try_from(w)) {
        for k in 0..FIXED {
            sum = _mm256_add_epi32(sum, term(&acc[k], &w[k]));
        }
    } else {
        for (a, w) in acc.iter().zip(w) {
            sum = _mm256_add_epi32(sum, term(a, w));
        }
    }
    sum
}

#[inline(always)]
unsafe fn horizontal_sum(sum: __m256i) -> i32 {
    let s = _mm_add_epi32(_mm256_castsi256_si128(sum), _mm256_extracti128_si256(sum, 1));
    let s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0b01_00_11_10));
    let s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0b10_11_00_01));
    _mm_cvtsi128_si32(s)
}

#[target_feature(enable = "avx2")]
pub(super) unsafe fn output_sum(acc: &[Lane], w: &[Lane], ceiling: i16) -> i32 {
    horizontal_sum(output_terms(acc, w, ceiling))
}

#[target_feature(enable = "avx2")]
pub(super) unsafe fn output_sum2(acc1: &[Lane], w1: &[Lane], acc2: &[Lane], w2: &[Lane], ceiling: i16) -> i32 {
    horizontal_sum(_mm256_add_epi32(
        output_terms(acc1, w1, ceiling),
        output_terms(acc2, w2, ceiling),
    ))
}
