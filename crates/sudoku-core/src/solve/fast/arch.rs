//! The 4-lane vector type the solver core is generic over, and the only
//! `unsafe` code of the `fast` method.
//!
//! One vector holds the three band words of a digit (lane 3 is padding).
//! The core ([`super::search::run`]) is written once, generic over
//! [`Lanes`], and instantiated twice: with [`Portable`] (plain Rust on
//! `[u32; 4]`, any CPU, always compiled and tested) and, on x86-64 CPUs that
//! have AVX2 (detected at run time), with [`Sse`]: `std::arch` 128-bit
//! intrinsics inside a function compiled with `avx2` (so VEX-encoded
//! three-operand forms), `bmi1`, `bmi2`, `popcnt` and `lzcnt` enabled.

/// Operations on four `u32` lanes.
pub(crate) trait Lanes: Copy {
    /// The vector type.
    type V: Copy;
    fn load(self, a: &[u32; 4]) -> Self::V;
    fn store(self, v: Self::V, a: &mut [u32; 4]);
    fn splat(self, x: u32) -> Self::V;
    fn and(self, a: Self::V, b: Self::V) -> Self::V;
    fn or(self, a: Self::V, b: Self::V) -> Self::V;
    fn xor(self, a: Self::V, b: Self::V) -> Self::V;
    /// `!a & b`.
    fn andnot(self, a: Self::V, b: Self::V) -> Self::V;
    fn shr<const N: i32>(self, a: Self::V) -> Self::V;
    fn shl<const N: i32>(self, a: Self::V) -> Self::V;
    /// Lane-wise `a - 1` (wrapping).
    fn dec(self, a: Self::V) -> Self::V;
    /// All ones in lanes equal to zero, zero elsewhere.
    fn is_zero_mask(self, a: Self::V) -> Self::V;
    /// Bands rotated by one: lane i gets lane (i + 1) % 3; lane 3 stays.
    fn rot1(self, a: Self::V) -> Self::V;
    /// Bands rotated by two: lane i gets lane (i + 2) % 3; lane 3 stays.
    fn rot2(self, a: Self::V) -> Self::V;
    /// Whether every lane is zero.
    fn all_zero(self, a: Self::V) -> bool;
    /// Whether any of lanes 0..3 is zero (lane 3 ignored).
    fn any_zero3(self, a: Self::V) -> bool;
    /// Whether `a == b` in every lane.
    fn same(self, a: Self::V, b: Self::V) -> bool;
}

/// Portable implementation on arrays.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Portable;

#[inline(always)]
fn map(a: [u32; 4], f: impl Fn(u32) -> u32) -> [u32; 4] {
    [f(a[0]), f(a[1]), f(a[2]), f(a[3])]
}

#[inline(always)]
fn zip(a: [u32; 4], b: [u32; 4], f: impl Fn(u32, u32) -> u32) -> [u32; 4] {
    [f(a[0], b[0]), f(a[1], b[1]), f(a[2], b[2]), f(a[3], b[3])]
}

impl Lanes for Portable {
    type V = [u32; 4];
    #[inline(always)]
    fn load(self, a: &[u32; 4]) -> [u32; 4] {
        *a
    }
    #[inline(always)]
    fn store(self, v: [u32; 4], a: &mut [u32; 4]) {
        *a = v;
    }
    #[inline(always)]
    fn splat(self, x: u32) -> [u32; 4] {
        [x; 4]
    }
    #[inline(always)]
    fn and(self, a: [u32; 4], b: [u32; 4]) -> [u32; 4] {
        zip(a, b, |x, y| x & y)
    }
    #[inline(always)]
    fn or(self, a: [u32; 4], b: [u32; 4]) -> [u32; 4] {
        zip(a, b, |x, y| x | y)
    }
    #[inline(always)]
    fn xor(self, a: [u32; 4], b: [u32; 4]) -> [u32; 4] {
        zip(a, b, |x, y| x ^ y)
    }
    #[inline(always)]
    fn andnot(self, a: [u32; 4], b: [u32; 4]) -> [u32; 4] {
        zip(a, b, |x, y| !x & y)
    }
    #[inline(always)]
    fn shr<const N: i32>(self, a: [u32; 4]) -> [u32; 4] {
        map(a, |x| x >> N)
    }
    #[inline(always)]
    fn shl<const N: i32>(self, a: [u32; 4]) -> [u32; 4] {
        map(a, |x| x << N)
    }
    #[inline(always)]
    fn dec(self, a: [u32; 4]) -> [u32; 4] {
        map(a, |x| x.wrapping_sub(1))
    }
    #[inline(always)]
    fn is_zero_mask(self, a: [u32; 4]) -> [u32; 4] {
        map(a, |x| if x == 0 { u32::MAX } else { 0 })
    }
    #[inline(always)]
    fn rot1(self, a: [u32; 4]) -> [u32; 4] {
        [a[1], a[2], a[0], a[3]]
    }
    #[inline(always)]
    fn rot2(self, a: [u32; 4]) -> [u32; 4] {
        [a[2], a[0], a[1], a[3]]
    }
    #[inline(always)]
    fn all_zero(self, a: [u32; 4]) -> bool {
        (a[0] | a[1] | a[2] | a[3]) == 0
    }
    #[inline(always)]
    fn any_zero3(self, a: [u32; 4]) -> bool {
        a[0] == 0 || a[1] == 0 || a[2] == 0
    }
    #[inline(always)]
    fn same(self, a: [u32; 4], b: [u32; 4]) -> bool {
        a == b
    }
}

