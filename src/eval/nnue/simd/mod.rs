//! The vector kernels of the network, one set per CPU family side by side: AVX2 (x86-64),
//! NEON (ARM64), SIMD128 (WebAssembly) and portable scalar code, all giving bit-identical
//! results. The set is chosen once, at start-up ([`Backend::best`]), by what the CPU running
//! the binary has (for WebAssembly, by the build: `.cargo/config.toml` enables SIMD128).
//!
//! Exactness: accumulators add and subtract `i16` with wrapping (as `vpaddw`/`vpsubw`,
//! NEON's `add`/`sub` and `i16x8.add`/`sub` do), `v·w` is an `i16` product with wrapping (as
//! `vpmullw`, `mul`, `i16x8.mul`), `v·(v·w)` pairs are summed exactly in `i32` (`vpmaddwd`,
//! `smlal` and `i32x4.dot_i16x8_s` cannot overflow on these ranges) and every further sum
//! wraps, so the order of summation, lane by lane or pairwise, cannot change the result.

#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(target_arch = "aarch64")]
mod neon;
mod scalar;
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod simd128;

use std::fmt;
use std::sync::OnceLock;

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

/// Sixteen `i8` feature-transformer weights, widened to `i16` as they are loaded: a net whose
/// weights all fit keeps its rows in these, half the memory the accumulator updates read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(16))]
pub struct Lane8(pub [i8; 16]);

/// A lane of weights the accumulator kernels add or subtract: [`Lane`] or [`Lane8`]. Each
/// kernel family loads it as sixteen `i16`.
pub trait Row: Copy {
    /// Value `j` (0..16) as `i16`.
    fn get(&self, j: usize) -> i16;
    /// The sixteen values in one AVX2 register.
    ///
    /// # Safety
    /// The CPU has AVX2.
    #[cfg(target_arch = "x86_64")]
    unsafe fn load_avx2(&self) -> std::arch::x86_64::__m256i;
    /// The sixteen values in two NEON registers.
    ///
    /// # Safety
    /// The CPU has NEON.
    #[cfg(target_arch = "aarch64")]
    unsafe fn load_neon(&self) -> (std::arch::aarch64::int16x8_t, std::arch::aarch64::int16x8_t);
    /// The sixteen values in two SIMD128 registers.
    ///
    /// # Safety
    /// None beyond the build's: the kernels exist only in a build with SIMD128.
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    unsafe fn load_simd128(&self) -> (core::arch::wasm32::v128, core::arch::wasm32::v128);
}

impl Row for Lane {
    #[inline(always)]
    fn get(&self, j: usize) -> i16 {
        self.0[j]
    }
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    unsafe fn load_avx2(&self) -> std::arch::x86_64::__m256i {
        avx2::load(self)
    }
    #[cfg(target_arch = "aarch64")]
    #[inline(always)]
    unsafe fn load_neon(&self) -> (std::arch::aarch64::int16x8_t, std::arch::aarch64::int16x8_t) {
        neon::load(self)
    }
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    #[inline(always)]
    unsafe fn load_simd128(&self) -> (core::arch::wasm32::v128, core::arch::wasm32::v128) {
        simd128::load(self)
    }
}

impl Row for Lane8 {
    #[inline(always)]
    fn get(&self, j: usize) -> i16 {
        self.0[j] as i16
    }
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    unsafe fn load_avx2(&self) -> std::arch::x86_64::__m256i {
        avx2::load8(self)
    }
    #[cfg(target_arch = "aarch64")]
    #[inline(always)]
    unsafe fn load_neon(&self) -> (std::arch::aarch64::int16x8_t, std::arch::aarch64::int16x8_t) {
        neon::load8(self)
    }
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    #[inline(always)]
    unsafe fn load_simd128(&self) -> (core::arch::wasm32::v128, core::arch::wasm32::v128) {
        simd128::load8(self)
    }
}

/// A family of kernels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Isa {
    /// Plain Rust, any CPU.
    Scalar,
    /// AVX2 (x86-64 CPUs that have it).
    Avx2,
    /// NEON (every ARM64 CPU).
    Neon,
    /// SIMD128 (WebAssembly, in a build that enables it).
    Simd128,
}

