//! The vector type the solver core is generic over, and the only `unsafe`
//! code of the `fast` method.
//!
//! A digit's state is four `u32` lanes (its three band words and a zero
//! pad). A kernel packs `W` digits into one vector and handles the nine
//! digits as `N` vectors (12 digit slots at most; unused slots stay zero).
//! The core ([`super::search::run`]) is written once, generic over
//! [`Lanes`], and instantiated per kernel:
//!
//! - [`Portable`]: plain Rust on `[u32; 4]`, one digit per vector, any CPU;
//!   always compiled and tested.
//! - [`Avx2`]: `std::arch` 256-bit intrinsics, two digits per vector.
//! - [`Avx512`]: `std::arch` 512-bit intrinsics, the nine digits packed
//!   three lanes each into two vectors (its own layout hooks).
//!
//! The SIMD kernels run inside functions compiled with their target
//! features, chosen at run time by CPU detection.

/// Digit slots in a board (nine digits, padded to a multiple of four).
pub(crate) const SLOTS: usize = 12;

/// Operations on vectors of `4·W` `u32` lanes. Lane rotations act inside
/// each digit's four lanes.
pub(crate) trait Lanes: Copy {
    /// The vector type.
    type V: Copy;
    /// Digits per vector.
    const W: usize;
    /// Vectors for nine digits.
    const N: usize;
    /// Load `W` digits from `a[0..W]` (panics if `a` is shorter).
    fn load(self, a: &[[u32; 4]]) -> Self::V;
    /// Store `W` digits to `a[0..W]` (panics if `a` is shorter).
    fn store(self, v: Self::V, a: &mut [[u32; 4]]);
    fn splat(self, x: u32) -> Self::V;
    fn and(self, a: Self::V, b: Self::V) -> Self::V;
    fn or(self, a: Self::V, b: Self::V) -> Self::V;
    fn xor(self, a: Self::V, b: Self::V) -> Self::V;
    /// `!a & b`.
    fn andnot(self, a: Self::V, b: Self::V) -> Self::V;
    fn shr<const S: u32>(self, a: Self::V) -> Self::V;
    fn shl<const S: u32>(self, a: Self::V) -> Self::V;
    /// Lane-wise `a - 1` (wrapping).
    fn dec(self, a: Self::V) -> Self::V;
    /// Lane-wise `a + b` (wrapping).
    fn add_lanes(self, a: Self::V, b: Self::V) -> Self::V;
    /// All ones in lanes equal to zero, zero elsewhere.
    fn is_zero_mask(self, a: Self::V) -> Self::V;
    /// Bands rotated by one: lane i of each digit gets lane (i + 1) % 3; lane 3 stays.
    fn rot1(self, a: Self::V) -> Self::V;
    /// Bands rotated by two: lane i of each digit gets lane (i + 2) % 3; lane 3 stays.
    fn rot2(self, a: Self::V) -> Self::V;
    /// Digit slots rotated by `S` (1 or 2; only called with `S < W`).
    fn rot_slots<const S: u32>(self, a: Self::V) -> Self::V;
    /// Whether every lane is zero.
    fn all_zero(self, a: Self::V) -> bool;
    /// Whether `a == b` in every lane.
    fn same(self, a: Self::V, b: Self::V) -> bool;

    // Layout: by default digit `d` is slot `d % W` of vector `d / W`, four
    // lanes per slot. A kernel with another layout overrides all of these.

