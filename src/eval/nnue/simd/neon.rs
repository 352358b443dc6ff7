//! The NEON kernels (ARM64): a lane is two 128-bit registers of eight `i16`.

use super::Lane;
use std::arch::aarch64::*;

#[inline(always)]
unsafe fn load(l: &Lane) -> (int16x8_t, int16x8_t) {
    (vld1q_s16(l.0.as_ptr()), vld1q_s16(l.0.as_ptr().add(8)))
}

#[inline(always)]
unsafe fn store(l: &mut Lane, (lo, hi): (int16x8_t, int16x8_t)) {
    vst1q_s16(l.0.as_mut_ptr(), lo);
    vst1q_s16(l.0.as_mut_ptr().add(8), hi);
}

#[target_feature(enable = "neon")]
pub(super) unsafe fn add_sub(dst: &mut [Lane], src: &[Lane], add: &[Lane], sub: &[Lane]) {
    for (((d, s), a), b) in dst.iter_mut().zip(src).zip(add).zip(sub) {
        let (s, a, b) = (load(s), load(a), load(b));
        store(
            d,
            (vsubq_s16(vaddq_s16(s.0, a.0), b.0), vsubq_s16(vaddq_s16(s.1, a.1), b.1)),
        );
    }
}

#[target_feature(enable = "neon")]
pub(super) unsafe fn add_sub_sub(dst: &mut [Lane], src: &[Lane], add: &[Lane], sub1: &[Lane], sub2: &[Lane]) {
    for ((((d, s), a), b), c) in dst.iter_mut().zip(src).zip(add).zip(sub1).zip(sub2) {
        let (s, a, b, c) = (load(s), load(a), load(b), load(c));
        let lo = vsubq_s16(vsubq_s16(vaddq_s16(s.0, a.0), b.0), c.0);
        let hi = vsubq_s16(vsubq_s16(vaddq_s16(s.1, a.1), b.1), c.1);
        store(d, (lo, hi));
    }
}

#[target_feature(enable = "neon")]
pub(super) unsafe fn add_assign(dst: &mut [Lane], add: &[Lane]) {
    for (d, a) in dst.iter_mut().zip(add) {
        let (x, a) = (load(d), load(a));
        store(d, (vaddq_s16(x.0, a.0), vaddq_s16(x.1, a.1)));
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
