//! The 9×9 board the Sudoku Explainer ladder works on: values, candidate
//! masks, and the region tables in Explainer's order (blocks, rows, columns;
//! a region's cells in reading order).

use crate::Candidates;

/// Region kinds, numbered as Sudoku Explainer numbers them (its region type
/// index): block 0, row 1, column 2. Region `r` of kind `k` is `k * 9 + r`.
pub(crate) const BLOCK: usize = 0;
/// See [`BLOCK`].
pub(crate) const ROW: usize = 1;
/// See [`BLOCK`].
pub(crate) const COLUMN: usize = 2;

/// The cells of region `kind * 9 + i`, in reading order.
pub(crate) static REGION_CELLS: [[u8; 9]; 27] = region_cells();
/// The three regions of a cell: `[block, row, column]` as region ids.
pub(crate) static CELL_REGIONS: [[u8; 3]; 81] = cell_regions();
/// The index of a cell within each of its three regions `[block, row,
/// column]`.
pub(crate) static CELL_POS: [[u8; 3]; 81] = cell_pos();

const fn cell_pos() -> [[u8; 3]; 81] {
    let mut t = [[0u8; 3]; 81];
    let mut c = 0;
    while c < 81 {
        let (r, col) = (c / 9, c % 9);
        t[c] = [(r % 3 * 3 + col % 3) as u8, col as u8, r as u8];
        c += 1;
    }
    t
}

/// The 20 peers of a cell, ascending.
pub(crate) static PEERS: [[u8; 20]; 81] = peers();

const fn region_cells() -> [[u8; 9]; 27] {
    let mut t = [[0u8; 9]; 27];
    let mut i = 0;
    while i < 9 {
        let mut j = 0;
        while j < 9 {
            t[i][j] = ((i / 3 * 3 + j / 3) * 9 + i % 3 * 3 + j % 3) as u8;
            t[9 + i][j] = (i * 9 + j) as u8;
            t[18 + i][j] = (j * 9 + i) as u8;
            j += 1;
        }
        i += 1;
    }
    t
}

const fn cell_regions() -> [[u8; 3]; 81] {
    let mut t = [[0u8; 3]; 81];
    let mut c = 0;
    while c < 81 {
        let (r, col) = (c / 9, c % 9);
        t[c] = [(r / 3 * 3 + col / 3) as u8, (9 + r) as u8, (18 + col) as u8];
        c += 1;
    }
    t
}

const fn sees(a: usize, b: usize) -> bool {
    a != b && (a / 9 == b / 9 || a % 9 == b % 9 || (a / 27 == b / 27 && a % 9 / 3 == b % 9 / 3))
}

const fn peers() -> [[u8; 20]; 81] {
    let mut t = [[0u8; 20]; 81];
    let mut c = 0;
    while c < 81 {
        let mut k = 0;
        let mut o = 0;
        while o < 81 {
            if sees(c, o) {
                t[c][k] = o as u8;
                k += 1;
            }
            o += 1;
        }
        c += 1;
    }
    t
}

/// Whether two different cells share a region.
#[inline]
pub(crate) fn see(a: usize, b: usize) -> bool {
    sees(a, b)
}

/// The bit of digit `d` (1..=9) in a candidate mask.
#[inline]
pub(crate) const fn bit(d: u8) -> u16 {
    1 << (d - 1)
}

/// The digits of a mask, ascending.
pub(crate) fn digits(mut m: u16) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        (m != 0).then(|| {
            let d = m.trailing_zeros() as u8 + 1;
            m &= m - 1;
            d
        })
    })
}

/// Region ids of one kind.
pub(crate) fn regions_of(kind: usize) -> std::ops::Range<usize> {
    kind * 9..kind * 9 + 9
}

static CROSSES: [u32; 27] = crossing();

/// The regions crossing region `a` (sharing a cell with it, `a` itself
/// excluded), as a 27-bit set.
#[inline]
pub(crate) fn crossing_set(a: usize) -> u32 {
    CROSSES[a]
}

