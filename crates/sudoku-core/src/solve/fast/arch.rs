//! The bit-gathering primitives the solver core is generic over, and the
//! only `unsafe` code of the `fast` method.
//!
//! The core ([`super::search::run`]) is written once, generic over [`Bits`],
//! and instantiated twice: with [`Scalar`] (portable, always compiled and
//! tested) and, on x86-64 CPUs that have them, with [`Bmi2`], inside a
//! function compiled with `avx2`, `bmi1`, `bmi2`, `popcnt` and `lzcnt`
//! enabled. There the gathers use `pext`/`pdep` and the element-wise loops
//! over the 27 digit-band words are vectorised with AVX2.

use super::tables::TRIAD_LOW;

/// Bit gathering and scattering.
pub(crate) trait Bits: Copy {
    /// Gather the bits of `x` selected by `mask` into the low bits (`pext`).
    fn gather(self, x: u32, mask: u32) -> u32;
    /// Scatter the low bits of `x` to the positions selected by `mask` (`pdep`).
    fn scatter(self, x: u32, mask: u32) -> u32;
    /// The 9-bit set of non-empty triads of a 27-bit band word.
    #[inline(always)]
    fn triads(self, v: u32) -> u32 {
        self.gather(v | (v >> 1) | (v >> 2), TRIAD_LOW)
    }
}

/// Portable implementation.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Scalar;

impl Bits for Scalar {
    #[inline(always)]
    fn gather(self, x: u32, mut mask: u32) -> u32 {
        let mut out = 0;
        let mut k = 0;
        while mask != 0 {
            let low = mask & mask.wrapping_neg();
            if x & low != 0 {
                out |= 1 << k;
            }
            k += 1;
            mask &= mask - 1;
        }
        out
    }

    #[inline(always)]
    fn scatter(self, x: u32, mut mask: u32) -> u32 {
        let mut out = 0;
        let mut k = 0;
        while mask != 0 {
            let low = mask & mask.wrapping_neg();
            if x & (1 << k) != 0 {
                out |= low;
            }
            k += 1;
            mask &= mask - 1;
        }
        out
    }

    #[inline(always)]
    fn triads(self, v: u32) -> u32 {
        // Fold each triad onto its low bit, then pack bits 0, 3, ..., 24.
        let y = (v | (v >> 1) | (v >> 2)) & TRIAD_LOW;
        // Bits 0, 3, 6 of a group times 0b10101 land on bits 4, 5, 6 (no
        // two partial products share a position, so there is no carry).
        let g0 = ((y & 0o111).wrapping_mul(0b10101) >> 4) & 7;
        let g1 = (((y >> 9) & 0o111).wrapping_mul(0b10101) >> 4) & 7;
        let g2 = (((y >> 18) & 0o111).wrapping_mul(0b10101) >> 4) & 7;
        g0 | (g1 << 3) | (g2 << 6)
    }
}

/// A witness that the CPU has BMI2 and AVX2: only [`Bmi2::detect`] makes one.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Bmi2 {
    _private: (),
}

impl Bmi2 {
    /// `Some` when the running CPU supports every feature [`run_simd`] enables.
    pub(crate) fn detect() -> Option<Bmi2> {
        #[cfg(target_arch = "x86_64")]
        {
            if std::is_x86_feature_detected!("avx2")
                && std::is_x86_feature_detected!("bmi1")
                && std::is_x86_feature_detected!("bmi2")
                && std::is_x86_feature_detected!("popcnt")
                && std::is_x86_feature_detected!("lzcnt")
            {
                return Some(Bmi2 { _private: () });
            }
        }
        None
    }
}

impl Bits for Bmi2 {
    #[inline(always)]
    fn gather(self, x: u32, mask: u32) -> u32 {
        #[cfg(target_arch = "x86_64")]
        {
            // SAFETY: a `Bmi2` value exists only if `detect` saw BMI2 on this CPU.
            unsafe { std::arch::x86_64::_pext_u32(x, mask) }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            Scalar.gather(x, mask)
        }
    }

    #[inline(always)]
    fn scatter(self, x: u32, mask: u32) -> u32 {
        #[cfg(target_arch = "x86_64")]
        {
            // SAFETY: a `Bmi2` value exists only if `detect` saw BMI2 on this CPU.
            unsafe { std::arch::x86_64::_pdep_u32(x, mask) }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            Scalar.scatter(x, mask)
        }
    }
}

/// Run the search core with the SIMD/BMI2 primitives, compiled for AVX2.
#[cfg(target_arch = "x86_64")]
pub(crate) fn run_simd(w: Bmi2, job: super::search::Job<'_>) -> super::search::Outcome {
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")]
    fn inner(w: Bmi2, job: super::search::Job<'_>) -> super::search::Outcome {
        super::search::run(w, job)
    }
    // SAFETY: `w` proves `Bmi2::detect` found avx2, bmi1, bmi2, popcnt and
    // lzcnt on this CPU, which are exactly the features `inner` enables.
    unsafe { inner(w, job) }
}

/// Without x86-64 there is no SIMD path; the witness can never be made.
#[cfg(not(target_arch = "x86_64"))]
pub(crate) fn run_simd(w: Bmi2, job: super::search::Job<'_>) -> super::search::Outcome {
    super::search::run(w, job)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn slow_triads(v: u32) -> u32 {
        (0..9)
            .filter(|i| (v >> (3 * i)) & 7 != 0)
            .map(|i| 1 << i)
            .sum()
    }

    #[test]
    fn scalar_triads_match_definition() {
        let mut x: u32 = 0x1234_5678;
        for _ in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            let v = x & super::super::tables::BAND;
            assert_eq!(Scalar.triads(v), slow_triads(v), "{v:#x}");
            let m = x.rotate_left(7);
            let g = Scalar.gather(v, m);
            assert_eq!(Scalar.scatter(g, m), v & m);
            if let Some(b) = Bmi2::detect() {
                assert_eq!(b.triads(v), slow_triads(v));
                assert_eq!(b.gather(v, m), g);
                assert_eq!(b.scatter(g, m), v & m);
            }
        }
    }
}