    /// The board's digit words, as `N` vectors.
    #[inline(always)]
    fn load_cand(self, cand: &[[u32; 4]; SLOTS], out: &mut [Self::V; 12]) {
        for g in 0..Self::N {
            out[g] = self.load(&cand[g * Self::W..]);
        }
    }
    /// Store `N` vectors back to the board's digit words.
    #[inline(always)]
    fn store_cand(self, v: &[Self::V], cand: &mut [[u32; 4]; SLOTS]) {
        for g in 0..Self::N {
            self.store(v[g], &mut cand[g * Self::W..]);
        }
    }
    /// A per-band set kept in four slots, repeated in every digit slot.
    #[inline(always)]
    fn load_solved(self, s: &[[u32; 4]; 4]) -> Self::V {
        self.load(s)
    }
    /// Store a per-band set (the same in every digit slot) to four slots.
    #[inline(always)]
    fn store_solved(self, v: Self::V, s: &mut [[u32; 4]; 4]) {
        let mut full = [[0u32; 4]; 4];
        self.store(v, &mut full);
        *s = [full[0]; 4];
    }
    /// All ones in the band lanes of real digits of vector `g`.
    #[inline(always)]
    fn valid(self, g: usize) -> Self::V {
        self.load(&super::board::VALID[g * Self::W..])
    }
    /// Bit 0 of each stack's column group in the band lanes of real digits.
    #[inline(always)]
    fn stacks(self, g: usize) -> Self::V {
        self.load(&super::board::STACKS[g * Self::W..])
    }
    /// All ones in digit `d`'s lanes if it lives in vector `g`, else zero.
    #[inline(always)]
    fn digit_mask(self, d: usize, g: usize) -> Self::V {
        self.load(&super::board::ONE_DIGIT[d][g * Self::W..])
    }
    /// All ones in band `b`'s lane of every digit.
    #[inline(always)]
    fn band_mask(self, b: usize) -> Self::V {
        self.load(&super::board::ONE_BAND[b])
    }
    /// For each digit `d + 1` and band `b`, the cells of the band holding
    /// it (bit `i` for cell `27·b + i`), from 81 cell bytes padded to 96
    /// with zeros.
    #[inline(always)]
    fn band_digits(self, cells: &[u8; 96]) -> [[u32; 3]; 9] {
        // Branch-free: an empty cell (0) goes to row 0, which is dropped;
        // a byte above 9 counts as 9.
        let mut by_digit = [[0u32; 3]; 10];
        for (b, band) in cells.chunks(27).take(3).enumerate() {
            for (i, &d) in band.iter().enumerate() {
                by_digit[usize::from(d.min(9))][b] |= 1u32 << i;
            }
        }
        let mut out = [[0u32; 3]; 9];
        out.copy_from_slice(&by_digit[1..]);
        out
    }
    /// Eight bytes from four 8-bit planes: byte `i` has bit `k` set when
    /// bit `i` of `planes[k]` is (bits above the eighth are ignored).
    #[inline(always)]
    fn spread_bytes(self, planes: [u32; 4]) -> u64 {
        let mut out = 0u64;
        for (k, &p) in planes.iter().enumerate() {
            // Byte i of `y` keeps bit i of the plane, then becomes 0 or 1.
            let y = (u64::from(p & 0xff) * 0x0101_0101_0101_0101) & 0x8040_2010_0804_0201;
            let one = ((y + 0x7f7f_7f7f_7f7f_7f7f) & 0x8080_8080_8080_8080) >> 7;
            out |= one << k;
        }
        out
    }
    /// The digits (bit `d`) with a candidate in cell (`band`, bit `pos`);
    /// `v` holds `cand` as loaded by [`Lanes::load_cand`].
    #[inline(always)]
    fn digits_at(self, v: &[Self::V; 12], cand: &[[u32; 4]; SLOTS], band: usize, pos: u32) -> u32 {
        let _ = v;
        let mut dm = 0u32;
        for (d, w) in cand.iter().take(9).enumerate() {
            dm |= ((w[band] >> pos) & 1) << d;
        }
        dm
    }
    /// Counters (at least one, two, three, four) summed over the digits of
    /// one vector, the totals in every digit's lanes.
    #[inline(always)]
    fn fold4(self, c: [Self::V; 4]) -> [Self::V; 4] {
        let mut c = c;
        if Self::W > 1 {
            let r = [
                self.rot_slots::<1>(c[0]),
                self.rot_slots::<1>(c[1]),
                self.rot_slots::<1>(c[2]),
                self.rot_slots::<1>(c[3]),
            ];
            c = merge4(self, c, r);
        }
        if Self::W > 2 {
            let r = [
                self.rot_slots::<2>(c[0]),
                self.rot_slots::<2>(c[1]),
                self.rot_slots::<2>(c[2]),
                self.rot_slots::<2>(c[3]),
            ];
            c = merge4(self, c, r);
        }
        c
    }
    /// Counters (at least one, two, three) summed over the digits of one
    /// vector, the totals in every digit's lanes.
    #[inline(always)]
    fn fold<const THRICE: bool>(self, c: [Self::V; 3]) -> [Self::V; 3] {
        let [mut o, mut t, mut h] = c;
        if Self::W > 1 {
            [o, t, h] = merge::<Self, THRICE>(
                self,
                [o, t, h],
                [
                    self.rot_slots::<1>(o),
                    self.rot_slots::<1>(t),
                    self.rot_slots::<1>(h),
                ],
            );
        }
        if Self::W > 2 {
            [o, t, h] = merge::<Self, THRICE>(
                self,
                [o, t, h],
                [
                    self.rot_slots::<2>(o),
                    self.rot_slots::<2>(t),
                    self.rot_slots::<2>(h),
                ],
            );
        }
        [o, t, h]
    }
}

/// Saturating counters ("at least 1, 2, 3, 4") of two disjoint digit sets
/// combined.
#[inline(always)]
pub(crate) fn merge4<L: Lanes>(l: L, a: [L::V; 4], b: [L::V; 4]) -> [L::V; 4] {
    let [o, t, h, f] = a;
    let [o2, t2, h2, f2] = b;
    let f = l.or(
        l.or(l.or(f, f2), l.and(h, o2)),
        l.or(l.and(t, t2), l.and(o, h2)),
    );
    let h = l.or(l.or(h, h2), l.or(l.and(t, o2), l.and(o, t2)));
    [l.or(o, o2), l.or(l.or(t, t2), l.and(o, o2)), h, f]
}

/// Counters of two disjoint digit sets combined.
#[inline(always)]
pub(crate) fn merge<L: Lanes, const THRICE: bool>(l: L, a: [L::V; 3], b: [L::V; 3]) -> [L::V; 3] {
    let [o, t, h] = a;
    let [o2, t2, h2] = b;
    let h = if THRICE {
        l.or(l.or(h, h2), l.or(l.and(t, o2), l.and(o, t2)))
    } else {
        h
    };
    [l.or(o, o2), l.or(l.or(t, t2), l.and(o, o2)), h]
}

/// Portable implementation on arrays, one digit per vector. (On x86-64
/// only the tests use it: `Scalar` runs `Sse2` there; the other kernels
/// are checked against this one.)
#[derive(Clone, Copy, Debug)]
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
pub(crate) struct Portable;

#[inline(always)]
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
fn map(a: [u32; 4], f: impl Fn(u32) -> u32) -> [u32; 4] {
    [f(a[0]), f(a[1]), f(a[2]), f(a[3])]
}

#[inline(always)]
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
fn zip(a: [u32; 4], b: [u32; 4], f: impl Fn(u32, u32) -> u32) -> [u32; 4] {
    [f(a[0], b[0]), f(a[1], b[1]), f(a[2], b[2]), f(a[3], b[3])]
}

impl Lanes for Portable {
    type V = [u32; 4];
    const W: usize = 1;
    const N: usize = 9;
    #[inline(always)]
    fn load(self, a: &[[u32; 4]]) -> [u32; 4] {
        a[0]
    }
    #[inline(always)]
    fn store(self, v: [u32; 4], a: &mut [[u32; 4]]) {
        a[0] = v;
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
    fn shr<const S: u32>(self, a: [u32; 4]) -> [u32; 4] {
        map(a, |x| x >> S)
    }
    #[inline(always)]
    fn shl<const S: u32>(self, a: [u32; 4]) -> [u32; 4] {
        map(a, |x| x << S)
    }
    #[inline(always)]
    fn dec(self, a: [u32; 4]) -> [u32; 4] {
        map(a, |x| x.wrapping_sub(1))
    }
    #[inline(always)]
    fn add_lanes(self, a: [u32; 4], b: [u32; 4]) -> [u32; 4] {
        [
            a[0].wrapping_add(b[0]),
            a[1].wrapping_add(b[1]),
            a[2].wrapping_add(b[2]),
            a[3].wrapping_add(b[3]),
        ]
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
    fn rot_slots<const S: u32>(self, a: [u32; 4]) -> [u32; 4] {
        a
    }
    #[inline(always)]
    fn all_zero(self, a: [u32; 4]) -> bool {
        (a[0] | a[1] | a[2] | a[3]) == 0
    }
    #[inline(always)]
    fn same(self, a: [u32; 4], b: [u32; 4]) -> bool {
        a == b
    }
}

/// A witness that the CPU has AVX2 (with BMI1/2, POPCNT, LZCNT): only
/// [`Avx2::detect`] makes one, so holding one makes its intrinsics sound.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Avx2 {
    _private: (),
}

/// A witness that the CPU has AVX-512F (and everything [`Avx2`] needs):
/// only [`Avx512::detect`] makes one.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Avx512 {
    _private: (),
}

