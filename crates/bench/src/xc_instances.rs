//! Generators for the larger exact-cover benchmark instances (so they need
//! not be stored), in the layouts of the bundled `testdata/xc` files.

use std::fmt::Write;

/// n-queens in Knuth's format: ranks and files primary (interleaved
/// `r0 c0 r1 c1 ...`), diagonals secondary, diagonals of length one left out
/// (the layout of the bundled `queens8.dlx`). Diagonals are named by one
/// base-36 digit (`a1` .. `az`) up to n = 18, as Knuth names them, and by
/// their decimal number beyond (`a1` .. `a36` ...).
///
/// # Panics
///
/// When `n` is 0 (callers check).
pub fn queens(n: usize) -> String {
    queens_in_order(n, &(0..n).collect::<Vec<_>>(), "")
}

/// [`queens`] with the primary items listed in "organ-pipe" order, middle
/// ranks and files first (`r6 c6 r7 c7 r5 c5 r8 c8 ...` for n = 14: by
/// distance from the middle, the lower first on ties), as Knuth lists them
/// in his queens instances (TAOCP 7.2.2.1): MRV breaks ties by item order,
/// so the search branches on central lines first. Same options, in the
/// same order, as [`queens`].
pub fn queens_organ_pipe(n: usize) -> String {
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&i| ((2 * i).abs_diff(n - 1), i));
    queens_in_order(n, &order, ", organ-pipe order")
}

fn queens_in_order(n: usize, order: &[usize], label: &str) -> String {
    assert!(n > 0, "n-queens needs n >= 1");
    let digit = |k: usize| match char::from_digit(k as u32, 36) {
        Some(c) if n <= 18 => c.to_string(),
        _ => k.to_string(),
    };
    let mut s = format!("| {n}-queens{label}\n");
    for &i in order {
        write!(s, "r{i} c{i} ").unwrap();
    }
    s.push('|');
    for d in 1..2 * n - 2 {
        write!(s, " a{0} b{0}", digit(d)).unwrap();
    }
    s.push('\n');
    for r in 0..n {
        for c in 0..n {
            write!(s, "r{r} c{c}").unwrap();
            let (a, b) = (r + c, n - 1 - r + c);
            if 0 < a && a < 2 * n - 2 {
                write!(s, " a{}", digit(a)).unwrap();
            }
            if 0 < b && b < 2 * n - 2 {
                write!(s, " b{}", digit(b)).unwrap();
            }
            s.push('\n');
        }
    }
    s
}

/// The domino tilings of an `rows` × `cols` board: one primary item per
/// square (`x{r}_{c}`, row by row), one option per domino (horizontal and
/// vertical). Listed row by row, so that branching on the first uncovered
/// square (`dlx --count --memo --heuristic first`) sweeps a frontier, as
/// Nishino et al.'s DXZ does: 8×8 has 12,988,816 tilings, 12×12
/// 53,060,477,521,960,000.
pub fn dominoes(rows: usize, cols: usize) -> String {
    let mut s = format!("| domino tilings of a {rows}x{cols} board\n");
    let names: Vec<String> = (0..rows * cols)
        .map(|k| format!("x{}_{}", k / cols, k % cols))
        .collect();
    s.push_str(&names.join(" "));
    s.push('\n');
    for r in 0..rows {
        for c in 0..cols {
            if c + 1 < cols {
                writeln!(s, "x{r}_{c} x{r}_{}", c + 1).unwrap();
            }
            if r + 1 < rows {
                writeln!(s, "x{r}_{c} x{}_{c}", r + 1).unwrap();
            }
        }
    }
    s
}

/// Langford pairs for `n`, in the layout of the bundled `langford11.dlx`.
pub fn langford(n: usize) -> String {
    let mut s = format!("| Langford pairs n={n}\n");
    for i in 1..=n {
        write!(s, "{i} ").unwrap();
    }
    for j in 1..=2 * n {
        write!(s, "s{j}{}", if j < 2 * n { " " } else { "\n" }).unwrap();
    }
    for i in 1..=n {
        for j in 1..=2 * n {
            if j + i < 2 * n {
                writeln!(s, "{i} s{j} s{}", j + i + 1).unwrap();
            }
        }
    }
    s
}

/// A 9×9 Sudoku as XCC, in the layout of the bundled `sudoku-inkala-xcc.dlx`:
/// primary items `pRC rRD cCD bBD` and `#givens`, a secondary item `xRC` per
/// cell coloured by its digit, 729 options, and one option imposing the givens.
pub fn sudoku_xcc(puzzle: &str) -> String {
    let cells: Vec<char> = puzzle.chars().collect();
    assert_eq!(cells.len(), 81, "81 characters");
    let mut s = format!("|sudoku {puzzle}\n#givens");
    for pre in ['p', 'r', 'c', 'b'] {
        for a in 0..9 {
            for b in 0..9 {
                write!(s, " {pre}{a}{}", if pre == 'p' { b } else { b + 1 }).unwrap();
            }
        }
    }
    s.push_str(" |");
    for k in 0..81 {
        write!(s, " x{}{}", k / 9, k % 9).unwrap();
    }
    s.push_str("\n#givens");
    for (k, &ch) in cells.iter().enumerate() {
        if ch.is_ascii_digit() && ch != '0' {
            write!(s, " x{}{}:{ch}", k / 9, k % 9).unwrap();
        }
    }
    s.push('\n');
    for r in 0..9 {
        for c in 0..9 {
            let b = (r / 3) * 3 + c / 3;
            for d in 1..=9 {
                writeln!(s, "p{r}{c} r{r}{d} c{c}{d} b{b}{d} x{r}{c}:{d}").unwrap();
            }
        }
    }
    s
}