/// `INSIDE[a][b]`: the positions (indices within region `a`) of the cells
/// that also lie in region `b`.
pub(crate) static INSIDE: [[u16; 27]; 27] = inside();

const fn inside() -> [[u16; 27]; 27] {
    let cells = region_cells();
    let regs = cell_regions();
    let mut t = [[0u16; 27]; 27];
    let mut a = 0;
    while a < 27 {
        let mut i = 0;
        while i < 9 {
            let c = cells[a][i] as usize;
            let mut k = 0;
            while k < 3 {
                t[a][regs[c][k] as usize] |= 1 << i;
                k += 1;
            }
            i += 1;
        }
        a += 1;
    }
    t
}

const fn crossing() -> [u32; 27] {
    let cells = region_cells();
    let regs = cell_regions();
    let mut t = [0u32; 27];
    let mut a = 0;
    while a < 27 {
        let mut i = 0;
        while i < 9 {
            let c = cells[a][i] as usize;
            let mut k = 0;
            while k < 3 {
                let b = regs[c][k] as usize;
                if b != a {
                    t[a] |= 1 << b;
                }
                k += 1;
            }
            i += 1;
        }
        a += 1;
    }
    t
}

/// Whether `cell` lies in region `r`.
#[inline]
pub(crate) fn in_region(cell: usize, r: usize) -> bool {
    CELL_REGIONS[cell][r / 9] as usize == r
}

/// Values and candidates of a 9×9 grid.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Board {
    /// The digit of each cell, 0 when empty.
    pub value: [u8; 81],
    /// Candidates of each empty cell (bit `d - 1` for digit `d`); 0 for a
    /// filled cell.
    pub cand: [u16; 81],
    /// The positions of each digit in each region (`pos[r][d - 1]`, bits
    /// are indices within the region), kept by `place` and `eliminate`.
    pos: [[u16; 9]; 27],
    /// Empty cells per region, kept likewise.
    empty: [u8; 27],
    /// The cells holding each digit as a candidate (`cells[d - 1]`, bit
    /// `cell`), kept likewise.
    cells: [u128; 9],
    /// Scan words, kept likewise, so that the cheap searches (direct
    /// techniques, pointing and claiming, subsets) read a few bits instead
    /// of rescanning every region: lane `k` (bits `16 k ..`) of `places[r]` has bit
    /// `d - 1` when digit `d` has exactly `k + 1` places in region `r` (one
    /// to four).
    places: [u64; 27],
    /// The digits with exactly one place per region (bit `d - 1`), kept by
    /// `eliminate` (not by `eliminate_plain`) whether or not the scan words
    /// are, so that the hidden singles need neither a rescan of every
    /// region's positions nor a [`Board::settle`].
    ones: [u16; 27],
    /// The regions with exactly one empty cell (bit `r`), kept always.
    alone: u32,
    /// `locked[pair][d - 1]`: for the region-kind pairs of
    /// [`super::locking::PAIRS`], the regions of the first kind (bit =
    /// index within the kind) where `d` has two or more places, all in one
    /// region of the second kind.
    locked: [[u16; 9]; 4],
    /// The digits (bits) per region whose scan words wait for
    /// [`Board::settle`], and the regions with any.
    dirty: [u16; 27],
    dirty_regions: u32,
    /// Whether the scan words are kept at all: not until a search past the
    /// hidden singles first needs them ([`Board::settle`]), so a path of
    /// singles never pays for their upkeep.
    tracking: bool,
}

impl Board {
    /// A board with no digit and no candidate, to be filled in.
    fn blank() -> Board {
        Board {
            value: [0; 81],
            cand: [0; 81],
            pos: [[0; 9]; 27],
            empty: [0; 27],
            cells: [0; 9],
            places: [0; 27],
            ones: [0; 27],
            alone: 0,
            locked: [[0; 9]; 4],
            dirty: [0; 27],
            dirty_regions: 0,
            tracking: false,
        }
    }