impl Avx2 {
    /// `Some` when the running CPU supports every feature [`run_avx2`] enables.
    pub(crate) fn detect() -> Option<Avx2> {
        #[cfg(target_arch = "x86_64")]
        {
            if std::is_x86_feature_detected!("avx2")
                && std::is_x86_feature_detected!("bmi1")
                && std::is_x86_feature_detected!("bmi2")
                && std::is_x86_feature_detected!("popcnt")
                && std::is_x86_feature_detected!("lzcnt")
            {
                return Some(Avx2 { _private: () });
            }
        }
        None
    }
}

impl Avx512 {
    /// `Some` when the running CPU supports every feature [`run_avx512`] enables.
    pub(crate) fn detect() -> Option<Avx512> {
        #[cfg(target_arch = "x86_64")]
        {
            if cfg!(fast_avx512)
                && Avx2::detect().is_some()
                && std::is_x86_feature_detected!("avx512f")
            {
                return Some(Avx512 { _private: () });
            }
        }
        None
    }
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use std::arch::x86_64::*;

    use super::{Avx2, Lanes};

    // SAFETY (every `unsafe` block in this impl): the intrinsics need AVX2,
    // which the running CPU has because an `Avx2` value exists only after
    // `Avx2::detect` saw it. Loads and stores first take `&a[..2]` (bounds
    // checked), so they touch 32 valid bytes; the unaligned forms are used.
    impl Lanes for Avx2 {
        type V = __m256i;
        const W: usize = 2;
        const N: usize = 5;
        #[inline(always)]
        fn band_digits(self, cells: &[u8; 96]) -> [[u32; 3]; 9] {
            // SAFETY: see the impl comment.
            unsafe { band_digits_avx2(cells) }
        }
        #[inline(always)]
        fn spread_bytes(self, planes: [u32; 4]) -> u64 {
            // SAFETY: `Avx2::detect` checked BMI2 too.
            unsafe { spread_bytes_bmi2(planes) }
        }
        #[inline(always)]
        fn load(self, a: &[[u32; 4]]) -> __m256i {
            let a = &a[..2];
            // SAFETY: see the impl comment.
            unsafe { _mm256_loadu_si256(a.as_ptr().cast()) }
        }
        #[inline(always)]
        fn store(self, v: __m256i, a: &mut [[u32; 4]]) {
            let a = &mut a[..2];
            // SAFETY: see the impl comment.
            unsafe { _mm256_storeu_si256(a.as_mut_ptr().cast(), v) }
        }
        #[inline(always)]
        fn splat(self, x: u32) -> __m256i {
            // SAFETY: see the impl comment.
            unsafe { _mm256_set1_epi32(x as i32) }
        }
        #[inline(always)]
        fn and(self, a: __m256i, b: __m256i) -> __m256i {
            // SAFETY: see the impl comment.
            unsafe { _mm256_and_si256(a, b) }
        }
        #[inline(always)]
        fn or(self, a: __m256i, b: __m256i) -> __m256i {
            // SAFETY: see the impl comment.
            unsafe { _mm256_or_si256(a, b) }
        }
        #[inline(always)]
        fn xor(self, a: __m256i, b: __m256i) -> __m256i {
            // SAFETY: see the impl comment.
            unsafe { _mm256_xor_si256(a, b) }
        }
        #[inline(always)]
        fn andnot(self, a: __m256i, b: __m256i) -> __m256i {
            // SAFETY: see the impl comment.
            unsafe { _mm256_andnot_si256(a, b) }
        }
        #[inline(always)]
        fn shr<const S: u32>(self, a: __m256i) -> __m256i {
            // SAFETY: see the impl comment.
            unsafe { _mm256_srlv_epi32(a, _mm256_set1_epi32(S as i32)) }
        }
        #[inline(always)]
        fn shl<const S: u32>(self, a: __m256i) -> __m256i {
            // SAFETY: see the impl comment.
            unsafe { _mm256_sllv_epi32(a, _mm256_set1_epi32(S as i32)) }
        }
        #[inline(always)]
        fn add_lanes(self, a: __m256i, b: __m256i) -> __m256i {
            // SAFETY: see the impl comment.
            unsafe { _mm256_add_epi32(a, b) }
        }
        #[inline(always)]
        fn dec(self, a: __m256i) -> __m256i {
            // SAFETY: see the impl comment.
            unsafe { _mm256_add_epi32(a, _mm256_set1_epi32(-1)) }
        }
        #[inline(always)]
        fn is_zero_mask(self, a: __m256i) -> __m256i {
            // SAFETY: see the impl comment.
            unsafe { _mm256_cmpeq_epi32(a, _mm256_setzero_si256()) }
        }
        #[inline(always)]
        fn rot1(self, a: __m256i) -> __m256i {
            // lanes (1, 2, 0, 3) in each 128-bit half
            // SAFETY: see the impl comment.
            unsafe { _mm256_shuffle_epi32::<0b11_00_10_01>(a) }
        }
        #[inline(always)]
        fn rot2(self, a: __m256i) -> __m256i {
            // lanes (2, 0, 1, 3) in each 128-bit half
            // SAFETY: see the impl comment.
            unsafe { _mm256_shuffle_epi32::<0b11_01_00_10>(a) }
        }
        #[inline(always)]
        fn rot_slots<const S: u32>(self, a: __m256i) -> __m256i {
            // Two slots: rotating by one swaps the 128-bit halves.
            // SAFETY: see the impl comment.
            unsafe { _mm256_permute2x128_si256::<0x01>(a, a) }
        }
        #[inline(always)]
        fn all_zero(self, a: __m256i) -> bool {
            // SAFETY: see the impl comment.
            unsafe { _mm256_testz_si256(a, a) != 0 }
        }
        #[inline(always)]
        fn same(self, a: __m256i, b: __m256i) -> bool {
            // SAFETY: see the impl comment.
            unsafe {
                let x = _mm256_xor_si256(a, b);
                _mm256_testz_si256(x, x) != 0
            }
        }
    }

