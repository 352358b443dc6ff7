//! The NEON kernels (ARM64): a lane is two 128-bit registers of eight `i16`.

use super::{Lane, Lane8, Row};
use std::arch::aarch64::*;

#[inline(always)]
pub(super) unsafe fn load(l: &Lane) -> (int16x8_t, int16x8_t) {
    (vld1q_s16(l.0.as_ptr()), vld1q_s16(l.0.as_ptr().add(8)))
}

/// Sixteen `i8`, sign-extended to two registers of eight `i16`.
#[inline(always)]
pub(super) unsafe fn load8(l: &Lane8) -> (int16x8_t, int16x8_t) {
    let v = vld1q_s8(l.0.as_ptr());
    (vmovl_s8(vget_low_s8(v)), vmovl_high_s8(v))
}

#[inline(always)]
unsafe fn store(l: &mut Lane, (lo, hi): (int16x8_t, int16x8_t)) {
    vst1q_s16(l.0.as_mut_ptr(), lo);
    vst1q_s16(l.0.as_mut_ptr().add(8), hi);
}

#[target_feature(enable = "neon")]
pub(super) unsafe fn add_sub<W: Row>(dst: &mut [Lane], src: &[Lane], add: &[W], sub: &[W]) {
    for (((d, s), a), b) in dst.iter_mut().zip(src).zip(add).zip(sub) {
        let (s, a, b) = (load(s), a.load_neon(), b.load_neon());
        store(
            d,
            (vsubq_s16(vaddq_s16(s.0, a.0), b.0), vsubq_s16(vaddq_s16(s.1, a.1), b.1)),
        );
    }
}

#[target_feature(enable = "neon")]
pub(super) unsafe fn add_sub_sub<W: Row>(dst: &mut [Lane], src: &[Lane], add: &[W], sub1: &[W], sub2: &[W]) {
    for ((((d, s), a), b), c) in dst.iter_mut().zip(src).zip(add).zip(sub1).zip(sub2) {
        let (s, a, b, c) = (load(s), a.load_neon(), b.load_neon(), c.load_neon());
        let lo = vsubq_s16(vsubq_s16(vaddq_s16(s.0, a.0), b.0), c.0);
        let hi = vsubq_s16(vsubq_s16(vaddq_s16(s.1, a.1), b.1), c.1);
        store(d, (lo, hi));
    }
}

#[target_feature(enable = "neon")]
pub(super) unsafe fn add_assign<W: Row>(dst: &mut [Lane], add: &[W]) {
    for (d, a) in dst.iter_mut().zip(add) {
        let (x, a) = (load(d), a.load_neon());
        store(d, (vaddq_s16(x.0, a.0), vaddq_s16(x.1, a.1)));
    }
}

#[target_feature(enable = "neon")]
pub(super) unsafe fn sub_assign<W: Row>(dst: &mut [Lane], sub: &[W]) {
    for (d, s) in dst.iter_mut().zip(sub) {
        let (x, s) = (load(d), s.load_neon());
        store(d, (vsubq_s16(x.0, s.0), vsubq_s16(x.1, s.1)));
    }
}

#[target_feature(enable = "neon")]
pub(super) unsafe fn output_sum(acc: &[Lane], w: &[Lane], ceiling: i16) -> i32 {
    let zero = vdupq_n_s16(0);
    let top = vdupq_n_s16(ceiling);
    let mut sum = vdupq_n_s32(0);
    for (a, w) in acc.iter().zip(w) {
        let (a, w) = (load(a), load(w));
        for (a, w) in [(a.0, w.0), (a.1, w.1)] {
            let v = vminq_s16(vmaxq_s16(a, zero), top);
            let vw = vmulq_s16(v, w);
            sum = vmlal_s16(sum, vget_low_s16(v), vget_low_s16(vw));
            sum = vmlal_high_s16(sum, v, vw);
        }
    }
    vaddvq_s32(sum)
}