    /// The board of a 9×9 candidate grid (`None` for another size).
    pub fn from_candidates(c: &Candidates) -> Option<Board> {
        if c.side() != 9 {
            return None;
        }
        let mut b = Board::blank();
        for cell in 0..81 {
            b.value[cell] = c.value(cell);
            // (a filled cell has no candidate)
            b.cand[cell] = if b.value[cell] == 0 {
                c.mask(cell) as u16
            } else {
                0
            };
        }
        b.refresh();
        Some(b)
    }

    /// The board of a 9×9 puzzle (`None` for another size, or when two
    /// givens of a region are equal): the same as [`Board::from_candidates`]
    /// of its candidate grid (an empty cell's candidates are the digits none
    /// of its peers holds), built directly. The conflict check comes free
    /// with the digits each region holds (no separate pass over the grid).
    pub fn from_grid(g: &crate::grid::Grid) -> Option<Board> {
        if g.side() != 9 {
            return None;
        }
        let mut b = Board::blank();
        // The digits each region holds.
        let mut used = [0u16; 27];
        // (without a branch per cell: digit 0 has no bit; a digit past 9
        // sets bit 9, refused below with the conflicts)
        let mut clash = 0u16;
        for (cell, &v) in g.cells().iter().enumerate() {
            let v = v.min(10);
            let m = DIGIT_BIT[v as usize];
            b.value[cell] = v;
            for &r in &CELL_REGIONS[cell] {
                clash |= used[r as usize] & m;
                used[r as usize] |= m;
            }
        }
        if clash != 0 || used.iter().any(|&u| u > 0x1ff) {
            return None;
        }
        // What `refresh` computes, in one pass over the empty cells: a
        // region without conflicts has one given per digit it holds.
        for r in 0..27 {
            b.empty[r] = 9 - used[r].ones() as u8;
            b.alone |= u32::from(b.empty[r] == 1) << r;
        }
        for cell in 0..81 {
            if b.value[cell] != 0 {
                continue;
            }
            let [r0, r1, r2] = CELL_REGIONS[cell].map(usize::from);
            let [a0, a1, a2] = CELL_POS[cell];
            let m = 0x1ff & !(used[r0] | used[r1] | used[r2]);
            b.cand[cell] = m;
            let at = CELL_BIT[cell];
            let mut x = m;
            while x != 0 {
                let d = x.trailing_zeros() as usize;
                x &= x - 1;
                b.cells[d] |= at;
                b.pos[r0][d] |= 1 << a0;
                b.pos[r1][d] |= 1 << a1;
                b.pos[r2][d] |= 1 << a2;
            }
        }
        b.count_ones();
        Some(b)
    }

    /// Compute the cached positions and counts from scratch (`place` and
    /// `eliminate` keep them up to date).
    pub fn refresh(&mut self) {
        self.pos = [[0; 9]; 27];
        self.empty = [0; 27];
        self.cells = [0; 9];
        self.places = [0; 27];
        self.alone = 0;
        self.locked = [[0; 9]; 4];
        self.dirty = [0; 27];
        self.dirty_regions = 0;
        self.tracking = false;
        for c in 0..81 {
            let regs = CELL_REGIONS[c];
            let at = CELL_POS[c];
            if self.value[c] == 0 {
                for &r in &regs {
                    self.empty[r as usize] += 1;
                }
            }
            let mut m = self.cand[c];
            while m != 0 {
                let d = m.trailing_zeros() as usize;
                m &= m - 1;
                self.cells[d] |= CELL_BIT[c];
                for k in 0..3 {
                    self.pos[regs[k] as usize][d] |= 1 << at[k];
                }
            }
        }
        for r in 0..27 {
            if self.empty[r] == 1 {
                self.alone |= 1 << r;
            }
        }
        self.count_ones();
    }

    /// The single-place digits of every region, from the candidates: the
    /// digits in one of the region's cells and not in two.
    fn count_ones(&mut self) {
        for r in 0..27 {
            let (mut once, mut twice) = (0u16, 0u16);
            for &c in &REGION_CELLS[r] {
                let m = self.cand[c as usize];
                twice |= once & m;
                once |= m;
            }
            self.ones[r] = once & !twice;
        }
    }

