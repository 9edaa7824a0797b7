//! The WebAssembly SIMD128 kernel: [`Lanes`] on `v128`, one digit (its
//! three band words and the pad) per vector, as [`super::arch::Portable`]
//! lays them out, so only the operations differ.
//!
//! WebAssembly has no run-time feature detection: a module built with
//! `-C target-feature=+simd128` (as the page's offline engine is, see
//! `crates/web/build.sh`) holds SIMD instructions throughout and an engine
//! without SIMD128 refuses to load it. So this kernel is compiled exactly
//! when `simd128` is enabled at build time, and then [`run_scalar`] (what
//! the `Scalar` kernel runs) uses it; without `simd128` the portable kernel
//! runs. The intrinsics are safe functions on wasm32 (an unsupported
//! instruction fails validation, it cannot misbehave), and every load and
//! store goes through bounds-checked arrays, so this module has no `unsafe`.

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
use super::search::{Job, Outcome, run};

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod simd {
    use std::arch::wasm32::*;

    use super::super::arch::Lanes;

    /// The SIMD128 kernel (see the module docs).
    #[derive(Clone, Copy, Debug)]
    pub(crate) struct Simd128;

    impl Lanes for Simd128 {
        type V = v128;
        const W: usize = 1;
        const N: usize = 9;
        #[inline(always)]
        fn load(self, a: &[[u32; 4]]) -> v128 {
            let [x, y, z, w] = a[0];
            u32x4(x, y, z, w)
        }
        #[inline(always)]
        fn store(self, v: v128, a: &mut [[u32; 4]]) {
            a[0] = [
                u32x4_extract_lane::<0>(v),
                u32x4_extract_lane::<1>(v),
                u32x4_extract_lane::<2>(v),
                u32x4_extract_lane::<3>(v),
            ];
        }
        #[inline(always)]
        fn splat(self, x: u32) -> v128 {
            u32x4_splat(x)
        }
        #[inline(always)]
        fn and(self, a: v128, b: v128) -> v128 {
            v128_and(a, b)
        }
        #[inline(always)]
        fn or(self, a: v128, b: v128) -> v128 {
            v128_or(a, b)
        }
        #[inline(always)]
        fn xor(self, a: v128, b: v128) -> v128 {
            v128_xor(a, b)
        }
        #[inline(always)]
        fn andnot(self, a: v128, b: v128) -> v128 {
            // wasm's `v128.andnot(x, y)` is `x & !y`
            v128_andnot(b, a)
        }
        #[inline(always)]
        fn shr<const S: u32>(self, a: v128) -> v128 {
            u32x4_shr(a, S)
        }
        #[inline(always)]
        fn shl<const S: u32>(self, a: v128) -> v128 {
            u32x4_shl(a, S)
        }
        #[inline(always)]
        fn add_lanes(self, a: v128, b: v128) -> v128 {
            u32x4_add(a, b)
        }
        #[inline(always)]
        fn dec(self, a: v128) -> v128 {
            u32x4_sub(a, u32x4_splat(1))
        }
        #[inline(always)]
        fn is_zero_mask(self, a: v128) -> v128 {
            u32x4_eq(a, u32x4_splat(0))
        }
        #[inline(always)]
        fn rot1(self, a: v128) -> v128 {
            i32x4_shuffle::<1, 2, 0, 3>(a, a)
        }
        #[inline(always)]
        fn rot2(self, a: v128) -> v128 {
            i32x4_shuffle::<2, 0, 1, 3>(a, a)
        }
        #[inline(always)]
        fn rot_slots<const S: u32>(self, a: v128) -> v128 {
            // one digit per vector: never called (`S < W` fails)
            a
        }
        #[inline(always)]
        fn all_zero(self, a: v128) -> bool {
            !v128_any_true(a)
        }
        #[inline(always)]
        fn same(self, a: v128, b: v128) -> bool {
            !v128_any_true(v128_xor(a, b))
        }
        /// Byte compares: two 16-byte vectors per band, one compare and
        /// bit mask per digit and half.
        #[inline(always)]
        fn band_digits(self, cells: &[u8; 96]) -> [[u32; 3]; 9] {
            let mut out = [[0u32; 3]; 9];
            for b in 0..3 {
                let band: &[u8; 32] = cells[27 * b..27 * b + 32].try_into().expect("32 bytes");
                let lo = u8x16(
                    band[0], band[1], band[2], band[3], band[4], band[5], band[6], band[7],
                    band[8], band[9], band[10], band[11], band[12], band[13], band[14], band[15],
                );
                let hi = u8x16(
                    band[16], band[17], band[18], band[19], band[20], band[21], band[22], band[23],
                    band[24], band[25], band[26], 0, 0, 0, 0, 0,
                );
                // a byte above 9 counts as 9, as in the portable kernel
                let (lo, hi) = (u8x16_min(lo, u8x16_splat(9)), u8x16_min(hi, u8x16_splat(9)));
                for (d, o) in out.iter_mut().enumerate() {
                    let digit = u8x16_splat(d as u8 + 1);
                    let l = u32::from(u8x16_bitmask(u8x16_eq(lo, digit)));
                    let h = u32::from(u8x16_bitmask(u8x16_eq(hi, digit)));
                    o[b] = l | (h << 16);
                }
            }
            out
        }
    }
}

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
pub(crate) use simd::Simd128;