impl Isa {
    /// Every family, in order of preference (fastest first).
    pub const ALL: [Isa; 4] = [Isa::Avx2, Isa::Neon, Isa::Simd128, Isa::Scalar];

    /// Whether the CPU running this binary has the instructions.
    fn detected(self) -> bool {
        match self {
            Isa::Scalar => true,
            #[cfg(target_arch = "x86_64")]
            Isa::Avx2 => std::arch::is_x86_feature_detected!("avx2"),
            #[cfg(target_arch = "aarch64")]
            Isa::Neon => std::arch::is_aarch64_feature_detected!("neon"),
            // A module that uses SIMD128 does not load on an engine without it.
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
            Isa::Simd128 => true,
            #[allow(unreachable_patterns)]
            _ => false,
        }
    }
}

impl fmt::Display for Isa {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Isa::Scalar => "scalar",
            Isa::Avx2 => "AVX2",
            Isa::Neon => "NEON",
            Isa::Simd128 => "SIMD128",
        })
    }
}

/// The kernels that run: a family this CPU has. Only [`Backend::new`] and
/// [`Backend::best`] make one, after checking the CPU, so the kernels need no check of
/// their own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Backend(Isa);

impl Backend {
    /// The scalar kernels, which every CPU runs.
    pub const SCALAR: Backend = Backend(Isa::Scalar);

    /// The kernels of `isa`, if this CPU runs them.
    pub fn new(isa: Isa) -> Option<Backend> {
        isa.detected().then_some(Backend(isa))
    }

    /// The fastest kernels this CPU runs, detected on the first call.
    pub fn best() -> Backend {
        static BEST: OnceLock<Backend> = OnceLock::new();
        *BEST.get_or_init(|| Isa::ALL.into_iter().find_map(Backend::new).unwrap_or(Backend::SCALAR))
    }

    /// Every set this CPU runs, fastest first (the scalar one last).
    pub fn all() -> impl Iterator<Item = Backend> {
        Isa::ALL.into_iter().filter_map(Backend::new)
    }

    /// The family.
    pub fn isa(self) -> Isa {
        self.0
    }
}

impl fmt::Display for Backend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// `dst = src + add - sub`, lane by lane (one accumulator perspective, a quiet move).
#[inline(always)]
pub fn add_sub<W: Row>(b: Backend, dst: &mut [Lane], src: &[Lane], add: &[W], sub: &[W]) {
    debug_assert!(src.len() == dst.len() && add.len() == dst.len() && sub.len() == dst.len());
    match b.0 {
        // SAFETY: a `Backend` of this family exists only where the CPU has it (`Backend::new`),
        // and the kernels zip the slices, never reading or writing past any of them.
        #[cfg(target_arch = "x86_64")]
        Isa::Avx2 => unsafe { avx2::add_sub(dst, src, add, sub) },
        // SAFETY: as above.
        #[cfg(target_arch = "aarch64")]
        Isa::Neon => unsafe { neon::add_sub(dst, src, add, sub) },
        // SAFETY: as in `add_sub`.
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        Isa::Simd128 => unsafe { simd128::add_sub(dst, src, add, sub) },
        _ => scalar::add_sub(dst, src, add, sub),
    }
}

/// `dst = src + add - sub1 - sub2` (a capture).
#[inline(always)]
pub fn add_sub_sub<W: Row>(b: Backend, dst: &mut [Lane], src: &[Lane], add: &[W], sub1: &[W], sub2: &[W]) {
    debug_assert!(src.len() == dst.len() && add.len() == dst.len());
    debug_assert!(sub1.len() == dst.len() && sub2.len() == dst.len());
    match b.0 {
        // SAFETY: as in `add_sub`.
        #[cfg(target_arch = "x86_64")]
        Isa::Avx2 => unsafe { avx2::add_sub_sub(dst, src, add, sub1, sub2) },
        // SAFETY: as in `add_sub`.
        #[cfg(target_arch = "aarch64")]
        Isa::Neon => unsafe { neon::add_sub_sub(dst, src, add, sub1, sub2) },
        // SAFETY: as in `add_sub`.
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        Isa::Simd128 => unsafe { simd128::add_sub_sub(dst, src, add, sub1, sub2) },
        _ => scalar::add_sub_sub(dst, src, add, sub1, sub2),
    }
}