    /// Compute the scan words from the positions and keep them from now on.
    fn start_tracking(&mut self) {
        self.tracking = true;
        self.dirty = [0; 27];
        self.dirty_regions = 0;
        self.locked = [[0; 9]; 4];
        self.places = [0; 27];
        for r in 0..27 {
            self.settle_region(r, 0x1ff);
        }
    }

    /// Recompute the scan words of region `r` for the digits `dirty` (bit
    /// `d - 1`) from their positions: their lanes of `places[r]` cleared at
    /// once, then each set from a table, and their bits of `locked`; one
    /// loop per region kind (the kind decides which `locked` words).
    #[inline]
    fn settle_region(&mut self, r: usize, dirty: u16) {
        let (kind, i) = (r / 9, r % 9);
        let mut w = self.places[r] & !(u64::from(dirty) * 0x0001_0001_0001_0001);
        let keep = !(1u16 << i);
        let mut m = dirty;
        let pair = match kind {
            BLOCK => {
                while m != 0 {
                    let d = m.trailing_zeros() as usize;
                    m &= m - 1;
                    let info = SCAN[self.pos[r][d] as usize];
                    w |= LANE[(info & SCAN_COUNT) as usize] << d;
                    let stack = u16::from(info & SCAN_STACK != 0) << i;
                    let band = u16::from(info & SCAN_BAND != 0) << i;
                    self.locked[0][d] = self.locked[0][d] & keep | stack;
                    self.locked[1][d] = self.locked[1][d] & keep | band;
                }
                self.places[r] = w;
                return;
            }
            ROW => 3,
            _ => 2,
        };
        while m != 0 {
            let d = m.trailing_zeros() as usize;
            m &= m - 1;
            let info = SCAN[self.pos[r][d] as usize];
            w |= LANE[(info & SCAN_COUNT) as usize] << d;
            let band = u16::from(info & SCAN_BAND != 0) << i;
            self.locked[pair][d] = self.locked[pair][d] & keep | band;
        }
        self.places[r] = w;
    }

    /// The digits with two to `n` places (`n` 2 to 4) in region `r`.
    #[inline]
    pub fn two_to_places(&self, r: usize, n: usize) -> u16 {
        debug_assert!(self.is_settled(), "scan words read before settle");
        let w = self.places[r];
        (1..n).fold(0, |m, k| m | (w >> (16 * k)) as u16)
    }

    /// The digits (bit `d - 1`) with exactly one place in region `r`
    /// (kept by [`Board::eliminate`]; no [`Board::settle`] needed).
    #[inline]
    pub fn single_digits(&self, r: usize) -> u16 {
        self.ones[r]
    }

    /// The regions with exactly one empty cell (bit `r`).
    #[inline]
    pub fn alone_regions(&self) -> u32 {
        self.alone
    }

    /// The empty cells with exactly one candidate: from the cells of each
    /// digit, the cells in one of them and not in two (a filled cell has
    /// no candidate).
    #[inline]
    pub fn naked_cells(&self) -> u128 {
        let (mut once, mut twice) = (0u128, 0u128);
        for &m in &self.cells {
            twice |= once & m;
            once |= m;
        }
        once & !twice
    }

    /// See the field: the regions of `PAIRS[pair].0`'s kind (bits 0..9)
    /// where `d` is locked in one region of the pair's second kind.
    #[inline]
    pub fn locked(&self, pair: usize, d: u8) -> u16 {
        debug_assert!(self.is_settled(), "scan words read before settle");
        self.locked[pair][d as usize - 1]
    }

    /// The cells where `d` is a candidate (bit `cell`).
    #[inline]
    pub fn cells_of(&self, d: u8) -> u128 {
        self.cells[d as usize - 1]
    }

    /// Whether every cell is filled.
    pub fn is_solved(&self) -> bool {
        self.value.iter().all(|&v| v != 0)
    }