    /// [`Lanes::band_digits`] with byte compares: one 32-byte load per
    /// band, one compare and mask per digit.
    ///
    /// # Safety
    /// The CPU must have AVX2.
    #[inline(always)]
    pub(crate) unsafe fn band_digits_avx2(cells: &[u8; 96]) -> [[u32; 3]; 9] {
        let mut out = [[0u32; 3]; 9];
        for b in 0..3 {
            let band = &cells[27 * b..27 * b + 32];
            // SAFETY: `band` is 32 readable bytes (bounds checked above);
            // the caller guarantees AVX2.
            unsafe {
                let v = _mm256_loadu_si256(band.as_ptr().cast());
                for (d, o) in out.iter_mut().enumerate() {
                    let eq = _mm256_cmpeq_epi8(v, _mm256_set1_epi8(d as i8 + 1));
                    o[b] = (_mm256_movemask_epi8(eq) as u32) & ((1 << 27) - 1);
                }
            }
        }
        out
    }

    /// [`Lanes::spread_bytes`] with BMI2 bit deposits.
    ///
    /// # Safety
    /// The CPU must have BMI2.
    #[inline(always)]
    pub(crate) unsafe fn spread_bytes_bmi2(planes: [u32; 4]) -> u64 {
        let mut out = 0u64;
        for (k, &p) in planes.iter().enumerate() {
            // SAFETY: the caller guarantees BMI2.
            out |= unsafe { _pdep_u64(u64::from(p & 0xff), 0x0101_0101_0101_0101 << k) };
        }
        out
    }

    /// Run the search core with the AVX2 kernel.
    pub(crate) fn run_avx2(
        w: Avx2,
        job: super::super::search::Job<'_>,
    ) -> super::super::search::Outcome {
        #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")]
        fn inner(w: Avx2, job: super::super::search::Job<'_>) -> super::super::search::Outcome {
            super::super::search::run(w, job)
        }
        // SAFETY: `w` proves `Avx2::detect` found avx2, bmi1, bmi2, popcnt
        // and lzcnt on this CPU, which are exactly the features `inner` enables.
        unsafe { inner(w, job) }
    }
}

#[cfg(target_arch = "x86_64")]
pub(crate) use x86::run_avx2;

/// One digit per 128-bit SSE2 vector: the layout and the operations of the
/// WebAssembly SIMD128 kernel (`super::wasm`) on x86-64's baseline
/// instruction set, so no CPU detection. The `Scalar` kernel on x86-64; it
/// is also the native measure of what one-digit-per-vector code costs
/// against the WebAssembly build of the same kernel (BENCHMARKS.md).
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy, Debug)]
pub(crate) struct Sse2;

#[cfg(target_arch = "x86_64")]
// From Rust 1.87 the SSE2 intrinsics are safe to call where SSE2 is
// enabled; this crate's minimum Rust version still needs `unsafe` here.
#[allow(unused_unsafe)]
mod sse2 {
    use std::arch::x86_64::*;

    use super::{Lanes, Sse2};

    // SAFETY (every `unsafe` block in this impl): SSE2 is part of the
    // x86-64 baseline, so every x86-64 CPU runs these intrinsics. Loads and
    // stores first take `&a[..1]` (bounds checked), so they touch 16 valid
    // bytes; the unaligned forms are used.
    impl Lanes for Sse2 {
        type V = __m128i;
        const W: usize = 1;
        const N: usize = 9;
        #[inline(always)]
        fn load(self, a: &[[u32; 4]]) -> __m128i {
            let a = &a[..1];
            // SAFETY: see the impl comment.
            unsafe { _mm_loadu_si128(a.as_ptr().cast()) }
        }
        #[inline(always)]
        fn store(self, v: __m128i, a: &mut [[u32; 4]]) {
            let a = &mut a[..1];
            // SAFETY: see the impl comment.
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
        fn shr<const S: u32>(self, a: __m128i) -> __m128i {
            // (a constant count: compiled to the immediate form)
            // SAFETY: see the impl comment.
            unsafe { _mm_srl_epi32(a, _mm_cvtsi32_si128(S as i32)) }
        }
        #[inline(always)]
        fn shl<const S: u32>(self, a: __m128i) -> __m128i {
            // SAFETY: see the impl comment.
            unsafe { _mm_sll_epi32(a, _mm_cvtsi32_si128(S as i32)) }
        }
        #[inline(always)]
        fn add_lanes(self, a: __m128i, b: __m128i) -> __m128i {
            // SAFETY: see the impl comment.
            unsafe { _mm_add_epi32(a, b) }
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
        fn rot_slots<const S: u32>(self, a: __m128i) -> __m128i {
            // one digit per vector: never called (`S < W` fails)
            a
        }
        #[inline(always)]
        fn all_zero(self, a: __m128i) -> bool {
            // no PTEST before SSE4.1: every byte compared with zero
            // SAFETY: see the impl comment.
            unsafe { _mm_movemask_epi8(_mm_cmpeq_epi8(a, _mm_setzero_si128())) == 0xffff }
        }
        #[inline(always)]
        fn same(self, a: __m128i, b: __m128i) -> bool {
            // SAFETY: see the impl comment.
            unsafe { _mm_movemask_epi8(_mm_cmpeq_epi8(a, b)) == 0xffff }
        }
        /// Byte compares: two 16-byte loads per band, one compare and bit
        /// mask per digit and half.
        #[inline(always)]
        fn band_digits(self, cells: &[u8; 96]) -> [[u32; 3]; 9] {
            let mut out = [[0u32; 3]; 9];
            for b in 0..3 {
                let band = &cells[27 * b..27 * b + 32];
                // SAFETY: see the impl comment (`band` is 32 bytes).
                unsafe {
                    // a byte above 9 counts as 9, as in the portable kernel
                    let nine = _mm_set1_epi8(9);
                    let lo = _mm_min_epu8(_mm_loadu_si128(band.as_ptr().cast()), nine);
                    let hi = _mm_min_epu8(_mm_loadu_si128(band[16..].as_ptr().cast()), nine);
                    for (d, o) in out.iter_mut().enumerate() {
                        let digit = _mm_set1_epi8(d as i8 + 1);
                        let l = _mm_movemask_epi8(_mm_cmpeq_epi8(lo, digit)) as u32;
                        let h = _mm_movemask_epi8(_mm_cmpeq_epi8(hi, digit)) as u32;
                        o[b] = (l | (h << 16)) & ((1 << 27) - 1);
                    }
                }
            }
            out
        }
    }
}
#[cfg(all(target_arch = "x86_64", fast_avx512))]
pub(crate) use x86_512::run_avx512;

/// The AVX-512 kernel; built only by compilers that have the AVX-512
/// intrinsics (Rust 1.89, detected by the build script), newer than the MSRV.
#[cfg(all(target_arch = "x86_64", fast_avx512))]
#[allow(clippy::incompatible_msrv)]
mod x86_512 {
    use std::arch::x86_64::*;

