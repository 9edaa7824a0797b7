//! SukakuExplainer's strong-link fishes: "Scraper, Kite, Turbot" (two
//! strong links: skyscraper, 2-string kite, turbot crane, their grouped
//! forms through empty rectangles and split lines; 4.0–4.3), and the 3- and
//! 4-strong-link fishes (5.4–5.7, 5.8–6.1), one search for all three
//! (SukakuExplainer's `StrongLinks` producer; serate 1.18 uses it for the
//! two-link entry too).
//!
//! The rules, from SukakuExplainer's source (LGPL; the code here is ours):
//!
//! - The region kinds of the links: every multiset of kinds (block, row,
//!   column) of the degree's size, in the order of Gosper's enumeration of
//!   `degree`-subsets of `3 * degree` bits where bit `i` of the subset
//!   lies in slot `i % degree` (kinds ascending).
//! - Per digit, the links are chosen depth first: for each link a region of
//!   its kind (regions of the same kind as the previous link only after
//!   it), holding the digit in 2 to 6 cells. Two cells make a plain strong
//!   link (a block's two cells not in one row or column). More make a
//!   grouped link where the cells split in two "blades": in a block, the
//!   first "heart" cell (block position 0–14, the last six splitting by
//!   lines, those only with four or more cells) whose "rectangle" is empty
//!   of the digit; in a line, the first empty box segment. The link's two
//!   ends are then cells with up to two supporting cells each, in
//!   SukakuExplainer's layout (a single-cell blade against the other blade
//!   with the heart as support, in both orders; else the blades as the
//!   ends). A link sharing a candidate cell with an earlier one is
//!   skipped.
//! - For the full set, every order of the links (Heap's permutations,
//!   countdown form) that reads as a string no greater than its reverse,
//!   and every choice of which end of each link comes first (a binary
//!   count), the consecutive links must meet: the end cells (with their
//!   supports) of one and the next share a column, else a row, else a
//!   block. The first and last free ends make the fish's eliminations: the
//!   digit in cells seeing both (and their supports, for grouped end
//!   links) outside the links' regions and the weak links' regions. When
//!   the free ends see each other too (an "X-loop", taken only in the
//!   order whose first link has the smallest region number, first end
//!   first), each weak link also eliminates from the cells seeing both its
//!   ends, and the weak links' regions are not excluded.
//! - Difficulty: 4.0 / 5.4 / 5.8 for two / three / four links; +0.3 with
//!   a grouped link; else +0.0 when the links are parallel lines of one
//!   kind, +0.2 when they mix blocks and both line kinds (as the suffix
//!   describes them), +0.1 otherwise.
//! - Of all the fishes found, the first by difficulty, then by the number
//!   of eliminations (more first, each counted once per part of the
//!   pattern that finds it), then by suffix, then the order found.

use super::SeStep;
use super::board::Ones;
use super::board::{Board, PEER_MASK, REGION_BITS, REGION_CELLS};

const NO: u8 = u8::MAX;

/// Block positions of the "rectangle" (cells that must not hold the digit)
/// per heart configuration (0–8: heart cell; 9–14: two lines of the block).
const BLOCK_EMPTY: [&[u8]; 15] = [
    &[4, 5, 7, 8],
    &[3, 5, 6, 8],
    &[3, 4, 6, 7],
    &[1, 2, 7, 8],
    &[0, 2, 6, 8],
    &[0, 1, 6, 7],
    &[1, 2, 4, 5],
    &[0, 2, 3, 5],
    &[0, 1, 3, 4],
    &[6, 7, 8],
    &[3, 4, 5],
    &[0, 1, 2],
    &[2, 5, 8],
    &[1, 4, 7],
    &[0, 3, 6],
];

/// The two blades per block configuration.
const BLOCK_BLADES: [(&[u8], &[u8]); 15] = [
    (&[3, 6], &[1, 2]),
    (&[4, 7], &[0, 2]),
    (&[5, 8], &[0, 1]),
    (&[0, 6], &[4, 5]),
    (&[1, 7], &[3, 5]),
    (&[2, 8], &[3, 4]),
    (&[0, 3], &[7, 8]),
    (&[1, 4], &[6, 8]),
    (&[2, 5], &[6, 7]),
    (&[0, 1, 2], &[3, 4, 5]),
    (&[0, 1, 2], &[6, 7, 8]),
    (&[3, 4, 5], &[6, 7, 8]),
    (&[0, 3, 6], &[1, 4, 7]),
    (&[0, 3, 6], &[2, 5, 8]),
    (&[1, 4, 7], &[2, 5, 8]),
];

fn mask(ps: &[u8]) -> u16 {
    ps.iter().fold(0, |m, &p| m | 1 << p)
}

/// Positions of a mask, ascending.
fn nth(m: u16, k: u32) -> usize {
    let mut m = m;
    for _ in 0..k {
        m &= m - 1;
    }
    m.trailing_zeros() as usize
}