    /// Whether `d` is a candidate of `cell`.
    #[inline]
    pub fn has(&self, cell: usize, d: u8) -> bool {
        self.cand[cell] & bit(d) != 0
    }

    /// The positions (indices 0..9 within the region) where `d` is a
    /// candidate in region `r`.
    #[inline]
    pub fn positions(&self, r: usize, d: u8) -> u16 {
        self.pos[r][d as usize - 1]
    }

    /// The positions of every digit in every region (`[r][d - 1]`, see
    /// [`Board::positions`]), to copy.
    #[inline]
    pub fn position_words(&self) -> &[[u16; 9]; 27] {
        &self.pos
    }

    /// Empty cells in region `r`.
    #[inline]
    pub fn empty_in(&self, r: usize) -> u32 {
        u32::from(self.empty[r])
    }

    /// Place `d` in `cell` and remove it from the cell's peers (Explainer's
    /// "set value and cancel"). Keeps the cached positions and counts: the
    /// same as eliminating each of the cell's candidates and then `d` from
    /// each peer holding it, done in bulk (the cell's three regions lose
    /// every place of `d`, so only a peer's other regions are updated one
    /// by one).
    pub fn place(&mut self, cell: usize, d: u8) {
        if self.value[cell] != 0 {
            return;
        }
        let i = d as usize - 1;
        let regs = CELL_REGIONS[cell];
        let at = CELL_POS[cell];
        let own = self.cand[cell];
        self.cand[cell] = 0;
        let mut m = own;
        while m != 0 {
            let j = m.trailing_zeros() as usize;
            m &= m - 1;
            self.cells[j] &= !CELL_BIT[cell];
            for k in 0..3 {
                let r = regs[k] as usize;
                let p = self.pos[r][j] & !(1 << at[k]);
                self.pos[r][j] = p;
                self.ones[r] = self.ones[r] & !(1 << j) | u16::from(ONE_PLACE[p as usize]) << j;
            }
        }
        self.value[cell] = d;
        for k in 0..3 {
            let r = regs[k] as usize;
            self.empty[r] -= 1;
            self.alone = self.alone & !(1 << r) | u32::from(self.empty[r] == 1) << r;
            // The places of `d` left here are all peers: every one goes.
            self.pos[r][i] = 0;
            self.ones[r] &= !(1 << i);
            if self.tracking {
                self.dirty[r] |= own | bit(d);
                self.dirty_regions |= 1 << r;
            }
        }
        // Only the peers holding `d` change.
        let peers = self.cells[i] & PEER_MASK[cell];
        self.cells[i] &= !peers;
        let mut m = peers;
        while m != 0 {
            let p = m.trailing_zeros() as usize;
            m &= m - 1;
            self.cand[p] &= !bit(d);
            for k in 0..3 {
                let r = CELL_REGIONS[p][k] as usize;
                if r == regs[k] as usize {
                    continue;
                }
                let q = self.pos[r][i] & !(1 << CELL_POS[p][k]);
                self.pos[r][i] = q;
                self.ones[r] = self.ones[r] & !(1 << i) | u16::from(ONE_PLACE[q as usize]) << i;
                if self.tracking {
                    self.dirty[r] |= bit(d);
                    self.dirty_regions |= 1 << r;
                }
            }
        }
    }

    /// Remove candidate `d` from `cell`, keeping the cached positions; the
    /// scan words of its regions are brought up to date by
    /// [`Board::settle`] (once per region and digit, however many places
    /// a step removed).
    /// It keeps the single-place digits ([`Board::single_digits`]) itself.
    #[inline]
    pub fn eliminate(&mut self, cell: usize, d: u8) {
        if !self.eliminate_plain(cell, d) {
            return;
        }
        let i = d as usize - 1;
        for k in 0..3 {
            let r = CELL_REGIONS[cell][k] as usize;
            let one = u16::from(ONE_PLACE[self.pos[r][i] as usize]);
            self.ones[r] = self.ones[r] & !(1 << i) | one << i;
        }
        if self.tracking {
            for k in 0..3 {
                let r = CELL_REGIONS[cell][k] as usize;
                self.dirty[r] |= bit(d);
                self.dirty_regions |= 1 << r;
            }
        }
    }