    use super::{Avx512, Lanes};

    /// Lane tables of the packed layout: digit `d < 5` in lanes `3d..3d+3`
    /// of vector 0, digit `d >= 5` in lanes `3(d-5)..` of vector 1; lane 15
    /// (and lanes 12..15 of vector 1) zero.
    struct Tables {
        rot1: [u32; 16],
        rot2: [u32; 16],
        slot1: [u32; 16],
        slot2: [u32; 16],
        slot4: [u32; 16],
        load0: [u32; 16],
        load1: [u32; 16],
        store0: [u32; 16],
        store1: [u32; 16],
        store2: [u32; 16],
        solved_in: [u32; 16],
        solved_out: [u32; 16],
        valid: [[u32; 16]; 2],
        stacks: [[u32; 16]; 2],
        band: [[u32; 16]; 3],
        digit: [[[u32; 16]; 2]; 9],
    }

    const fn tables() -> Tables {
        let mut t = Tables {
            rot1: [0; 16],
            rot2: [0; 16],
            slot1: [0; 16],
            slot2: [0; 16],
            slot4: [0; 16],
            load0: [0; 16],
            load1: [0; 16],
            store0: [0; 16],
            store1: [0; 16],
            store2: [0; 16],
            solved_in: [0; 16],
            solved_out: [0; 16],
            valid: [[0; 16]; 2],
            stacks: [[0; 16]; 2],
            band: [[0; 16]; 3],
            digit: [[[0; 16]; 2]; 9],
        };
        let mut i = 0;
        while i < 16 {
            let (k, j) = (i / 3, i % 3);
            if i < 15 {
                t.rot1[i] = (3 * k + (j + 1) % 3) as u32;
                t.rot2[i] = (3 * k + (j + 2) % 3) as u32;
                t.slot1[i] = ((i + 3) % 15) as u32;
                t.slot2[i] = ((i + 6) % 15) as u32;
                t.slot4[i] = ((i + 12) % 15) as u32;
                // vector 0 from quads 0..4 (a) and 4..8 (b): digit k band j
                t.load0[i] = if k < 4 { 4 * k + j } else { 16 + j } as u32;
                // vector 1 (digits 5..9) from quads 4..8 (a) and 8..12 (b)
                t.load1[i] = if k < 3 {
                    4 * (k + 1) + j
                } else if k == 3 {
                    16 + j
                } else {
                    3
                } as u32;
                t.solved_in[i] = j as u32;
                t.band[j][i] = u32::MAX;
                t.valid[0][i] = u32::MAX;
                t.stacks[0][i] = 0o111;
                if k < 4 {
                    t.valid[1][i] = u32::MAX;
                    t.stacks[1][i] = 0o111;
                }
                if k < 5 {
                    t.digit[k][0][i] = u32::MAX;
                }
                if k < 4 {
                    t.digit[k + 5][1][i] = u32::MAX;
                }
            } else {
                t.rot1[i] = 15;
                t.rot2[i] = 15;
                t.slot1[i] = 15;
                t.slot2[i] = 15;
                t.slot4[i] = 15;
                t.load0[i] = 3;
                t.load1[i] = 3;
                t.solved_in[i] = 3;
            }
            // stores: quad q lane j (j < 3) of digit 4·part + q
            let (q, j) = (i / 4, i % 4);
            let pad0 = 15u32; // vector 0, lane 15: always zero
            let pad1 = 31u32; // vector 1, lane 15: always zero
            t.store0[i] = if j < 3 { (3 * q + j) as u32 } else { pad0 };
            // digits 4..8: digit 4 from vector 0, 5..8 from vector 1
            t.store1[i] = if j == 3 {
                pad0
            } else if q == 0 {
                (12 + j) as u32
            } else {
                (16 + 3 * (q - 1) + j) as u32
            };
            // digits 8..12: digit 8 from vector 1, the rest zero
            t.store2[i] = if j < 3 && q == 0 {
                (16 + 9 + j) as u32
            } else {
                pad1
            };
            t.solved_out[i] = if j < 3 { j as u32 } else { 15 };
            i += 1;
        }
        t
    }

    static T: Tables = tables();

    #[inline(always)]
    fn idx(a: &[u32; 16]) -> __m512i {
        // SAFETY: `a` is 64 readable bytes; AVX-512F is present (see below).
        unsafe { _mm512_loadu_si512(a.as_ptr().cast()) }
    }

