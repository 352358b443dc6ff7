//! The SIMD128 kernels (WebAssembly built with `+simd128`, as `.cargo/config.toml` builds
//! it): a lane is two 128-bit registers of eight `i16`, as on NEON. WebAssembly has no
//! run-time detection: a module using these instructions does not load where they are
//! missing, so the build's target feature is the check.

use super::{Lane, Lane8, Row};
use core::arch::wasm32::*;

#[inline(always)]
pub(super) unsafe fn load(l: &Lane) -> (v128, v128) {
    let p = l.0.as_ptr() as *const v128;
    (v128_load(p), v128_load(p.add(1)))
}

/// Sixteen `i8`, sign-extended to two registers of eight `i16` as they are loaded.
#[inline(always)]
pub(super) unsafe fn load8(l: &Lane8) -> (v128, v128) {
    let p = l.0.as_ptr();
    (i16x8_load_extend_i8x8(p), i16x8_load_extend_i8x8(p.add(8)))
}

#[inline(always)]
unsafe fn store(l: &mut Lane, (lo, hi): (v128, v128)) {
    let p = l.0.as_mut_ptr() as *mut v128;
    v128_store(p, lo);
    v128_store(p.add(1), hi);
}

/// The width, in lanes, of the hidden layer the kernels are unrolled for (256 units, the
/// shipped net's), as in the AVX2 kernels.
const FIXED: usize = 16;

#[inline(always)]
unsafe fn add_sub1<W: Row>(dst: &mut Lane, src: &Lane, add: &W, sub: &W) {
    let (s, a, b) = (load(src), add.load_simd128(), sub.load_simd128());
    store(
        dst,
        (i16x8_sub(i16x8_add(s.0, a.0), b.0), i16x8_sub(i16x8_add(s.1, a.1), b.1)),
    );
}

#[inline(always)]
unsafe fn add_sub_sub1<W: Row>(dst: &mut Lane, src: &Lane, add: &W, sub1: &W, sub2: &W) {
    let (s, a, b, c) = (load(src), add.load_simd128(), sub1.load_simd128(), sub2.load_simd128());
    let lo = i16x8_sub(i16x8_sub(i16x8_add(s.0, a.0), b.0), c.0);
    let hi = i16x8_sub(i16x8_sub(i16x8_add(s.1, a.1), b.1), c.1);
    store(dst, (lo, hi));
}

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

pub(super) unsafe fn add_assign<W: Row>(dst: &mut [Lane], add: &[W]) {
    for (d, a) in dst.iter_mut().zip(add) {
        let (x, a) = (load(d), a.load_simd128());
        store(d, (i16x8_add(x.0, a.0), i16x8_add(x.1, a.1)));
    }
}

pub(super) unsafe fn sub_assign<W: Row>(dst: &mut [Lane], sub: &[W]) {
    for (d, s) in dst.iter_mut().zip(sub) {
        let (x, s) = (load(d), s.load_simd128());
        store(d, (i16x8_sub(x.0, s.0), i16x8_sub(x.1, s.1)));
    }
}

/// `Σ clamp(acc)² · w` as four `i32` partial sums: `i32x4.dot_i16x8_s` sums each pair of
/// `v·(v·w)` products exactly, as `vpmaddwd` does.
#[inline(always)]
unsafe fn output_terms(acc: &[Lane], w: &[Lane], ceiling: i16) -> v128 {
    let zero = i16x8_splat(0);
    let top = i16x8_splat(ceiling);
    let term = |a: &Lane, w: &Lane| {
        let (a, w) = (load(a), load(w));
        let lo = i16x8_min(i16x8_max(a.0, zero), top);
        let hi = i16x8_min(i16x8_max(a.1, zero), top);
        i32x4_add(
            i32x4_dot_i16x8(lo, i16x8_mul(lo, w.0)),
            i32x4_dot_i16x8(hi, i16x8_mul(hi, w.1)),
        )
    };
    let mut sum = i32x4_splat(0);
    if let (Ok(acc), Ok(w)) = (<&[Lane; FIXED]>::try_from(acc), <&[Lane; FIXED]>::try_from(w)) {
        for k in 0..FIXED {
            sum = i32x4_add(sum, term(&acc[k], &w[k]));
        }
    } else {
        for (a, w) in acc.iter().zip(w) {
            sum = i32x4_add(sum, term(a, w));
        }
    }
    sum
}

#[inline(always)]
fn horizontal_sum(s: v128) -> i32 {
    let s = i32x4_add(s, i32x4_shuffle::<2, 3, 0, 1>(s, s));
    let s = i32x4_add(s, i32x4_shuffle::<1, 0, 3, 2>(s, s));
    i32x4_extract_lane::<0>(s)
}

pub(super) unsafe fn output_sum(acc: &[Lane], w: &[Lane], ceiling: i16) -> i32 {
    horizontal_sum(output_terms(acc, w, ceiling))
}

pub(super) unsafe fn output_sum2(acc1: &[Lane], w1: &[Lane], acc2: &[Lane], w2: &[Lane], ceiling: i16) -> i32 {
    horizontal_sum(i32x4_add(
        output_terms(acc1, w1, ceiling),
        output_terms(acc2, w2, ceiling),
    ))
}