    /// Bring the scan words up to date after eliminations and placements
    /// (the searches that read them require it).
    pub fn settle(&mut self) {
        if !self.tracking {
            self.start_tracking();
            return;
        }
        while self.dirty_regions != 0 {
            let r = self.dirty_regions.trailing_zeros() as usize;
            self.dirty_regions &= self.dirty_regions - 1;
            let dirty = std::mem::take(&mut self.dirty[r]);
            self.settle_region(r, dirty);
        }
    }

    /// Whether the scan words are up to date ([`Board::settle`]).
    #[inline]
    pub fn is_settled(&self) -> bool {
        self.tracking && self.dirty_regions == 0
    }

    /// Remove candidate `d` from `cell`, keeping the candidates, positions
    /// and cells of each digit but neither the scan words nor the
    /// single-place digits (which are then stale: for a scratch board that
    /// reads only those, as the forcing chains' boards do). Returns whether
    /// `d` was a candidate.
    #[inline]
    pub fn eliminate_plain(&mut self, cell: usize, d: u8) -> bool {
        let b = bit(d);
        if self.cand[cell] & b == 0 {
            return false;
        }
        self.cand[cell] &= !b;
        self.cells[d as usize - 1] &= !CELL_BIT[cell];
        for k in 0..3 {
            let r = CELL_REGIONS[cell][k] as usize;
            self.pos[r][d as usize - 1] &= !(1 << CELL_POS[cell][k]);
        }
        true
    }
}

/// Whether a region's position set (9 bits) has exactly one member.
static ONE_PLACE: [u8; 512] = {
    let mut t = [0u8; 512];
    let mut p = 1;
    while p < 512 {
        t[p] = (p & (p - 1) == 0) as u8;
        p += 1;
    }
    t
};

/// Each cell's bit in an 81-cell set (a table: a shift of a `u128` by a
/// variable amount is several instructions).
pub(crate) static CELL_BIT: [u128; 81] = {
    let mut t = [0u128; 81];
    let mut c = 0;
    while c < 81 {
        t[c] = 1 << c;
        c += 1;
    }
    t
};

/// [`SCAN`]: the number of positions (low four bits).
const SCAN_COUNT: u8 = 0xf;
/// [`SCAN`]: two or more positions, all within one band of three (a
/// block's row, a line's block).
const SCAN_BAND: u8 = 0x10;
/// [`SCAN`]: two or more positions, all within one of a block's columns.
const SCAN_STACK: u8 = 0x20;

/// A digit's bit in a candidate mask, 0 for no digit, bit 9 for 10.
static DIGIT_BIT: [u16; 11] = [0, 1, 2, 4, 8, 16, 32, 64, 128, 256, 512];

/// A digit's bit in lane `n - 1` of a scan word (`places`) for `n` places
/// (none for 0 or more than four).
static LANE: [u64; 16] = {
    let mut t = [0u64; 16];
    let mut n = 1;
    while n <= 4 {
        t[n] = 1 << (16 * (n - 1));
        n += 1;
    }
    t
};

/// What the scan words need of a region's position set: its size and
/// whether it is locked, per 9-bit set.
static SCAN: [u8; 512] = scan_table();

const fn scan_table() -> [u8; 512] {
    let mut t = [0u8; 512];
    let mut p = 0usize;
    while p < 512 {
        let n = (p as u16).count_ones() as u8;
        let mut v = n;
        if n >= 2 {
            if p & !0x7 == 0 || p & !0x38 == 0 || p & !0x1c0 == 0 {
                v |= SCAN_BAND;
            }
            if p & !0x49 == 0 || p & !0x92 == 0 || p & !0x124 == 0 {
                v |= SCAN_STACK;
            }
        }
        t[p] = v;
        p += 1;
    }
    t
}