/// A random exact-cover problem with secondary items (`xc --print
/// random-secondary` is `random_secondary(30, 12, 230, 1)`): primary items
/// `p0 ..`, secondary items `s0 ..`, and `options` options, each of 2 to 4
/// distinct primary items drawn uniformly, half of them with one secondary
/// item as well, from [`SplitMix64`](exact_cover::SplitMix64) seeded with
/// `seed`, so the same arguments always give the same file.
///
/// # Panics
///
/// When `primary < 4` or `secondary == 0`.
pub fn random_secondary(primary: usize, secondary: usize, options: usize, seed: u64) -> String {
    assert!(primary >= 4 && secondary > 0, "too few items");
    let mut rng = exact_cover::SplitMix64::new(seed);
    let mut s = format!(
        "| random exact cover with secondary items: {primary} primary, {secondary} \
         secondary, {options} options, seed {seed}\n"
    );
    let names = |prefix: char, n: usize| {
        (0..n)
            .map(|k| format!("{prefix}{k}"))
            .collect::<Vec<_>>()
            .join(" ")
    };
    writeln!(s, "{} | {}", names('p', primary), names('s', secondary)).unwrap();
    let mut items = Vec::with_capacity(4);
    for _ in 0..options {
        let size = 2 + rng.below(3);
        items.clear();
        while items.len() < size {
            let i = rng.below(primary);
            if !items.contains(&i) {
                items.push(i);
            }
        }
        let mut line = items
            .iter()
            .map(|i| format!("p{i}"))
            .collect::<Vec<_>>()
            .join(" ");
        if rng.below(2) == 0 {
            write!(line, " s{}", rng.below(secondary)).unwrap();
        }
        writeln!(s, "{line}").unwrap();
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bundled(name: &str) -> String {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../testdata/xc")
            .join(name);
        std::fs::read_to_string(path).unwrap()
    }

    #[test]
    fn generators_match_the_bundled_instances() {
        assert_eq!(
            queens(8).lines().skip(1).collect::<Vec<_>>(),
            bundled("queens8.dlx").lines().skip(1).collect::<Vec<_>>()
        );
        assert_eq!(
            langford(11).lines().skip(1).collect::<Vec<_>>(),
            bundled("langford11.dlx")
                .lines()
                .skip(1)
                .collect::<Vec<_>>()
        );
        // organ-pipe order: the same options, primary items middle first
        let organ = queens_organ_pipe(8);
        assert_eq!(
            organ.lines().nth(1).unwrap(),
            "r3 c3 r4 c4 r2 c2 r5 c5 r1 c1 r6 c6 r0 c0 r7 c7 | a1 b1 a2 b2 a3 b3 a4 b4 a5 b5 a6 b6 a7 b7 a8 b8 a9 b9 aa ba ab bb ac bc ad bd"
        );
        assert_eq!(
            organ.lines().skip(2).collect::<Vec<_>>(),
            queens(8).lines().skip(2).collect::<Vec<_>>()
        );
        let inkala =
            "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";
        assert_eq!(sudoku_xcc(inkala), bundled("sudoku-inkala-xcc.dlx"));
    }

    /// Issue 18: the domino tilings, counted with memoisation (OEIS
    /// A004003 for the squares; 2 × n boards give Fibonacci numbers).
    #[test]
    fn domino_tilings_are_counted_by_memo() {
        use exact_cover::{Heuristic, Limits, Memo};
        for (r, c, want) in [
            (2, 2, 2u128),
            (2, 10, 89),
            (4, 4, 36),
            (6, 6, 6728),
            (8, 8, 12_988_816),
        ] {
            let p = exact_cover::format::parse(&dominoes(r, c)).unwrap().problem;
            let mut memo = Memo::new(&p).unwrap().with_heuristic(Heuristic::First);
            let got = memo.count(&Limits::none());
            assert_eq!(got.count, want, "{r}x{c}");
        }
    }

    /// Issue 18: `queens(n)` panicked for n > 18 (no base-36 digit left for
    /// its diagonals); beyond 18 they are numbered in decimal.
    #[test]
    fn queens_beyond_18_parse_and_solve() {
        for n in [19, 20, 40] {
            let text = queens(n);
            let p = exact_cover::format::parse(&text).expect("parses").problem;
            assert_eq!(p.primary_count(), 2 * n);
            assert_eq!(p.item_count(), 2 * n + 2 * (2 * n - 3));
            let mut cells = exact_cover::Cells::new(&p).expect("loads");
            let (first, _) = cells.first(&exact_cover::Limits::none());
            assert_eq!(first.expect("n-queens has a solution for n >= 4").len(), n);
        }
        assert!(queens(18).contains(" ax bx\n"));
        assert!(queens(19).contains(" a35 b35\n"));
    }

    /// The random instance is reproducible, and both engines count it alike
    /// (a small one; `random-secondary` has 344,665 solutions).
    #[test]
    fn random_secondary_is_reproducible_and_counted_alike() {
        use exact_cover::{Cells, Dlx, Limits};
        let text = random_secondary(16, 5, 60, 3);
        assert_eq!(text, random_secondary(16, 5, 60, 3));
        assert_ne!(text, random_secondary(16, 5, 60, 4));
        let p = exact_cover::format::parse(&text).expect("parses").problem;
        assert_eq!((p.primary_count(), p.item_count()), (16, 21));
        assert_eq!(p.option_count(), 60);
        // 30 by Knuth's SSXCC too, run on the same text
        assert_eq!(Dlx::new(&p).count(&Limits::none()).stats.solutions, 30);
        let cells = Cells::new(&p).expect("loads").count(&Limits::none());
        assert_eq!(cells.stats.solutions, 30);
    }
}