fn same_line(a: usize, b: usize) -> bool {
    a % 9 == b % 9 || a / 9 == b / 9
}

/// The regions of a cell as bits of Explainer's region numbers (blocks
/// 0–8, rows 9–17, columns 18–26).
fn region_bits(c: u8) -> u32 {
    let c = c as u32;
    1 << (c / 27 * 3 + c % 9 / 3) | 1 << (9 + c / 9) | 1 << (18 + c % 9)
}

/// The regions holding every cell of a link end (the end and its
/// supports, `NO` entries ignored), as bits.
fn end_regions(cells: [u8; 3]) -> u32 {
    cells
        .iter()
        .filter(|&&c| c != NO)
        .fold(!0u32 >> 5, |m, &c| m & region_bits(c))
}

/// The region shared by two link ends given their [`end_regions`]: column
/// first, then row, then block (a set of cells lies in at most one region
/// of each kind).
fn shared(a: u32, b: u32) -> u8 {
    let m = a & b;
    if m >> 18 != 0 {
        (18 + (m >> 18).trailing_zeros()) as u8
    } else if m >> 9 != 0 {
        (9 + (m >> 9).trailing_zeros()) as u8
    } else if m != 0 {
        m.trailing_zeros() as u8
    } else {
        NO_REGION
    }
}

/// One fish found.
pub(super) struct Found {
    /// The index of its set of link kinds in the enumeration (the outer
    /// loop of SukakuExplainer's search, before the digit).
    kind_set: usize,
    tenths: u16,
    /// The difficulty by the rule before SukakuExplainer 1.17.7
    /// ([`super::SeRater::with_early_link_values`]).
    early_tenths: u16,
    eliminations: u32,
    suffix: Vec<u8>,
    victims: Vec<usize>,
    digit: u8,
    cells: Vec<usize>,
    regions: Vec<usize>,
    grouped: bool,
    ring: bool,
}

struct Search<'a> {
    b: &'a Board,
    n: usize,
    kinds: [usize; 4],
    kind_set: usize,
    digit: u8,
    /// `cells[2 * link + side]`, supports at `+ 2n` and `+ 4n`.
    cells: [u8; 24],
    region: [usize; 4],
    grouped: [bool; 4],
    /// The regions (bits) sharing a candidate cell of the digit with a
    /// link chosen so far (a link may not).
    banned: u32,
    /// The regions (bits) that make a link at all.
    avail: u32,
    /// Per region: the regions sharing one of its candidate cells.
    clash: [u32; 27],
    /// Per region: the ways it makes a link for the digit.
    variants: [Variants; 27],
    /// Per region: the digit's candidate cells in it.
    mine: [u128; 27],
    /// The digit's candidate cells.
    all: u128,
    found: Vec<Found>,
    /// Per evaluation: the region shared by two link ends (`NO_REGION`
    /// when none), indexed by end (`2 * link + side`).
    meet: [[u8; 8]; 8],
    /// [`end_regions`] of each link end (`2 * link + side`).
    ends: [u32; 8],
    /// Per link chosen: which of its region's variants it is.
    variant: [usize; 4],
    /// Per link chosen: the union of its two ends' [`end_regions`]. Two
    /// links have ends that meet exactly when these intersect.
    reach: [u32; 4],
    /// Per evaluation: the link whose region has the smallest number.
    min_link: usize,
    /// Per evaluation: the cells of the links' regions.
    base: u128,
    /// Per depth: what the links before it share.
    prefix: [Prefix; 4],
}

/// What the first links chosen share: which pairs of them meet (bit `4 *
/// i + j`, `i < j`), the cells seeing an end of one of them, of two of
/// them, and the cells of their regions.
#[derive(Clone, Copy, Default)]
struct Prefix {
    meets: u16,
    once: u128,
    twice: u128,
    base: u128,
}

/// A region's ways to make a link (at most two), without allocating.
#[derive(Clone, Copy)]
struct Variants {
    v: [Variant; 2],
    n: u8,
}

impl Variants {
    const EMPTY: Variants = Variants {
        v: [Variant {
            cells: [NO; 6],
            grouped: false,
            ends: [0; 2],
            peers: 0,
        }; 2],
        n: 0,
    };

    fn push(&mut self, v: Variant) {
        self.v[self.n as usize] = v;
        self.n += 1;
    }

    fn len(&self) -> usize {
        self.n as usize
    }

    fn is_empty(&self) -> bool {
        self.n == 0
    }
}

impl std::ops::Index<usize> for Variants {
    type Output = Variant;
    fn index(&self, i: usize) -> &Variant {
        debug_assert!(i < self.n as usize);
        &self.v[i]
    }
}