/// The name of a region id: "block 4", "row 2", "column 9".
pub(crate) fn region_name(r: usize) -> String {
    let kind = ["block", "row", "column"][r / 9];
    format!("{kind} {}", r % 9 + 1)
}

/// Call `f` with every `k`-subset of the set bits of `mask` (a 9-bit
/// mask), in increasing numeric order, until it returns true; returns
/// whether it did (Explainer enumerates value and position sets in
/// increasing numeric order; the subsets outside `mask` are the ones its
/// searches reject, so they are not visited): the subsets of `n` bits in
/// increasing order, each spread onto `mask`'s bits (an order-preserving
/// map).
pub(crate) fn subsets_of(mask: u16, k: u32, mut f: impl FnMut(u16) -> bool) -> bool {
    let n = mask.count_ones();
    if n < k {
        return false;
    }
    let mut at = [0u8; 9];
    let mut m = mask;
    for slot in at.iter_mut().take(n as usize) {
        *slot = m.trailing_zeros() as u8;
        m &= m - 1;
    }
    let k = k as usize;
    for &s in &SUBSETS.0[SUBSETS.1[k] as usize..SUBSETS.1[k + 1] as usize] {
        if s >> n != 0 {
            // Ascending: every later subset uses a bit past `n` too.
            break;
        }
        let mut spread = 0u16;
        let mut t = s;
        while t != 0 {
            spread |= 1 << at[t.trailing_zeros() as usize];
            t &= t - 1;
        }
        if f(spread) {
            return true;
        }
    }
    false
}

/// The 512 subsets of nine bits by size, each size's in increasing order
/// (`.0`), and where each size starts (`.1[k]`; `.1[10]` is 512).
static SUBSETS: ([u16; 512], [u16; 11]) = {
    let mut t = [0u16; 512];
    let mut start = [0u16; 11];
    let mut n = 0;
    let mut k = 0;
    while k <= 9 {
        start[k] = n as u16;
        let mut m = 0u16;
        while m < 512 {
            if m.count_ones() as usize == k {
                t[n] = m;
                n += 1;
            }
            m += 1;
        }
        k += 1;
    }
    start[10] = n as u16;
    (t, start)
};

/// The peers of each cell as an 81-bit set (bit `c` for cell `c`).
pub(crate) static PEER_MASK: [u128; 81] = peer_mask();

/// The cells of each region as a bit set.
pub(crate) static REGION_BITS: [u128; 27] = {
    let cells = region_cells();
    let mut t = [0u128; 27];
    let mut r = 0;
    while r < 27 {
        let mut i = 0;
        while i < 9 {
            t[r] |= 1u128 << cells[r][i];
            i += 1;
        }
        r += 1;
    }
    t
};

const fn peer_mask() -> [u128; 81] {
    let p = peers();
    let mut t = [0u128; 81];
    let mut c = 0;
    while c < 81 {
        let mut k = 0;
        while k < 20 {
            t[c] |= 1 << p[c][k];
            k += 1;
        }
        c += 1;
    }
    t
}

/// The number of set bits, for the rater's hot loops: without a `popcnt`
/// target feature (the default x86-64 target has none) `count_ones` on a
/// `u16` is a dozen shifts and masks; here it is two reads of a 256-entry
/// table. Wider words keep `count_ones`.
pub(crate) trait Ones {
    fn ones(self) -> u32;
}

/// Set bits per byte value.
static POP8: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = (i as u8).count_ones() as u8;
        i += 1;
    }
    t
};

impl Ones for u16 {
    #[inline(always)]
    fn ones(self) -> u32 {
        u32::from(POP8[(self & 0xff) as usize]) + u32::from(POP8[(self >> 8) as usize])
    }
}

impl Ones for u32 {
    #[inline(always)]
    fn ones(self) -> u32 {
        self.count_ones()
    }
}

impl Ones for u64 {
    #[inline(always)]
    fn ones(self) -> u32 {
        self.count_ones()
    }
}

impl Ones for u128 {
    #[inline(always)]
    fn ones(self) -> u32 {
        self.count_ones()
    }
}