    // SAFETY (every `unsafe` block in this impl and in `idx`): the
    // intrinsics need AVX-512F, which the running CPU has because an
    // `Avx512` value exists only after `Avx512::detect` saw it (and `idx`
    // is only called from these methods). Loads and stores take bounds-
    // checked slices of at least 64 bytes first; the unaligned forms are
    // used.
    //
    // This kernel packs the nine digits into two vectors, three lanes each
    // (see `Tables`), instead of four lanes per digit: two vectors per
    // step instead of three.
    impl Lanes for Avx512 {
        type V = __m512i;
        const W: usize = 5;
        const N: usize = 2;
        #[inline(always)]
        fn band_digits(self, cells: &[u8; 96]) -> [[u32; 3]; 9] {
            // SAFETY: an `Avx512` value exists only after `Avx512::detect`
            // saw AVX2 too (through `Avx2::detect`).
            unsafe { super::x86::band_digits_avx2(cells) }
        }
        #[inline(always)]
        fn spread_bytes(self, planes: [u32; 4]) -> u64 {
            // SAFETY: `Avx512::detect` checked BMI2 too (through `Avx2::detect`).
            unsafe { super::x86::spread_bytes_bmi2(planes) }
        }
        #[inline(always)]
        fn load_cand(self, cand: &[[u32; 4]; super::SLOTS], out: &mut [__m512i; 12]) {
            let (a, b, c) = (
                self.load(&cand[0..4]),
                self.load(&cand[4..8]),
                self.load(&cand[8..12]),
            );
            // SAFETY: see the impl comment.
            unsafe {
                out[0] = _mm512_permutex2var_epi32(a, idx(&T.load0), b);
                out[1] = _mm512_permutex2var_epi32(b, idx(&T.load1), c);
            }
        }
        #[inline(always)]
        fn store_cand(self, v: &[__m512i], cand: &mut [[u32; 4]; super::SLOTS]) {
            // SAFETY: see the impl comment.
            let (q0, q1, q2) = unsafe {
                (
                    _mm512_permutex2var_epi32(v[0], idx(&T.store0), v[1]),
                    _mm512_permutex2var_epi32(v[0], idx(&T.store1), v[1]),
                    _mm512_permutex2var_epi32(v[0], idx(&T.store2), v[1]),
                )
            };
            self.store(q0, &mut cand[0..4]);
            self.store(q1, &mut cand[4..8]);
            self.store(q2, &mut cand[8..12]);
        }
        #[inline(always)]
        fn load_solved(self, s: &[[u32; 4]; 4]) -> __m512i {
            // SAFETY: see the impl comment.
            unsafe { _mm512_permutexvar_epi32(idx(&T.solved_in), self.load(s)) }
        }
        #[inline(always)]
        fn store_solved(self, v: __m512i, s: &mut [[u32; 4]; 4]) {
            // SAFETY: see the impl comment.
            let q = unsafe { _mm512_permutexvar_epi32(idx(&T.solved_out), v) };
            self.store(q, s);
        }
        #[inline(always)]
        fn valid(self, g: usize) -> __m512i {
            idx(&T.valid[g])
        }
        #[inline(always)]
        fn stacks(self, g: usize) -> __m512i {
            idx(&T.stacks[g])
        }
        #[inline(always)]
        fn digit_mask(self, d: usize, g: usize) -> __m512i {
            idx(&T.digit[d][g])
        }
        #[inline(always)]
        fn band_mask(self, b: usize) -> __m512i {
            idx(&T.band[b])
        }
        #[inline(always)]
        fn digits_at(
            self,
            v: &[__m512i; 12],
            _: &[[u32; 4]; super::SLOTS],
            band: usize,
            pos: u32,
        ) -> u32 {
            let cell = self.and(self.splat(1 << pos), self.band_mask(band));
            // SAFETY: see the impl comment; `_pext_u32` needs BMI2, which
            // `Avx512::detect` also checks (through `Avx2::detect`) and the
            // kernel's function enables.
            unsafe {
                let m0 = u32::from(_mm512_test_epi32_mask(v[0], cell));
                let m1 = u32::from(_mm512_test_epi32_mask(v[1], cell));
                _pext_u32(m0, 0o11111 << band) | (_pext_u32(m1, 0o1111 << band) << 5)
            }
        }
        #[inline(always)]
        fn fold4(self, c: [__m512i; 4]) -> [__m512i; 4] {
            // SAFETY: see the impl comment.
            let perm = |t: &[u32; 16], x: [__m512i; 4]| unsafe {
                let i = idx(t);
                [
                    _mm512_permutexvar_epi32(i, x[0]),
                    _mm512_permutexvar_epi32(i, x[1]),
                    _mm512_permutexvar_epi32(i, x[2]),
                    _mm512_permutexvar_epi32(i, x[3]),
                ]
            };
            let s1 = super::merge4(self, c, perm(&T.slot1, c));
            let s2 = super::merge4(self, s1, perm(&T.slot2, s1));
            super::merge4(self, s2, perm(&T.slot4, c))
        }
        #[inline(always)]
        fn fold<const THRICE: bool>(self, c: [__m512i; 3]) -> [__m512i; 3] {
            // SAFETY: see the impl comment.
            let perm = |t: &[u32; 16], x: [__m512i; 3]| unsafe {
                let i = idx(t);
                [
                    _mm512_permutexvar_epi32(i, x[0]),
                    _mm512_permutexvar_epi32(i, x[1]),
                    _mm512_permutexvar_epi32(i, x[2]),
                ]
            };
            let s1 = super::merge::<Self, THRICE>(self, c, perm(&T.slot1, c));
            let s2 = super::merge::<Self, THRICE>(self, s1, perm(&T.slot2, s1));
            super::merge::<Self, THRICE>(self, s2, perm(&T.slot4, c))
        }
        #[inline(always)]
        fn load(self, a: &[[u32; 4]]) -> __m512i {
            let a = &a[..4];
            // SAFETY: see the impl comment.
            unsafe { _mm512_loadu_si512(a.as_ptr().cast()) }
        }
        #[inline(always)]
        fn store(self, v: __m512i, a: &mut [[u32; 4]]) {
            let a = &mut a[..4];
            // SAFETY: see the impl comment.
            unsafe { _mm512_storeu_si512(a.as_mut_ptr().cast(), v) }
        }
        #[inline(always)]
        fn splat(self, x: u32) -> __m512i {
            // SAFETY: see the impl comment.
            unsafe { _mm512_set1_epi32(x as i32) }
        }
        #[inline(always)]
        fn and(self, a: __m512i, b: __m512i) -> __m512i {
            // SAFETY: see the impl comment.
            unsafe { _mm512_and_si512(a, b) }
        }
        #[inline(always)]
        fn or(self, a: __m512i, b: __m512i) -> __m512i {
            // SAFETY: see the impl comment.
            unsafe { _mm512_or_si512(a, b) }
        }
        #[inline(always)]
        fn xor(self, a: __m512i, b: __m512i) -> __m512i {
            // SAFETY: see the impl comment.
            unsafe { _mm512_xor_si512(a, b) }
        }
        #[inline(always)]
        fn andnot(self, a: __m512i, b: __m512i) -> __m512i {
            // SAFETY: see the impl comment.
            unsafe { _mm512_andnot_si512(a, b) }
        }
        #[inline(always)]
        fn shr<const S: u32>(self, a: __m512i) -> __m512i {
            // SAFETY: see the impl comment.
            unsafe { _mm512_srlv_epi32(a, _mm512_set1_epi32(S as i32)) }
        }
        #[inline(always)]
        fn shl<const S: u32>(self, a: __m512i) -> __m512i {
            // SAFETY: see the impl comment.
            unsafe { _mm512_sllv_epi32(a, _mm512_set1_epi32(S as i32)) }
        }
        #[inline(always)]
        fn add_lanes(self, a: __m512i, b: __m512i) -> __m512i {
            // SAFETY: see the impl comment.
            unsafe { _mm512_add_epi32(a, b) }
        }
        #[inline(always)]
        fn dec(self, a: __m512i) -> __m512i {
            // SAFETY: see the impl comment.
            unsafe { _mm512_add_epi32(a, _mm512_set1_epi32(-1)) }
        }
        #[inline(always)]
        fn is_zero_mask(self, a: __m512i) -> __m512i {
            // SAFETY: see the impl comment.
            unsafe {
                let k = _mm512_cmpeq_epi32_mask(a, _mm512_setzero_si512());
                _mm512_maskz_mov_epi32(k, _mm512_set1_epi32(-1))
            }
        }
        #[inline(always)]
        fn rot1(self, a: __m512i) -> __m512i {
            // SAFETY: see the impl comment.
            unsafe { _mm512_permutexvar_epi32(idx(&T.rot1), a) }
        }
        #[inline(always)]
        fn rot2(self, a: __m512i) -> __m512i {
            // SAFETY: see the impl comment.
            unsafe { _mm512_permutexvar_epi32(idx(&T.rot2), a) }
        }
        #[inline(always)]
        fn rot_slots<const S: u32>(self, a: __m512i) -> __m512i {
            // Not used: `fold` is overridden for this layout.
            a
        }
        #[inline(always)]
        fn all_zero(self, a: __m512i) -> bool {
            // SAFETY: see the impl comment.
            unsafe { _mm512_test_epi32_mask(a, a) == 0 }
        }
        #[inline(always)]
        fn same(self, a: __m512i, b: __m512i) -> bool {
            // SAFETY: see the impl comment.
            unsafe { _mm512_cmpneq_epi32_mask(a, b) == 0 }
        }
    }

