//! A search split into independent subproblems, for a cluster (or any pool
//! of machines): each subproblem is counted on its own, in any order, as
//! often as needed (a failed task is simply counted again), and the counts
//! add up to the problem's.
//!
//! A [`Subproblem`] is a list of options forced on the original problem:
//! its solutions are the problem's solutions that contain every one of
//! them. [`split`] walks the top `depth` levels of the search tree (the
//! same tree [`Dlx`] searches, forced moves included) and returns one
//! subproblem per node at that depth, plus one per solution met above it;
//! every solution of the problem contains exactly one of them, since at
//! each level the branches cover the chosen item with different options.
//! [`count_subproblem`] selects the options on a fresh solver
//! ([`Dlx::select`]) and counts what is left.
//!
//! A subproblem travels as a [token](Subproblem::token): its option numbers
//! (from 0, in the order the options were given) separated by commas,
//! `17,204,33`. A token is independent of the heuristic and seed the split
//! ran with: it only names options of the problem.
//!
//! ```
//! use exact_cover::split::{count_subproblem, split, Subproblem};
//! use exact_cover::{format, Config, Limits};
//!
//! // 6-queens: 4 solutions
//! let mut text = String::from("r0 r1 r2 r3 r4 r5 c0 c1 c2 c3 c4 c5 |");
//! for d in 0..11 { text += &format!(" a{d} b{d}"); }
//! text.push('\n');
//! for r in 0..6 { for c in 0..6 { text += &format!("r{r} c{c} a{} b{}\n", r + c, r + 5 - c); } }
//! let problem = format::parse(&text)?.problem;
//!
//! let parts = split(&problem, Config::default(), 2).expect("no multiplicities");
//! let mut total = 0;
//! for part in &parts {
//!     let token = part.token();                   // e.g. "1,9"
//!     let again: Subproblem = token.parse().expect("a token reads back");
//!     let report = count_subproblem(&problem, Config::default(), &again, &Limits::none())
//!         .expect("options of the problem that do not clash");
//!     total += report.stats.solutions;
//! }
//! assert_eq!(total, 4);
//! # Ok::<(), format::ParseError>(())
//! ```

use std::fmt;
use std::str::FromStr;

use crate::limits::Limits;
use crate::problem::Problem;
use crate::search::{Config, Dlx};
use crate::stats::Report;

/// Options forced on a problem: the part of the search below them.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Subproblem {
    options: Vec<usize>,
}

impl Subproblem {
    /// The subproblem with these options forced (problem indices).
    pub fn new(options: Vec<usize>) -> Subproblem {
        Subproblem { options }
    }

    /// The forced options (problem indices, from 0).
    pub fn options(&self) -> &[usize] {
        &self.options
    }

    /// The token: option numbers separated by commas (`17,204,33`); the
    /// empty string for the whole problem.
    pub fn token(&self) -> String {
        self.to_string()
    }
}

impl fmt::Display for Subproblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (k, o) in self.options.iter().enumerate() {
            if k > 0 {
                f.write_str(",")?;
            }
            write!(f, "{o}")?;
        }
        Ok(())
    }
}

/// A token that is not a list of option numbers.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "subproblem token, column {column}: '{found}' is not an option number (tokens are option numbers separated by commas, e.g. 17,204,33)"
)]
pub struct TokenError {
    /// Column (in characters, from 1) of the bad number.
    pub column: usize,
    /// The text found there.
    pub found: String,
}

impl FromStr for Subproblem {
    type Err = TokenError;

    /// Reads a token; white space around the numbers is allowed.
    fn from_str(token: &str) -> Result<Subproblem, TokenError> {
        if token.trim().is_empty() {
            return Ok(Subproblem::default());
        }
        let mut options = Vec::new();
        let mut column = 1;
        for part in token.split(',') {
            let lead = part.len() - part.trim_start().len();
            match part.trim().parse::<usize>() {
                Ok(o) => options.push(o),
                Err(_) => {
                    return Err(TokenError {
                        column: column + part[..lead].chars().count(),
                        found: part.trim().to_string(),
                    });
                }
            }
            column += part.chars().count() + 1;
        }
        Ok(Subproblem { options })
    }
}

/// Why a problem cannot be split, or a subproblem not counted.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SplitError {
    /// Items with multiplicities: a branch there is not "the option chosen"
    /// alone (the options tried before it are excluded), so a list of
    /// options does not describe it.
    #[error(
        "the problem has items with multiplicities (u:v|item): splitting needs exact-cover items"
    )]
    Multiplicities,
    /// A depth of 0 would be the whole problem.
    #[error("the split depth must be at least 1")]
    ZeroDepth,
    /// An option number past the problem's last option.
    #[error("option {option} does not exist (the problem has {count} options, numbered from 0)")]
    NoSuchOption {
        /// The number given.
        option: usize,
        /// The problem's option count.
        count: usize,
    },
    /// An option that clashes with the forced options before it (shares a
    /// primary or secondary item, or gives a secondary item another colour),
    /// or is repeated.
    #[error("option {option} clashes with the options before it in the token")]
    Clash {
        /// The option number.
        option: usize,
    },
}

/// The subproblems at `depth` levels of choices (forced moves count as
/// levels), and the solutions met above that depth, in search order. Their
/// counts add up to the problem's count; see the [module docs](self).
///
/// The number of subproblems grows with the depth (roughly by the branching
/// factor per level); a depth at which there are tens to hundreds of
/// subproblems per worker balances well. The enumeration itself visits
/// only the top `depth` levels.
pub fn split(
    problem: &Problem,
    config: Config,
    depth: usize,
) -> Result<Vec<Subproblem>, SplitError> {
    if problem.has_multiplicities() {
        return Err(SplitError::Multiplicities);
    }
    if depth == 0 {
        return Err(SplitError::ZeroDepth);
    }
    let mut paths = Vec::new();
    Dlx::with_config(problem, config).split_options(depth, &mut paths);
    Ok(paths.into_iter().map(Subproblem::new).collect())
}