/// Run the search core with the `Scalar` kernel: the SIMD128 one when this
/// WebAssembly build has SIMD128 (see the module docs).
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
#[inline]
pub(crate) fn run_scalar(job: Job<'_>) -> Outcome {
    run(Simd128, job)
}

/// Run the search core with the `Scalar` kernel: on x86-64 the SSE2 one
/// (the same layout and operations as SIMD128's, on the baseline
/// instruction set).
#[cfg(target_arch = "x86_64")]
#[inline]
pub(crate) fn run_scalar(job: super::search::Job<'_>) -> super::search::Outcome {
    super::search::run(super::arch::Sse2, job)
}

/// Run the search core with the `Scalar` kernel: the portable one.
#[cfg(not(any(
    target_arch = "x86_64",
    all(target_arch = "wasm32", target_feature = "simd128")
)))]
#[inline]
pub(crate) fn run_scalar(job: super::search::Job<'_>) -> super::search::Outcome {
    super::search::run(super::arch::Portable, job)
}

/// The kernel's operations against the portable kernel's, on random
/// words, when the tests are built for WebAssembly with SIMD128 (not yet
/// possible: a dev-dependency does not build for wasm32-wasip1); elsewhere
/// the portable kernel goes through the same checks, so they stay compiled.
#[cfg(test)]
mod tests {
    use super::super::arch::{Lanes, Portable};
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    use super::*;

    fn check<L: Lanes>(l: L) {
        let p = Portable;
        let mut x: u32 = 0x9e37_79b9;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            if x % 7 == 0 { 0 } else { x }
        };
        let out = |v| {
            let mut o = [[0u32; 4]; 1];
            l.store(v, &mut o);
            o[0]
        };
        for _ in 0..4000 {
            let a = [next(), next(), next(), next()];
            let b = [next(), next(), next(), next()];
            let (va, vb) = (l.load(&[a]), l.load(&[b]));
            assert_eq!(out(va), a);
            assert_eq!(out(l.splat(a[1])), p.splat(a[1]));
            assert_eq!(out(l.and(va, vb)), p.and(a, b));
            assert_eq!(out(l.or(va, vb)), p.or(a, b));
            assert_eq!(out(l.xor(va, vb)), p.xor(a, b));
            assert_eq!(out(l.andnot(va, vb)), p.andnot(a, b));
            assert_eq!(out(l.shr::<9>(va)), p.shr::<9>(a));
            assert_eq!(out(l.shl::<18>(va)), p.shl::<18>(a));
            assert_eq!(out(l.dec(va)), p.dec(a));
            assert_eq!(out(l.is_zero_mask(va)), p.is_zero_mask(a));
            assert_eq!(out(l.rot1(va)), p.rot1(a));
            assert_eq!(out(l.rot2(va)), p.rot2(a));
            assert_eq!(l.all_zero(va), p.all_zero(a));
            assert!(l.all_zero(l.splat(0)));
            assert_eq!(l.same(va, vb), a == b);
            assert!(l.same(va, va));
            let mut cells = [0u8; 96];
            for c in cells.iter_mut().take(81) {
                *c = (next() % 11) as u8;
            }
            assert_eq!(l.band_digits(&cells), p.band_digits(&cells));
        }
    }

    #[test]
    fn the_wasm_kernel_matches_the_portable_one() {
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        check(Simd128);
        #[cfg(target_arch = "x86_64")]
        check(super::super::arch::Sse2);
        check(Portable);
    }
}