/// `dst += add` (a full refresh, one feature at a time).
#[inline(always)]
pub fn add_assign<W: Row>(b: Backend, dst: &mut [Lane], add: &[W]) {
    debug_assert!(add.len() == dst.len());
    match b.0 {
        // SAFETY: as in `add_sub`.
        #[cfg(target_arch = "x86_64")]
        Isa::Avx2 => unsafe { avx2::add_assign(dst, add) },
        // SAFETY: as in `add_sub`.
        #[cfg(target_arch = "aarch64")]
        Isa::Neon => unsafe { neon::add_assign(dst, add) },
        // SAFETY: as in `add_sub`.
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        Isa::Simd128 => unsafe { simd128::add_assign(dst, add) },
        _ => scalar::add_assign(dst, add),
    }
}

/// `dst -= sub` (a piece taken off a cached accumulator).
#[inline(always)]
pub fn sub_assign<W: Row>(b: Backend, dst: &mut [Lane], sub: &[W]) {
    debug_assert!(sub.len() == dst.len());
    match b.0 {
        // SAFETY: as in `add_sub`.
        #[cfg(target_arch = "x86_64")]
        Isa::Avx2 => unsafe { avx2::sub_assign(dst, sub) },
        // SAFETY: as in `add_sub`.
        #[cfg(target_arch = "aarch64")]
        Isa::Neon => unsafe { neon::sub_assign(dst, sub) },
        // SAFETY: as in `add_sub`.
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        Isa::Simd128 => unsafe { simd128::sub_assign(dst, sub) },
        _ => scalar::sub_assign(dst, sub),
    }
}

/// The output layer's sum: `Σ v·(v·w)` over `acc` and `w`, with `v = clamp(acc, 0, ceiling)`
/// (the activation's ceiling, the net's `QA`), `v·w` an `i16` product and the sum wrapping
/// in `i32`.
#[inline(always)]
pub fn output_sum(b: Backend, acc: &[Lane], w: &[Lane], ceiling: i16) -> i32 {
    debug_assert!(acc.len() == w.len());
    match b.0 {
        // SAFETY: as in `add_sub`.
        #[cfg(target_arch = "x86_64")]
        Isa::Avx2 => unsafe { avx2::output_sum(acc, w, ceiling) },
        // SAFETY: as in `add_sub`.
        #[cfg(target_arch = "aarch64")]
        Isa::Neon => unsafe { neon::output_sum(acc, w, ceiling) },
        // SAFETY: as in `add_sub`.
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        Isa::Simd128 => unsafe { simd128::output_sum(acc, w, ceiling) },
        _ => scalar::output_sum(acc, w, ceiling),
    }
}

/// [`output_sum`] of both perspectives, added (wrapping): one horizontal sum where the
/// kernels have vectors.
#[inline(always)]
pub fn output_sum2(b: Backend, stm: &[Lane], w_stm: &[Lane], nstm: &[Lane], w_nstm: &[Lane], ceiling: i16) -> i32 {
    debug_assert!(stm.len() == w_stm.len() && nstm.len() == w_nstm.len());
    match b.0 {
        // SAFETY: as in `add_sub`.
        #[cfg(target_arch = "x86_64")]
        Isa::Avx2 => unsafe { avx2::output_sum2(stm, w_stm, nstm, w_nstm, ceiling) },
        // SAFETY: as in `add_sub`.
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        Isa::Simd128 => unsafe { simd128::output_sum2(stm, w_stm, nstm, w_nstm, ceiling) },
        _ => output_sum(b, stm, w_stm, ceiling).wrapping_add(output_sum(b, nstm, w_nstm, ceiling)),
    }
}