/// One way a region makes a link: its two ends and their supports
/// (`[end 0, end 1, support 0, support 1, second support 0, second support
/// 1]`, `NO` where none), and whether it is grouped.
#[derive(Clone, Copy)]
struct Variant {
    cells: [u8; 6],
    grouped: bool,
    /// [`end_regions`] of each end.
    ends: [u32; 2],
    /// The cells seeing one of the two ends.
    peers: u128,
}

const NO_REGION: u8 = u8::MAX;
const UNKNOWN: u8 = u8::MAX - 1;

/// The fishes found per degree and digit, kept from one step to the next.
///
/// The search for one digit reads only that digit's candidates (its
/// positions per region and its cells), so while a digit's candidates are
/// unchanged its fishes are the same: exact, whatever the other digits do.
#[derive(Default)]
pub(super) struct Memo {
    /// `per[(degree - 2) * 9 + digit - 1]`: the digit's candidate cells and
    /// the fishes found for them.
    per: Vec<Option<(u128, Vec<Found>)>>,
    /// Per digit: the links of its regions for its candidate cells.
    links: Vec<Links>,
}

/// A digit's links, per region, for its candidate cells `key`.
#[derive(Clone, Copy)]
struct Links {
    key: Option<u128>,
    variants: [Variants; 27],
    clash: [u32; 27],
    avail: u32,
}

impl Links {
    const EMPTY: Links = Links {
        key: None,
        variants: [Variants::EMPTY; 27],
        clash: [0; 27],
        avail: 0,
    };
}

/// The sets of link kinds of a degree, in SukakuExplainer's order (Gosper's
/// enumeration of `degree`-subsets of `3 * degree` bits where bit `i` of the
/// subset lies in slot `i % degree`).
fn kind_sets(degree: usize) -> Vec<Vec<usize>> {
    let bits = 3 * degree as u32;
    let mut sets = Vec::new();
    for m in 0u32..1 << bits {
        if m.ones() != degree as u32 {
            continue;
        }
        let mut kinds = vec![0; degree];
        let mut ok = true;
        let mut i = 0;
        for bit in 0..bits {
            if m & 1 << bit != 0 {
                if bit as usize % degree != i {
                    ok = false;
                    break;
                }
                kinds[i] = bit as usize / degree;
                i += 1;
            }
        }
        if ok {
            sets.push(kinds);
        }
    }
    sets
}

/// Per degree, the index of a set of link kinds in [`kind_sets`]'s order,
/// by the kinds' base-3 code (`kinds[0] + 3 * kinds[1] + ...`, kinds
/// ascending).
static KIND_SET_INDEX: std::sync::LazyLock<[[u8; 81]; 3]> = std::sync::LazyLock::new(|| {
    let mut t = [[u8::MAX; 81]; 3];
    for (deg, row) in t.iter_mut().enumerate() {
        for (k, kinds) in kind_sets(deg + 2).iter().enumerate() {
            row[kind_code(kinds)] = k as u8;
        }
    }
    t
});

/// The base-3 code of a sequence of link kinds.
fn kind_code(kinds: &[usize]) -> usize {
    kinds.iter().rev().fold(0, |c, &k| c * 3 + k)
}