/// Count the solutions of `problem` that contain every option of `sub`,
/// on one thread, under `limits`. The report's stats cover the search below
/// the forced options (its solution count is the answer; exact when the
/// stop reason is [`Exhausted`](crate::StopReason::Exhausted)).
pub fn count_subproblem(
    problem: &Problem,
    config: Config,
    sub: &Subproblem,
    limits: &Limits,
) -> Result<Report, SplitError> {
    let mut dlx = subproblem_solver(problem, config, sub)?;
    Ok(dlx.count(limits))
}

/// A solver loaded with `problem` and the options of `sub` selected: its
/// searches ([`Dlx::count`], [`Dlx::search`], [`Dlx::solutions`]) see only
/// the subproblem's solutions (each starting with the forced options).
pub fn subproblem_solver(
    problem: &Problem,
    config: Config,
    sub: &Subproblem,
) -> Result<Dlx, SplitError> {
    if problem.has_multiplicities() {
        return Err(SplitError::Multiplicities);
    }
    let count = problem.option_count();
    let mut dlx = Dlx::with_config(problem, config);
    for &option in sub.options() {
        if option >= count {
            return Err(SplitError::NoSuchOption { option, count });
        }
        if !dlx.select(option) {
            return Err(SplitError::Clash { option });
        }
    }
    Ok(dlx)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::parse;

    fn queens(n: usize) -> Problem {
        let mut text = String::new();
        for k in 0..n {
            text.push_str(&format!("r{k} c{k} "));
        }
        text.push('|');
        for d in 0..2 * n - 1 {
            text.push_str(&format!(" a{d} b{d}"));
        }
        text.push('\n');
        for r in 0..n {
            for c in 0..n {
                text.push_str(&format!("r{r} c{c} a{} b{}\n", r + c, r + n - 1 - c));
            }
        }
        parse(&text).expect("queens parse").problem
    }

    fn total(problem: &Problem, config: Config, depth: usize) -> (usize, u64) {
        let parts = split(problem, config, depth).expect("splits");
        let sum = parts
            .iter()
            .map(|p| {
                let r = count_subproblem(problem, Config::default(), p, &Limits::none())
                    .expect("counts");
                assert!(r.stop.is_complete());
                r.stats.solutions
            })
            .sum();
        (parts.len(), sum)
    }

    #[test]
    fn subproblem_counts_add_up_at_every_depth() {
        let p = queens(8);
        for depth in 1..=9 {
            let (n, sum) = total(&p, Config::default(), depth);
            assert_eq!(sum, 92, "depth {depth}");
            assert!(n > 1 || depth == 1, "depth {depth}: {n} parts");
        }
        // deeper than the tree: every part is a solution
        assert_eq!(split(&p, Config::default(), 20).unwrap().len(), 92);
    }

    #[test]
    fn tokens_do_not_depend_on_the_heuristic_that_made_them() {
        let p = queens(7);
        for config in [
            Config {
                heuristic: crate::Heuristic::First,
                seed: None,
                reduce: true,
            },
            Config {
                heuristic: crate::Heuristic::Mrv,
                seed: Some(5),
                reduce: true,
            },
        ] {
            assert_eq!(total(&p, config, 3).1, 40);
        }
    }

    #[test]
    fn colours_and_secondary_items_split_too() {
        let p = parse("A B C | X Y\nA X:1\nB X:1 Y:2\nB X:2\nC Y:2\nC Y:3\nA B\nC\n")
            .unwrap()
            .problem;
        let whole = Dlx::new(&p).count(&Limits::none()).stats.solutions;
        assert!(whole > 0);
        for depth in 1..=3 {
            assert_eq!(
                total(&p, Config::default(), depth).1,
                whole,
                "depth {depth}"
            );
        }
    }

    #[test]
    fn tokens_read_back_and_bad_ones_are_named() {
        let s = Subproblem::new(vec![17, 204, 3]);
        assert_eq!(s.token(), "17,204,3");
        assert_eq!(s.token().parse::<Subproblem>().unwrap(), s);
        assert_eq!(" 1, 2 ".parse::<Subproblem>().unwrap().options(), [1, 2]);
        assert_eq!(
            "".parse::<Subproblem>().unwrap().options(),
            [] as [usize; 0]
        );
        let e = "1,x2,3".parse::<Subproblem>().unwrap_err();
        assert_eq!((e.column, e.found.as_str()), (3, "x2"));
        let p = queens(5);
        let bad = |t: &str| {
            count_subproblem(&p, Config::default(), &t.parse().unwrap(), &Limits::none())
                .unwrap_err()
        };
        assert_eq!(
            bad("3,99"),
            SplitError::NoSuchOption {
                option: 99,
                count: 25
            }
        );
        // squares 0 and 1 share row 0
        assert_eq!(bad("0,1"), SplitError::Clash { option: 1 });
        assert_eq!(bad("0,0"), SplitError::Clash { option: 0 });
        assert_eq!(split(&p, Config::default(), 0), Err(SplitError::ZeroDepth));
        let multi = parse("2|A B\nA\nA B\nB\n").unwrap().problem;
        assert_eq!(
            split(&multi, Config::default(), 1),
            Err(SplitError::Multiplicities)
        );
    }
}
