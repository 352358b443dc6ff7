//! The portable kernels: plain Rust for any CPU, the reference the vector kernels match bit
//! for bit.

use super::{Lane, Row};

pub(super) fn add_sub<W: Row>(dst: &mut [Lane], src: &[Lane], add: &[W], sub: &[W]) {
    for (((d, s), a), b) in dst.iter_mut().zip(src).zip(add).zip(sub) {
        for j in 0..Lane::WIDTH {
            d.0[j] = s.0[j].wrapping_add(a.get(j)).wrapping_sub(b.get(j));
        }
    }
}

pub(super) fn add_sub_sub<W: Row>(dst: &mut [Lane], src: &[Lane], add: &[W], sub1: &[W], sub2: &[W]) {
    for ((((d, s), a), b), c) in dst.iter_mut().zip(src).zip(add).zip(sub1).zip(sub2) {
        for j in 0..Lane::WIDTH {
            d.0[j] = s.0[j]
                .wrapping_add(a.get(j))
                .wrapping_sub(b.get(j))
                .wrapping_sub(c.get(j));
        }
    }
}

pub(super) fn add_assign<W: Row>(dst: &mut [Lane], add: &[W]) {
    for (d, a) in dst.iter_mut().zip(add) {
        for j in 0..Lane::WIDTH {
            d.0[j] = d.0[j].wrapping_add(a.get(j));
        }
    }
}

pub(super) fn sub_assign<W: Row>(dst: &mut [Lane], sub: &[W]) {
    for (d, s) in dst.iter_mut().zip(sub) {
        for j in 0..Lane::WIDTH {
            d.0[j] = d.0[j].wrapping_sub(s.get(j));
        }
    }
}

pub(super) fn output_sum(acc: &[Lane], w: &[Lane], ceiling: i16) -> i32 {
    let mut sum = 0i32;
    for (a, w) in acc.iter().zip(w) {
        for j in 0..Lane::WIDTH {
            let v = a.0[j].clamp(0, ceiling);
            let vw = v.wrapping_mul(w.0[j]);
            sum = sum.wrapping_add(v as i32 * vw as i32);
        }
    }
    sum
}