/// The step SukakuExplainer's `StrongLinks(degree)` producer takes, if any.
pub(super) fn find(
    b: &Board,
    step: &mut SeStep,
    degree: usize,
    early: bool,
    memo: &mut Memo,
) -> bool {
    if memo.per.len() != 27 {
        memo.per = (0..27).map(|_| None).collect();
        memo.links = vec![Links::EMPTY; 9];
    }
    for d in 1..=9u8 {
        let key = b.cells_of(d);
        let slot = &mut memo.per[(degree - 2) * 9 + d as usize - 1];
        if slot.as_ref().is_some_and(|(k, _)| *k == key) {
            continue;
        }
        let mut s = Search {
            b,
            n: degree,
            kinds: [0; 4],
            kind_set: 0,
            digit: d,
            cells: [NO; 24],
            region: [0; 4],
            grouped: [false; 4],
            banned: 0,
            avail: 0,
            clash: [0; 27],
            variants: [Variants::EMPTY; 27],
            mine: std::array::from_fn(|r| REGION_BITS[r] & key),
            all: key,
            found: Vec::new(),
            meet: [[NO_REGION; 8]; 8],
            ends: [0; 8],
            variant: [0; 4],
            reach: [0; 4],
            min_link: 0,
            base: 0,
            prefix: [Prefix::default(); 4],
        };
        // The links of the digit, shared by the three degrees (they read
        // only the digit's candidates).
        let links = &mut memo.links[d as usize - 1];
        if links.key == Some(key) {
            s.variants = links.variants;
            s.clash = links.clash;
            s.avail = links.avail;
        } else {
            for r in 0..27 {
                s.variants[r] = s.link_variants(r);
            }
            for r in 0..27 {
                if !s.variants[r].is_empty() {
                    s.avail |= 1 << r;
                }
                // The regions of the digit's cells in `r`.
                let mut m = s.mine[r];
                while m != 0 {
                    let c = m.trailing_zeros() as u8;
                    m &= m - 1;
                    s.clash[r] |= region_bits(c);
                }
            }
            *links = Links {
                key: Some(key),
                variants: s.variants,
                clash: s.clash,
                avail: s.avail,
            };
        }
        // One pass for all the kind sets: a kind set's links are the
        // region sequences ascending by number with those kinds, found in
        // the same order as by its own pass; the fishes keep their kind
        // set's index, which the choice below compares before the order.
        s.build(0, 0);
        *slot = Some((key, s.found));
    }
    // SukakuExplainer searches kind set by kind set, each digit in turn,
    // then sorts stably by difficulty, eliminations (more first) and
    // suffix: the first of that order is the least by those keys, then
    // kind set, then digit, then the order found.
    let mut best: Option<&Found> = None;
    for d in 0..9 {
        let Some((_, found)) = &memo.per[(degree - 2) * 9 + d] else {
            continue;
        };
        let tenths = |f: &Found| if early { f.early_tenths } else { f.tenths };
        for f in found {
            let better = best.is_none_or(|c| {
                tenths(f)
                    .cmp(&tenths(c))
                    .then(c.eliminations.cmp(&f.eliminations))
                    .then(f.suffix.cmp(&c.suffix))
                    .then(f.kind_set.cmp(&c.kind_set))
                    .is_lt()
            });
            if better {
                best = Some(f);
            }
        }
    }
    let Some(f) = best else {
        return false;
    };
    step.set(
        name(degree, f),
        if early { f.early_tenths } else { f.tenths },
    );
    for &v in &f.victims {
        step.remove(v, f.digit);
    }
    step.cells = f.cells.clone();
    step.digits.push(f.digit);
    for &r in &f.regions {
        step.region(r);
    }
    true
}

/// SukakuExplainer's name of the fish, its suffix included ("Skyscraper
/// 011", "Grouped 3 Strong links 1011", "(2 Strong Links) X-Loop 001").
fn name(n: usize, f: &Found) -> &'static str {
    let sfx = &f.suffix[1..];
    let (zero, two) = (sfx.contains(&b'0'), sfx.contains(&b'2'));
    let core = if f.ring {
        let g = if f.grouped { "Grouped " } else { "" };
        format!("({n} Strong Links) {g}X-Loop")
    } else {
        let plain = if !zero && !two {
            if n < 3 {
                "Skyscraper".to_string()
            } else {
                format!("{n} Skyscrapers")
            }
        } else if !zero && n < 4 {
            format!("{n}-String Kite")
        } else {
            format!("{n} Strong links")
        };
        if f.grouped {
            format!("Grouped {plain}")
        } else {
            plain
        }
    };
    let suffix = String::from_utf8_lossy(&f.suffix);
    super::intern(format!("{core} {suffix}"))
}

/// Whether the digits of `s` read no greater than reversed.
fn is_lex(s: &[usize]) -> bool {
    s.iter().le(s.iter().rev())
}

/// Per degree, the orders of the links tried: Heap's permutations
/// (countdown form) in their order, those reading no greater than their
/// reverse, each with the pairs of consecutive links (bit `4 * i + j`,
/// `i < j`) that must meet.
static ORDERS: std::sync::LazyLock<[Vec<Order>; 3]> =
    std::sync::LazyLock::new(|| std::array::from_fn(|k| orders(k + 2)));

/// Per degree, as bits indexed by which pairs of links meet (bit `4 * i +
/// j`, `i < j`, of the index): whether some order of [`ORDERS`] has all
/// its consecutive links among them.
static HAS_ORDER: std::sync::LazyLock<[[u64; 64]; 3]> = std::sync::LazyLock::new(|| {
    let mut t = [[0u64; 64]; 3];
    for (k, bits) in t.iter_mut().enumerate() {
        for meets in 0..4096u16 {
            if ORDERS[k].iter().any(|&(_, pairs)| pairs & !meets == 0) {
                bits[meets as usize >> 6] |= 1 << (meets & 63);
            }
        }
    }
    t
});

/// An order of the links and the pairs of consecutive links in it.
type Order = ([usize; 4], u16);

fn orders(n: usize) -> Vec<Order> {
    let mut out = Vec::new();
    let mut keep = |q: &[usize; 4]| {
        if is_lex(&q[..n]) {
            let pairs = q[..n].windows(2).fold(0u16, |m, w| {
                let (i, j) = (w[0].min(w[1]), w[0].max(w[1]));
                m | 1 << (4 * i + j)
            });
            out.push((*q, pairs));
        }
    };
    let mut q = [0, 1, 2, 3];
    let mut r = [0, 1, 2, 3, 4];
    keep(&q);
    let mut s = 1;
    while s < n {
        r[s] -= 1;
        let t = s % 2 * r[s];
        q.swap(t, s);
        keep(&q);
        s = 1;
        while r[s] == 0 {
            r[s] = s;
            s += 1;
        }
    }
    out
}