/// A witness that the CPU has AVX2 (and BMI1/2, POPCNT, LZCNT): only
/// [`Sse::detect`] makes one, so holding one makes the intrinsics sound.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Sse {
    _private: (),
}

impl Sse {
    /// `Some` when the running CPU supports every feature [`run_simd`] enables.
    pub(crate) fn detect() -> Option<Sse> {
        #[cfg(target_arch = "x86_64")]
        {
            if std::is_x86_feature_detected!("avx2")
                && std::is_x86_feature_detected!("bmi1")
                && std::is_x86_feature_detected!("bmi2")
                && std::is_x86_feature_detected!("popcnt")
                && std::is_x86_feature_detected!("lzcnt")
            {
                return Some(Sse { _private: () });
            }
        }
        None
    }
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use std::arch::x86_64::*;

    use super::{Lanes, Sse};

    // SAFETY (for every method below): the SSE2/SSE4.1 intrinsics used need
    // those features, which every CPU with AVX2 has; a `Sse` value exists
    // only if `Sse::detect` saw AVX2 on the running CPU. Loads and stores go
    // through references to `[u32; 4]` (16 readable/writable bytes), with the
    // unaligned forms.
    impl Lanes for Sse {
        type V = __m128i;
        #[inline(always)]
        fn load(self, a: &[u32; 4]) -> __m128i {
            // SAFETY: see the impl comment; `a` is 16 valid bytes.
            unsafe { _mm_loadu_si128(a.as_ptr().cast()) }
        }
        #[inline(always)]
        fn store(self, v: __m128i, a: &mut [u32; 4]) {
            // SAFETY: see the impl comment; `a` is 16 writable bytes.
            unsafe { _mm_storeu_si128(a.as_mut_ptr().cast(), v) }
        }
        #[inline(always)]
        fn splat(self, x: u32) -> __m128i {
            // SAFETY: see the impl comment.
            unsafe { _mm_set1_epi32(x as i32) }
        }
        #[inline(always)]
        fn and(self, a: __m128i, b: __m128i) -> __m128i {
            // SAFETY: see the impl comment.
            unsafe { _mm_and_si128(a, b) }
        }
        #[inline(always)]
        fn or(self, a: __m128i, b: __m128i) -> __m128i {
            // SAFETY: see the impl comment.
            unsafe { _mm_or_si128(a, b) }
        }
        #[inline(always)]
        fn xor(self, a: __m128i, b: __m128i) -> __m128i {
            // SAFETY: see the impl comment.
            unsafe { _mm_xor_si128(a, b) }
        }
        #[inline(always)]
        fn andnot(self, a: __m128i, b: __m128i) -> __m128i {
            // SAFETY: see the impl comment.
            unsafe { _mm_andnot_si128(a, b) }
        }
        #[inline(always)]
        fn shr<const N: i32>(self, a: __m128i) -> __m128i {
            // SAFETY: see the impl comment.
            unsafe { _mm_srli_epi32::<N>(a) }
        }
        #[inline(always)]
        fn shl<const N: i32>(self, a: __m128i) -> __m128i {
            // SAFETY: see the impl comment.
            unsafe { _mm_slli_epi32::<N>(a) }
        }
        #[inline(always)]
        fn dec(self, a: __m128i) -> __m128i {
            // SAFETY: see the impl comment.
            unsafe { _mm_add_epi32(a, _mm_set1_epi32(-1)) }
        }
        #[inline(always)]
        fn is_zero_mask(self, a: __m128i) -> __m128i {
            // SAFETY: see the impl comment.
            unsafe { _mm_cmpeq_epi32(a, _mm_setzero_si128()) }
        }
        #[inline(always)]
        fn rot1(self, a: __m128i) -> __m128i {
            // lanes (1, 2, 0, 3)
            // SAFETY: see the impl comment.
            unsafe { _mm_shuffle_epi32::<0b11_00_10_01>(a) }
        }
        #[inline(always)]
        fn rot2(self, a: __m128i) -> __m128i {
            // lanes (2, 0, 1, 3)
            // SAFETY: see the impl comment.
            unsafe { _mm_shuffle_epi32::<0b11_01_00_10>(a) }
        }
        #[inline(always)]
        fn all_zero(self, a: __m128i) -> bool {
            // SAFETY: see the impl comment (SSE4.1 `ptest`).
            unsafe { _mm_testz_si128(a, a) != 0 }
        }
        #[inline(always)]
        fn any_zero3(self, a: __m128i) -> bool {
            // SAFETY: see the impl comment.
            unsafe { _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(a, _mm_setzero_si128()))) & 7 != 0 }
        }
        #[inline(always)]
        fn same(self, a: __m128i, b: __m128i) -> bool {
            // SAFETY: see the impl comment.
            unsafe { _mm_movemask_epi8(_mm_cmpeq_epi32(a, b)) == 0xffff }
        }
    }
}