    /// Run the search core with the AVX-512 kernel.
    pub(crate) fn run_avx512(
        w: Avx512,
        job: super::super::search::Job<'_>,
    ) -> super::super::search::Outcome {
        #[target_feature(enable = "avx512f,avx2,bmi1,bmi2,popcnt,lzcnt")]
        fn inner(w: Avx512, job: super::super::search::Job<'_>) -> super::super::search::Outcome {
            super::super::search::run(w, job)
        }
        // SAFETY: `w` proves `Avx512::detect` found avx512f and the AVX2 set
        // on this CPU, which are exactly the features `inner` enables.
        unsafe { inner(w, job) }
    }
}

/// Without the AVX-512 build the witness can never be made; the AVX2-free
/// portable kernel stands in so the types stay total.
#[cfg(all(target_arch = "x86_64", not(fast_avx512)))]
pub(crate) fn run_avx512(_: Avx512, job: super::search::Job<'_>) -> super::search::Outcome {
    super::search::run(Portable, job)
}

/// Without x86-64 the witnesses can never be made; the portable kernel
/// stands in so the types stay total.
#[cfg(not(target_arch = "x86_64"))]
pub(crate) fn run_avx2(_: Avx2, job: super::search::Job<'_>) -> super::search::Outcome {
    super::search::run(Portable, job)
}

/// See [`run_avx2`].
#[cfg(not(target_arch = "x86_64"))]
pub(crate) fn run_avx512(_: Avx512, job: super::search::Job<'_>) -> super::search::Outcome {
    super::search::run(Portable, job)
}

#[cfg(test)]
#[allow(clippy::needless_range_loop)]
mod tests {
    use super::*;