/// SukakuExplainer's line-kind name of a sequence of link kinds.
fn line_name(set: &[usize]) -> Vec<u8> {
    let mut original = Vec::new();
    let mut lines = Vec::new();
    let mut reverse: Vec<u8> = Vec::new();
    let mut current = Vec::new();
    let mut one = false;
    for &k in set {
        if k == 1 {
            one = true;
            reverse.insert(0, b'2');
            current.push(b'2');
        }
        original.push(b'0' + k as u8);
        if k == 2 {
            lines.push(b'1');
            reverse.insert(0, b'1');
            current.push(b'1');
        } else {
            lines.push(b'0' + k as u8);
            if k == 0 {
                reverse.insert(0, b'0');
                current.push(b'0');
            }
        }
    }
    if reverse > current {
        reverse = current;
    }
    if one {
        return if original > reverse {
            reverse
        } else {
            original
        };
    }
    lines
}

impl Search<'_> {
    fn cell(&self, r: usize, pos: usize) -> u8 {
        REGION_CELLS[r][pos]
    }

    /// The ways region `r` makes a link for the digit (none, one, or two
    /// layouts of its ends), in SukakuExplainer's order.
    fn link_variants(&self, r: usize) -> Variants {
        let kind = r / 9;
        let mut out = Variants::EMPTY;
        let mut grouped = false;
        let mut cl = [NO; 6];
        let pots = self.b.positions(r, self.digit);
        let count = pots.ones();
        if !(2..=6).contains(&count) {
            return out;
        }
        let (mut blade1, mut blade2, mut heart_pot) = (pots, pots, pots);
        let mut e = 0usize;
        if count > 2 {
            let configs = if kind == 0 { 15 } else { 3 };
            while e < configs {
                if e > 8 && count < 4 {
                    e += 1;
                    continue;
                }
                blade1 = pots;
                blade2 = pots;
                heart_pot = pots;
                let empty = if kind == 0 {
                    mask(BLOCK_EMPTY[e])
                } else {
                    mask(&[3 * e as u8, 3 * e as u8 + 1, 3 * e as u8 + 2])
                };
                if pots & empty == 0 {
                    if kind == 0 {
                        blade1 = pots & mask(BLOCK_BLADES[e].0);
                        blade2 = pots & mask(BLOCK_BLADES[e].1);
                        heart_pot = if e < 9 { pots & 1 << e } else { 0 };
                    } else {
                        let segs: Vec<usize> = (0..3).filter(|&s| s != e).collect();
                        let seg = |s: usize| 0b111u16 << (3 * s);
                        blade1 = pots & seg(segs[0]);
                        blade2 = pots & seg(segs[1]);
                    }
                    if blade1 != 0 && blade2 != 0 {
                        grouped = true;
                    }
                    break;
                }
                e += 1;
            }
            if !grouped {
                return out;
            }
        }
        let (c1, c2) = (blade1.ones(), blade2.ones());
        let block = kind == 0;
        let heart = if e < 9 { self.cell(r, e) } else { NO };
        let mut ordinal = 0;
        while ordinal < 2 {
            cl[2] = NO;
            cl[4] = NO;
            cl[3] = NO;
            cl[5] = NO;
            let mut skip = false;
            if grouped {
                if c1 == 1 || c2 == 1 {
                    if ordinal == 0 {
                        if c1 == 1 {
                            cl[0] = self.cell(r, nth(blade1, 0));
                            cl[1] = self.cell(r, nth(blade2, 0));
                            if block {
                                cl[3] = heart;
                                if c2 > 1 {
                                    cl[5] = self.cell(r, nth(blade2, 1));
                                }
                            } else {
                                cl[3] = self.cell(r, nth(blade2, 1));
                                if c2 > 2 {
                                    cl[5] = self.cell(r, nth(blade2, 2));
                                }
                            }
                            if c2 == 1 {
                                cl[0] = self.cell(r, nth(blade1, 0));
                                cl[1] = self.cell(r, nth(blade2, 0));
                                cl[3] = NO;
                                cl[2] = NO;
                                cl[4] = NO;
                                cl[5] = NO;
                                ordinal = 1;
                            }
                        } else {
                            skip = true;
                        }
                    }
                    if !skip && ordinal == 1 {
                        if c2 == 1 {
                            cl[0] = self.cell(r, nth(blade2, 0));
                            cl[1] = self.cell(r, nth(blade1, 0));
                            cl[2] = NO;
                            cl[4] = NO;
                            cl[5] = NO;
                            if block {
                                cl[3] = heart;
                                if c1 > 1 {
                                    cl[5] = self.cell(r, nth(blade1, 1));
                                }
                            } else {
                                cl[3] = self.cell(r, nth(blade1, 1));
                                if c1 > 2 {
                                    cl[5] = self.cell(r, nth(blade1, 2));
                                }
                            }
                        } else {
                            skip = true;
                        }
                    }
                } else {
                    cl[0] = self.cell(r, nth(blade1, 0));
                    cl[2] = self.cell(r, nth(blade1, 1));
                    if c1 > 2 {
                        cl[4] = self.cell(r, nth(blade1, 2));
                    }
                    cl[1] = self.cell(r, nth(blade2, 0));
                    cl[3] = self.cell(r, nth(blade2, 1));
                    if c2 > 2 {
                        cl[5] = self.cell(r, nth(blade2, 2));
                    }
                    let eml = e > 8
                        && count == 4
                        && same_line(cl[2] as usize, cl[3] as usize)
                        && same_line(cl[0] as usize, cl[1] as usize);
                    if eml && ordinal == 1 && cl[1] == self.cell(r, nth(blade2, 0)) {
                        cl[1] = self.cell(r, nth(blade1, 1));
                        cl[2] = self.cell(r, nth(blade2, 0));
                    }
                    if !eml {
                        ordinal = 1;
                        if e < 9 && heart_pot.ones() == 1 {
                            if c1 == 2 {
                                cl[4] = heart;
                            }
                            if c2 == 2 {
                                cl[5] = heart;
                            }
                        }
                    }
                }
            } else {
                ordinal = 1;
                cl[0] = self.cell(r, nth(pots, 0));
                cl[1] = self.cell(r, nth(pots, 1));
                if block && same_line(cl[0] as usize, cl[1] as usize) {
                    skip = true;
                }
            }
            if !skip {
                let ends = [
                    end_regions([cl[0], cl[2], cl[4]]),
                    end_regions([cl[1], cl[3], cl[5]]),
                ];
                out.push(Variant {
                    cells: cl,
                    grouped,
                    ends,
                    peers: PEER_MASK[cl[0] as usize] | PEER_MASK[cl[1] as usize],
                });
            }
            ordinal += 1;
        }
        out
    }

    /// Chooses link `depth` among the regions numbered `from` on. Every
    /// kind set at once: SukakuExplainer's pass for one set of kinds takes
    /// the regions of a kind ascending, those of the previous link's kind
    /// only after it, so its link sequences are exactly the sequences of
    /// ascending region numbers with those kinds, in the same order here.
    fn build(&mut self, depth: usize, from: usize) {
        let n = self.n;
        // The regions from `from` on that make a link and share no
        // candidate cell with the links so far, ascending.
        let mut regions = self.avail & !self.banned & (!0u32 << from);
        if depth == n - 1 {
            self.last_link(regions);
            return;
        }
        let Prefix {
            meets,
            once,
            twice,
            base,
        } = self.prefix[depth];
        while regions != 0 {
            let r = regions.trailing_zeros() as usize;
            regions &= regions - 1;
            // Each link further takes a region of its own, numbered
            // higher: too few left, no fish (exact cut).
            if !at_least(regions & !self.clash[r], n - 1 - depth) {
                continue;
            }
            self.region[depth] = r;
            self.kinds[depth] = r / 9;
            for v in 0..self.variants[r].len() {
                let var = &self.variants[r][v];
                let reach = var.ends[0] | var.ends[1];
                let mut meets = meets;
                for k in 0..depth {
                    if self.reach[k] & reach != 0 {
                        meets |= 1 << (4 * k + depth);
                    }
                }
                if n == 4 && depth == 2 && meets == 0 {
                    // Three links none of which meets another: a fourth
                    // can at best join them in a star, which no order
                    // chains (exact cut: no fish from these three).
                    continue;
                }
                self.prefix[depth + 1] = Prefix {
                    meets,
                    once: once | var.peers,
                    twice: twice | once & var.peers,
                    base: base | REGION_BITS[r],
                };
                self.variant[depth] = v;
                self.reach[depth] = reach;
                let saved = self.banned;
                self.banned |= self.clash[r];
                self.build(depth + 1, r + 1);
                self.banned = saved;
            }
        }
    }

    /// The last link, among `regions`, with two exact cuts before the
    /// orders, read from what the other links share ([`Prefix`]):
    ///
    /// - a fish chains every link to the next one, so some order of the
    ///   links (one of [`ORDERS`]) has every pair of consecutive links
    ///   meeting ([`HAS_ORDER`]); else no order and no choice of ends
    ///   succeeds;
    /// - every cell a fish eliminates from holds the digit outside the
    ///   links' regions and sees an end of each of two different links
    ///   (the two free ends, or in an X-loop the two ends of a weak link):
    ///   unless some cell does, no order and no choice of ends finds one.
    fn last_link(&mut self, mut regions: u32) {
        let n = self.n;
        let depth = n - 1;
        let Prefix {
            meets,
            once,
            twice,
            base,
        } = self.prefix[depth];
        let table = &HAS_ORDER[n - 2];
        while regions != 0 {
            let r = regions.trailing_zeros() as usize;
            regions &= regions - 1;
            self.region[depth] = r;
            self.kinds[depth] = r / 9;
            let in_base = base | REGION_BITS[r];
            for v in 0..self.variants[r].len() {
                let var = &self.variants[r][v];
                let reach = var.ends[0] | var.ends[1];
                let mut all_meets = meets;
                for k in 0..depth {
                    if self.reach[k] & reach != 0 {
                        all_meets |= 1 << (4 * k + depth);
                    }
                }
                if table[all_meets as usize >> 6] & 1 << (all_meets & 63) == 0 {
                    continue;
                }
                if (twice | once & var.peers) & self.all & !in_base == 0 {
                    continue;
                }
                self.variant[depth] = v;
                self.reach[depth] = reach;
                self.evaluate(all_meets, in_base);
            }
        }
    }

    /// Every order of the links (Heap's permutations, countdown form) and
    /// every choice of ends, given which pairs of links meet and the cells
    /// of the links' regions.
    fn evaluate(&mut self, meets: u16, base: u128) {
        let n = self.n;
        self.kind_set = KIND_SET_INDEX[n - 2][kind_code(&self.kinds[..n])] as usize;
        for depth in 0..n {
            let Variant {
                cells: cl,
                grouped,
                ends,
                ..
            } = self.variants[self.region[depth]][self.variant[depth]];
            let (p0, s0a, s0b) = (2 * depth, 2 * n + 2 * depth, 4 * n + 2 * depth);
            self.ends[p0] = ends[0];
            self.ends[p0 + 1] = ends[1];
            self.grouped[depth] = grouped;
            self.cells[p0] = cl[0];
            self.cells[p0 + 1] = cl[1];
            self.cells[s0a] = cl[2];
            self.cells[s0a + 1] = cl[3];
            self.cells[s0b] = cl[4];
            self.cells[s0b + 1] = cl[5];
        }
        self.meet = [[UNKNOWN; 8]; 8];
        self.min_link = (0..n)
            .min_by_key(|&k| full_number(self.region[k]))
            .unwrap_or(0);
        self.base = base;
        for &(q, pairs) in &ORDERS[n - 2] {
            // Consecutive links whose ends never meet fail every choice of
            // ends (exact cut, before the choices).
            if pairs & !meets == 0 {
                let mut u = [0usize; 4];
                self.choose_ends(&q[..n], &mut u, 0);
            }
        }
    }

    /// Every choice of which end of each link comes first, as a binary
    /// count with the first link's choice most significant (depth first,
    /// 0 before 1: the same order); a prefix whose consecutive links do not
    /// meet is dropped with all its completions (each would fail there).
    fn choose_ends(&mut self, q: &[usize], u: &mut [usize; 4], k: usize) {
        let n = self.n;
        if k == n {
            self.try_fish(q, &u[..n]);
            return;
        }
        for x in 0..2 {
            u[k] = x;
            if k > 0 && self.meet(2 * q[k - 1] + (1 - u[k - 1]), 2 * q[k] + x) == NO_REGION {
                continue;
            }
            self.choose_ends(q, u, k + 1);
        }
    }

    fn group(&self, idx: usize) -> [u8; 3] {
        let n = self.n;
        [
            self.cells[idx],
            self.cells[idx + 2 * n],
            self.cells[idx + 4 * n],
        ]
    }

    /// The region shared by link ends `i` and `j` (memoised per
    /// evaluation), or `NO_REGION`.
    fn meet(&mut self, i: usize, j: usize) -> u8 {
        if self.meet[i][j] == UNKNOWN {
            self.meet[i][j] = shared(self.ends[i], self.ends[j]);
        }
        self.meet[i][j]
    }

    fn try_fish(&mut self, q: &[usize], u: &[usize]) {
        let n = self.n;
        let (si, ei) = (2 * q[0] + u[0], 2 * q[n - 1] + (1 - u[n - 1]));
        let ring = self.meet(si, ei) != NO_REGION;
        // Without a ring the eliminations are among the digit's cells
        // outside the links' regions seeing both free ends: none, no fish
        // (exact; the consecutive links meet, `choose_ends` checked).
        if !ring
            && PEER_MASK[self.cells[si] as usize]
                & PEER_MASK[self.cells[ei] as usize]
                & self.all
                & !self.base
                == 0
        {
            return;
        }
        // An X-loop is taken once: from the link whose region has the
        // smallest number (Explainer compares region numbers: the
        // smallest is unique), first end first.
        if ring && !(q[0] == self.min_link && u[0] == 0) {
            return;
        }
        let mut share = [0usize; 4];
        let mut bridges = [[[NO; 3]; 2]; 4];
        for w in 0..n - 1 {
            let (i, j) = (2 * q[w] + (1 - u[w]), 2 * q[w + 1] + u[w + 1]);
            match self.meet(i, j) {
                NO_REGION => return,
                reg => share[w] = reg as usize,
            }
            bridges[w] = [self.group(i), self.group(j)];
        }
        let (start, end) = (self.group(si), self.group(ei));
        let b = self.b;
        let d = self.digit;
        let seeing = |g: &[u8]| {
            g.iter()
                .filter(|&&c| c != NO)
                .fold(!0u128, |m, &c| m & PEER_MASK[c as usize])
        };
        let base = self.base;
        let mut victims = PEER_MASK[start[0] as usize] & PEER_MASK[end[0] as usize];
        if self.grouped[q[0]] && start[1] != NO {
            victims &= seeing(&start[1..]);
        }
        if self.grouped[q[n - 1]] && end[1] != NO {
            victims &= seeing(&end[1..]);
        }
        victims &= !(1u128 << start[0]) & !(1u128 << end[0]) & !base;
        if !ring {
            for &s in &share[..n - 1] {
                victims &= !REGION_BITS[s];
            }
        }
        let mut list = Vec::new();
        let mut total = 0u32;
        let mut add = |v: u128, list: &mut Vec<usize>| {
            let mut v = v & b.cells_of(d);
            while v != 0 {
                let c = v.trailing_zeros() as usize;
                v &= v - 1;
                total += 1;
                if !list.contains(&c) {
                    list.push(c);
                }
            }
        };
        add(victims, &mut list);
        if ring {
            for [b1, b2] in bridges.iter().take(n - 1) {
                let mut v = PEER_MASK[b1[0] as usize] & PEER_MASK[b2[0] as usize];
                if b1[1] != NO {
                    v &= seeing(&b1[1..]);
                }
                if b2[1] != NO {
                    v &= seeing(&b2[1..]);
                }
                v &= !(1u128 << b1[0]) & !(1u128 << b2[0]) & !base;
                add(v, &mut list);
            }
        }
        if list.is_empty() {
            return;
        }
        list.sort_unstable();
        let grouped_count = self.grouped.iter().filter(|&&g| g).count();
        let set: Vec<usize> = q.iter().map(|&k| self.kinds[k]).collect();
        let mut suffix = vec![b'0' + grouped_count as u8];
        if is_lex(&set) {
            suffix.extend(line_name(&set));
        } else {
            let rev: Vec<usize> = set.iter().rev().copied().collect();
            suffix.extend(line_name(&rev));
        }
        let base_tenths = [0u16, 40, 54, 58][n - 1];
        let rest = &suffix[1..];
        let add_tenths = if grouped_count > 0 || rest.iter().any(|&c| c >= b'3') {
            3
        } else if !rest.contains(&b'0') && !rest.contains(&b'2') {
            0
        } else if rest.contains(&b'0') && rest.contains(&b'2') {
            2
        } else {
            1
        };
        // Before SukakuExplainer 1.17.7 (three and four links; two links
        // were another producer then): a block link +0.1, else mixed rows
        // and columns +0.2, parallel lines +0.0.
        let early_add = if n < 3 || add_tenths == 3 {
            add_tenths
        } else if rest.contains(&b'0') {
            1
        } else if rest.contains(&b'2') {
            2
        } else {
            0
        };
        let mut cells = vec![start[0] as usize];
        for [b1, b2] in bridges.iter().take(n - 1) {
            cells.push(b1[0] as usize);
            cells.push(b2[0] as usize);
        }
        cells.push(end[0] as usize);
        let mut regions: Vec<usize> = q.iter().map(|&k| self.region[k]).collect();
        regions.extend_from_slice(&share[..n - 1]);
        self.found.push(Found {
            kind_set: self.kind_set,
            tenths: base_tenths + add_tenths,
            early_tenths: base_tenths + early_add,
            eliminations: total,
            suffix,
            victims: list,
            digit: d,
            cells,
            regions,
            grouped: grouped_count > 0,
            ring,
        });
    }
}

/// Whether `m` has at least `k` bits set, for `k` up to 3 (without a
/// population count, which the default x86-64 target has no instruction
/// for).
#[inline]
fn at_least(m: u32, k: usize) -> bool {
    let m2 = m & m.wrapping_sub(1);
    match k {
        0 => true,
        1 => m != 0,
        2 => m2 != 0,
        _ => m2 & m2.wrapping_sub(1) != 0,
    }
}

/// SukakuExplainer's region number: kind * 10 + index + 1.
fn full_number(r: usize) -> usize {
    r / 9 * 10 + r % 9 + 1
}