/// Without x86-64 the witness can never be made; this keeps the types total.
#[cfg(not(target_arch = "x86_64"))]
impl Lanes for Sse {
    type V = [u32; 4];
    #[inline(always)]
    fn load(self, a: &[u32; 4]) -> [u32; 4] {
        Portable.load(a)
    }
    #[inline(always)]
    fn store(self, v: [u32; 4], a: &mut [u32; 4]) {
        Portable.store(v, a)
    }
    #[inline(always)]
    fn splat(self, x: u32) -> [u32; 4] {
        Portable.splat(x)
    }
    #[inline(always)]
    fn and(self, a: [u32; 4], b: [u32; 4]) -> [u32; 4] {
        Portable.and(a, b)
    }
    #[inline(always)]
    fn or(self, a: [u32; 4], b: [u32; 4]) -> [u32; 4] {
        Portable.or(a, b)
    }
    #[inline(always)]
    fn xor(self, a: [u32; 4], b: [u32; 4]) -> [u32; 4] {
        Portable.xor(a, b)
    }
    #[inline(always)]
    fn andnot(self, a: [u32; 4], b: [u32; 4]) -> [u32; 4] {
        Portable.andnot(a, b)
    }
    #[inline(always)]
    fn shr<const N: i32>(self, a: [u32; 4]) -> [u32; 4] {
        Portable.shr::<N>(a)
    }
    #[inline(always)]
    fn shl<const N: i32>(self, a: [u32; 4]) -> [u32; 4] {
        Portable.shl::<N>(a)
    }
    #[inline(always)]
    fn dec(self, a: [u32; 4]) -> [u32; 4] {
        Portable.dec(a)
    }
    #[inline(always)]
    fn is_zero_mask(self, a: [u32; 4]) -> [u32; 4] {
        Portable.is_zero_mask(a)
    }
    #[inline(always)]
    fn rot1(self, a: [u32; 4]) -> [u32; 4] {
        Portable.rot1(a)
    }
    #[inline(always)]
    fn rot2(self, a: [u32; 4]) -> [u32; 4] {
        Portable.rot2(a)
    }
    #[inline(always)]
    fn all_zero(self, a: [u32; 4]) -> bool {
        Portable.all_zero(a)
    }
    #[inline(always)]
    fn any_zero3(self, a: [u32; 4]) -> bool {
        Portable.any_zero3(a)
    }
    #[inline(always)]
    fn same(self, a: [u32; 4], b: [u32; 4]) -> bool {
        Portable.same(a, b)
    }
}

/// Run the search core with the SIMD kernel, compiled for AVX2.
#[cfg(target_arch = "x86_64")]
pub(crate) fn run_simd(w: Sse, job: super::search::Job<'_>) -> super::search::Outcome {
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")]
    fn inner(w: Sse, job: super::search::Job<'_>) -> super::search::Outcome {
        super::search::run(w, job)
    }
    // SAFETY: `w` proves `Sse::detect` found avx2, bmi1, bmi2, popcnt and
    // lzcnt on this CPU, which are exactly the features `inner` enables.
    unsafe { inner(w, job) }
}

/// Without x86-64 there is no SIMD path; the witness can never be made.
#[cfg(not(target_arch = "x86_64"))]
pub(crate) fn run_simd(w: Sse, job: super::search::Job<'_>) -> super::search::Outcome {
    super::search::run(w, job)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sse_matches_portable() {
        let Some(s) = Sse::detect() else { return };
        let mut x: u32 = 0x1234_5678;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            if x % 5 == 0 { 0 } else { x }
        };
        for _ in 0..2000 {
            let a = [next(), next(), next(), next()];
            let b = [next(), next(), next(), next()];
            let (va, vb) = (s.load(&a), s.load(&b));
            let out = |v| {
                let mut o = [0u32; 4];
                s.store(v, &mut o);
                o
            };
            let p = Portable;
            assert_eq!(out(s.and(va, vb)), p.and(a, b));
            assert_eq!(out(s.or(va, vb)), p.or(a, b));
            assert_eq!(out(s.xor(va, vb)), p.xor(a, b));
            assert_eq!(out(s.andnot(va, vb)), p.andnot(a, b));
            assert_eq!(out(s.shr::<9>(va)), p.shr::<9>(a));
            assert_eq!(out(s.shl::<18>(va)), p.shl::<18>(a));
            assert_eq!(out(s.dec(va)), p.dec(a));
            assert_eq!(out(s.is_zero_mask(va)), p.is_zero_mask(a));
            assert_eq!(out(s.rot1(va)), p.rot1(a));
            assert_eq!(out(s.rot2(va)), p.rot2(a));
            assert_eq!(out(s.splat(a[0])), p.splat(a[0]));
            assert_eq!(s.all_zero(va), p.all_zero(a));
            assert_eq!(s.any_zero3(va), p.any_zero3(a));
            assert_eq!(s.same(va, vb), p.same(a, b));
            assert!(s.same(va, va));
        }
    }
}