    fn check<L: Lanes>(l: L) {
        let mut x: u32 = 0x1234_5678;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            if x % 5 == 0 { 0 } else { x }
        };
        for _ in 0..2000 {
            let mut a = [[0u32; 4]; 4];
            let mut b = [[0u32; 4]; 4];
            for i in 0..L::W {
                a[i] = [next(), next(), next(), next()];
                b[i] = [next(), next(), next(), next()];
            }
            let (va, vb) = (l.load(&a), l.load(&b));
            let out = |v| {
                let mut o = [[0u32; 4]; 4];
                l.store(v, &mut o);
                o
            };
            let p = Portable;
            let each = |f: &dyn Fn([u32; 4], [u32; 4]) -> [u32; 4]| {
                let mut o = [[0u32; 4]; 4];
                for i in 0..L::W {
                    o[i] = f(a[i], b[i]);
                }
                o
            };
            assert_eq!(out(l.and(va, vb)), each(&|x, y| p.and(x, y)));
            assert_eq!(out(l.or(va, vb)), each(&|x, y| p.or(x, y)));
            assert_eq!(out(l.xor(va, vb)), each(&|x, y| p.xor(x, y)));
            assert_eq!(out(l.andnot(va, vb)), each(&|x, y| p.andnot(x, y)));
            assert_eq!(out(l.shr::<9>(va)), each(&|x, _| p.shr::<9>(x)));
            assert_eq!(out(l.shl::<18>(va)), each(&|x, _| p.shl::<18>(x)));
            assert_eq!(out(l.dec(va)), each(&|x, _| p.dec(x)));
            assert_eq!(out(l.is_zero_mask(va)), each(&|x, _| p.is_zero_mask(x)));
            assert_eq!(out(l.rot1(va)), each(&|x, _| p.rot1(x)));
            assert_eq!(out(l.rot2(va)), each(&|x, _| p.rot2(x)));
            assert_eq!(l.all_zero(va), (0..L::W).all(|i| p.all_zero(a[i])));
            let rot = |s: usize| {
                let mut o = [[0u32; 4]; 4];
                for i in 0..L::W {
                    o[i] = a[(i + s) % L::W];
                }
                o
            };
            if L::W > 1 {
                assert_eq!(out(l.rot_slots::<1>(va)), rot(1));
            }
            if L::W > 2 {
                assert_eq!(out(l.rot_slots::<2>(va)), rot(2));
            }
            assert_eq!(l.same(va, vb), a == b);
            assert!(l.same(va, va));
        }
    }

    #[test]
    fn kernels_match_portable() {
        check(Portable);
        #[cfg(target_arch = "x86_64")]
        check(Sse2);
        if let Some(k) = Avx2::detect() {
            check(k);
        }
        #[cfg(all(target_arch = "x86_64", fast_avx512))]
        if let Some(k) = Avx512::detect() {
            check_layout(k);
        }
        check_layout(Portable);
        #[cfg(target_arch = "x86_64")]
        check_layout(Sse2);
        if let Some(k) = Avx2::detect() {
            check_layout(k);
        }
    }

    /// Board round trip, lane rotations and digit folds through a kernel's
    /// own layout agree with the plain per-digit computation.
    fn check_layout<L: Lanes>(l: L) {
        let mut x: u32 = 0x2545_f491;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x & 0x7ff_ffff
        };
        for _ in 0..500 {
            let mut cand = [[0u32; 4]; SLOTS];
            for d in cand.iter_mut().take(9) {
                *d = [next(), next(), next(), 0];
            }
            let zero = l.splat(0);
            let mut v = [zero; 12];
            l.load_cand(&cand, &mut v);
            let mut back = [[0u32; 4]; SLOTS];
            l.store_cand(&v[..L::N], &mut back);
            assert_eq!(back, cand);
            // rotations of bands and shifts, per digit
            let mut r = [zero; 12];
            for g in 0..L::N {
                r[g] = l.xor(l.rot1(v[g]), l.shr::<3>(l.rot2(v[g])));
            }
            l.store_cand(&r[..L::N], &mut back);
            for d in 0..9 {
                let p = Portable;
                assert_eq!(back[d], p.xor(p.rot1(cand[d]), p.shr::<3>(p.rot2(cand[d]))));
            }
            // counters over all nine digits
            let (mut o, mut t, mut h) = (zero, zero, zero);
            for &w in &v[..L::N] {
                h = l.or(h, l.and(t, w));
                t = l.or(t, l.and(o, w));
                o = l.or(o, w);
            }
            let [o, t, h] = l.fold::<true>([o, t, h]);
            let (mut eo, mut et, mut eh) = ([0u32; 4], [0u32; 4], [0u32; 4]);
            for d in cand.iter().take(9) {
                for k in 0..4 {
                    eh[k] |= et[k] & d[k];
                    et[k] |= eo[k] & d[k];
                    eo[k] |= d[k];
                }
            }
            for (got, want) in [(o, eo), (t, et), (h, eh)] {
                let mut s = [[0u32; 4]; 4];
                l.store_solved(got, &mut s);
                assert_eq!(s[0], want);
            }
            // bytes from bit-planes
            let planes = [next(), next(), next(), next()];
            let got = l.spread_bytes(planes);
            for i in 0..8 {
                let want: u64 = (0..4).map(|k| u64::from((planes[k] >> i) & 1) << k).sum();
                assert_eq!((got >> (8 * i)) & 0xff, want, "{planes:x?} byte {i}");
            }
            // digit masks from cell bytes
            let mut cells = [0u8; 96];
            for c in cells.iter_mut().take(81) {
                *c = (next() % 10) as u8;
            }
            let want = Portable.band_digits(&cells);
            assert_eq!(l.band_digits(&cells), want);
            for (i, &c) in cells.iter().take(81).enumerate() {
                for d in 0..9 {
                    let set = want[d][i / 27] & (1 << (i % 27)) != 0;
                    assert_eq!(set, usize::from(c) == d + 1, "cell {i} digit {d}");
                }
            }
            // the digits of a cell
            for cell in [0usize, 13, 26, 27, 40, 53, 54, 67, 80] {
                let (b, pos) = (cell / 27, (cell % 27) as u32);
                let want: u32 = (0..9)
                    .filter(|&d| cand[d][b] & (1 << pos) != 0)
                    .map(|d| 1 << d)
                    .sum();
                assert_eq!(l.digits_at(&v, &cand, b, pos), want, "cell {cell}");
            }
            // masks
            let mut s = [[0u32; 4]; 4];
            l.store_solved(l.band_mask(1), &mut s);
            assert_eq!(s[0], [0, u32::MAX, 0, 0]);
            for d in 0..9 {
                let mut m = [zero; 12];
                for g in 0..L::N {
                    m[g] = l.digit_mask(d, g);
                }
                l.store_cand(&m[..L::N], &mut back);
                for (e, q) in back.iter().enumerate() {
                    let want = if e == d {
                        [u32::MAX, u32::MAX, u32::MAX, 0]
                    } else {
                        [0; 4]
                    };
                    assert_eq!(q[..3], want[..3], "digit {d} slot {e}");
                }
            }
        }
    }
}
