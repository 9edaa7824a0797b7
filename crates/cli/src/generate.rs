//! `sudoku generate`: make uniquely solvable puzzles with the library's
//! generator, in index order, on several threads.
//!
//! Puzzle `i` of a run with seed `S` is made from
//! [`puzzle_seed`]`(S, i)`, so a run is reproducible with `--seed` and comes
//! out the same on any number of threads. The indices go through the
//! library's ordered [`Pipeline`] in runs of consecutive indices (one index
//! when puzzles are slow, more when they are fast): each
//! worker keeps one [`Generator`] (its solver and buffers) for the whole run,
//! at most a window of runs is in flight, and the sink writes the puzzles in
//! index order, flushing whenever it waits for the next run.
//!
//! With `--variant KIND` the workers make variant puzzles instead
//! ([`sudoku_core::variant::generate`]), written as ISS text lines (or JSON
//! with the constraints and the solution), on the same pipeline.

use std::io::{self, Write};
use std::ops::Range;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use anyhow::Context;
use serde_json::json;
use sudoku_core::Size;
use sudoku_core::generate::{
    GenerateError, Generated, Generator, GeneratorConfig, Symmetry, puzzle_seed,
};
use sudoku_core::pipeline::{Pipeline, Sink};
use sudoku_core::rate::se::{Producer, Profile as SeProfile};
use sudoku_core::rate::{Band, Rating};
use sudoku_core::solve::CancelToken;
use sudoku_core::variant::generate::{
    Generated as VariantGenerated, Options as VariantOptions, VariantKind, generate_with,
};
use sudoku_core::{Limits, variant};

use crate::output::{Format, grid_block};
use crate::rate::{RateProfile, rating_json, se_rating_json, se_rating_line};
use crate::{
    When, deadline_after, exit, open_output, parse_range, parse_secs, parse_technique,
    progress_bar, rater_config, worker_threads,
};

/// Generate puzzles: every one uniquely solvable; minimal (no clue can be
/// removed) unless a clue range is given. See [`GENERATE_HELP`].
#[derive(clap::Args, Debug, Clone)]
#[command(after_long_help = format!("{}\n{GENERATE_HELP}", crate::rating_help()))]
pub struct GenerateArgs {
    /// How many puzzles.
    #[arg(short = 'n', long, value_name = "N", default_value_t = 1)]
    pub number: u64,
    /// Write the puzzles to FILE ('-': standard output, the default).
    #[arg(short = 'o', long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Seed of the run: the same seed and options give the same puzzles on
    /// any number of threads. Default: a random seed, printed on stderr.
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
    /// Grid size: 4, 9, 16 or 25 (also written 4x4, 9x9, ...); with
    /// --variant 4, 6, 8 or 9 as the kind allows (jigsaw: 4 to 9). Up to
    /// 16x16 every puzzle is proven minimal. 25x25 puzzles are proven unique
    /// but usually not minimal: each clue-removal check has a budget of
    /// 1,000 search nodes, and a check that runs out keeps its clue
    /// ("minimal": false in JSON); --minimal lifts the budget.
    #[arg(long, value_name = "SIZE", default_value = "9", value_parser = parse_side)]
    pub size: usize,
    /// Prove every puzzle minimal, 25x25 too: no node budget on the
    /// clue-removal checks (the default up to 16x16). A minimal 25x25
    /// puzzle takes from seconds to minutes of CPU (the progress bar counts
    /// its checks); with fewer puzzles than --threads, each puzzle's checks
    /// run on several threads (the same puzzles).
    #[arg(long)]
    pub minimal: bool,
    /// Make variant puzzles of this kind: x (both diagonals), windoku,
    /// disjoint, anti-knight, anti-king, non-consecutive, jigsaw (random
    /// regions), killer (cages only, no givens), thermo, kropki (every dot
    /// given), xv (every X and V given). Written in the Interactive Sudoku
    /// Solver's text format, which `sudoku solve` reads. See --help.
    #[arg(long, value_name = "KIND", value_parser = parse_variant)]
    pub variant: Option<VariantKind>,
    /// With --variant killer: allow up to N givens when the cages alone do
    /// not become unique (default 0: cages only).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub killer_givens: usize,
    /// Symmetry of the clue pattern: none, rot180 (half turn), rot90
    /// (quarter turn), mirror (left-right), flip (top-bottom), diagonal
    /// (main diagonal), anti-diagonal, both (left-right and top-bottom).
    #[arg(long, value_name = "SYMMETRY", default_value = "none", value_parser = parse_symmetry)]
    pub symmetry: Symmetry,
    /// Clue count range MIN..MAX (or a single N). Default: minimal puzzles,
    /// as few clues as the grid allows (puzzles with a clue range are not
    /// minimal in general).
    #[arg(long, value_name = "MIN..MAX")]
    pub clues: Option<String>,
    /// Wanted difficulty band, as `sudoku rate` reports it: easy (rating
    /// 1.0-1.5), medium (1.6-2.8), hard (2.9-4.1), expert (4.2-5.0), extreme
    /// (5.1 and up), needs-guessing (see --help for the techniques).
    #[arg(long, value_name = "BAND", value_parser = parse_band)]
    pub difficulty: Option<Band>,
    /// Wanted rating range on the Sudoku Explainer scale, MIN..MAX (e.g.
    /// 3.0..4.5), inclusive.
    #[arg(long, value_name = "MIN..MAX")]
    pub rating: Option<String>,
    /// A technique the solving path must use (repeatable or comma-separated).
    /// With --profile se|sukaku: an Explainer ladder entry, by its title
    /// ("Forcing Chains & Cycles", "X-Wing"; a title with commas, such as
    /// "Scraper, Kite, Turbot", as one argument) or kebab-case name
    /// (forcing-chains-cycles, x-wing).
    #[arg(long, value_name = "TECHNIQUE")]
    pub require: Vec<String>,
    /// Rater for --rating, --require and --rate: default (this project's),
    /// se (Sudoku Explainer 1.2.1) or sukaku (SukakuExplainer): --rating is
    /// then the ER, --rate prints ER/EP/ED, and a puzzle the Explainer rater
    /// leaves unrated (a technique it lacks, or the time limit) never fits.
    #[arg(long, value_enum, default_value_t = RateProfile::Default)]
    pub profile: RateProfile,
    /// Techniques the rater must not use (names, comma-separated or repeated).
    #[arg(long, value_name = "TECHNIQUE")]
    pub disable: Vec<String>,
    /// Worker threads (0 = all cores; at most 4 per core). Output stays in
    /// index order. With fewer 16x16 or 25x25 puzzles than threads, each
    /// puzzle's clue checks share the threads.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub threads: usize,
    /// Print each puzzle's solution too.
    #[arg(long)]
    pub with_solution: bool,
    /// Rate each puzzle: rating, band, hardest technique.
    #[arg(long)]
    pub rate: bool,
    /// Output format: text (one puzzle per line; also called line), grid,
    /// json (JSON Lines).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Give up on a puzzle after this many seconds without one that meets
    /// the target (above 1e9: no limit).
    #[arg(long, value_name = "SECS", value_parser = parse_secs)]
    pub timeout: Option<Duration>,
    /// Give up on the whole run after this many seconds (the puzzles made by
    /// then are printed; above 1e9: no limit).
    #[arg(long, value_name = "SECS", value_parser = parse_secs)]
    pub total_timeout: Option<Duration>,
    /// Give up on a puzzle after N attempts (full grids) without one that
    /// meets the target.
    #[arg(long, value_name = "N", default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub max_attempts: u64,
    /// Progress bar with an ETA on stderr: auto (when stderr is a terminal),
    /// always, never.
    #[arg(long, value_enum, default_value_t = When::Auto)]
    pub progress: When,
}

/// The output and exit-code part of `generate --help`.
pub const GENERATE_HELP: &str = "\
Output: one puzzle per line by default (with --with-solution and --rate
appended after a space, which `sudoku solve` and `sudoku rate` read as a
comment), so it can be piped on. The seed of a run without --seed is printed
on standard error.

Variants (--variant KIND): every puzzle has exactly one solution (checked by
the variant solver, each check within a node budget; a check that runs out
counts as not unique). Givens are minimal (with --symmetry: minimal among
symmetric ones), except that non-consecutive puzzles on 8x8 and 9x9 may keep a
given whose check ran out (\"minimal\": false in JSON). Killer puzzles have
cages of 2 to 5 cells and no givens, and take no --symmetry. The text format
is one ISS line per puzzle (`.Cage~10~R1C1~R1C2...`; with --with-solution the
solution follows after a space), which `sudoku solve` and `count` read; json
has the line as \"puzzle\", its shape, givens and constraints as \"variant\"
(as `solve` writes them), the \"kind\" and the \"solution\". With --rate each
variant puzzle gets the variant explainer's partial rating (the hardest level
of step it needs, or \"stuck\" when it needs a guess: see `sudoku rate`),
after \" # \" in text and as \"rating\" in json (null without --rate); the
classic rater knows rows, columns and boxes only, so --difficulty, --rating,
--require, --disable, --clues and --format grid are usage errors with
--variant.

Exit codes: 0 every puzzle made, 1 a puzzle not made in its budget (too rare a
target for --max-attempts or --timeout, or --total-timeout ran out; the
puzzles made before it are printed), 2 usage or I/O error.";

/// A grid side, `9` or `9x9`: classic sizes are checked by [`config_of`],
/// variant sides by the variant's options.
fn parse_side(text: &str) -> Result<usize, String> {
    let t = text.trim().to_ascii_lowercase();
    let side = match t.split_once('x') {
        Some((a, b)) if a == b => a,
        Some(_) => {
            return Err(format!(
                "'{text}': only square grids (4x4, 9x9, 16x16, 25x25)"
            ));
        }
        None => t.as_str(),
    };
    side.parse::<usize>()
        .ok()
        .filter(|n| (1..=25).contains(n))
        .ok_or_else(|| format!("'{text}' is not a grid size; use 4, 9, 16 or 25"))
}

fn parse_variant(text: &str) -> Result<VariantKind, String> {
    text.parse()
}

fn parse_symmetry(text: &str) -> Result<Symmetry, String> {
    Symmetry::from_name(text).ok_or_else(|| {
        let names: Vec<&str> = Symmetry::ALL.iter().map(|s| s.name()).collect();
        format!("unknown symmetry '{text}'; valid: {}", names.join(", "))
    })
}

fn parse_band(text: &str) -> Result<Band, String> {
    Band::from_name(text).ok_or_else(|| {
        format!("unknown band '{text}'; valid: easy, medium, hard, expert, extreme, needs-guessing")
    })
}

/// The generator config of the arguments (without the seed).
pub fn config_of(args: &GenerateArgs) -> anyhow::Result<GeneratorConfig> {
    let Some(size) = Size::from_side(args.size) else {
        anyhow::bail!(
            "--size: {0}x{0} is not a grid size for classic puzzles; use 4, 9, 16 or 25 \
             (6x6 and 8x8 with --variant)",
            args.size
        );
    };
    let mut c = GeneratorConfig::for_size(size);
    c.symmetry = args.symmetry;
    if let Some(text) = &args.clues {
        let (lo, hi) = parse_range("--clues", text, 0, size.cells())?;
        if lo > size.cells() {
            anyhow::bail!("--clues: a {} grid has only {} cells", size, size.cells());
        }
        c.clues = Some(lo..=hi);
    }
    if args.minimal {
        if args.clues.is_some() {
            anyhow::bail!(
                "--minimal and --clues: a puzzle stopped at a clue count is not minimal in \
                 general; give one of them"
            );
        }
        c.check_nodes = u64::MAX;
    }
    c.band = args.difficulty;
    if let Some(text) = &args.rating {
        let (lo, hi) = parse_range::<f32>("--rating", text, 0.0, 20.0)?;
        if lo.is_nan() || hi.is_nan() {
            anyhow::bail!("--rating: '{text}' is not a range of numbers");
        }
        c.rating = Some(lo..=hi);
    }
    c.se = args.profile.explainer();
    for list in &args.require {
        // an Explainer title may hold commas ("Scraper, Kite, Turbot"): a
        // whole argument that is one title is not split
        let whole = c.se.is_some_and(|profile| {
            let want = list.trim();
            (profile.ladder().iter()).any(|p| p.title().eq_ignore_ascii_case(want))
        });
        let names: Vec<&str> = if whole {
            vec![list.as_str()]
        } else {
            list.split(',').collect()
        };
        for name in names.into_iter().filter(|n| !n.trim().is_empty()) {
            if let Some(profile) = c.se {
                let p = parse_ladder_entry(profile, name)?;
                if !c.se_require.contains(&p) {
                    c.se_require.push(p);
                }
                continue;
            }
            let t = parse_technique("--require", name)?;
            if !c.require.contains(&t) {
                c.require.push(t);
            }
        }
    }
    if c.se.is_some() {
        if args.difficulty.is_some() {
            anyhow::bail!(
                "--difficulty is a band of the default rater; with --profile {} use --rating \
                 MIN..MAX (the ER)",
                args.profile.explainer().map_or("se", |p| p.name())
            );
        }
        crate::rate::check_explainer_flags(&args.disable)?;
    }
    c.rater = rater_config(&args.disable)?;
    c.rate = args.rate;
    c.max_attempts = args.max_attempts;
    c.timeout = args.timeout;
    Ok(c)
}

/// An Explainer ladder entry of `profile` by title or kebab-case name, for
/// `--require`.
fn parse_ladder_entry(profile: SeProfile, name: &str) -> anyhow::Result<Producer> {
    let want = name.trim().to_ascii_lowercase();
    let kebab = |p: Producer| {
        serde_json::to_value(p)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_default()
    };
    let ladder = profile.ladder();
    let found = ladder
        .iter()
        .copied()
        .find(|&p| p.title().to_ascii_lowercase() == want || kebab(p) == want);
    match found {
        Some(p) if p.is_implemented() => Ok(p),
        Some(p) => anyhow::bail!(
            "--require: '{}' is not implemented by the {profile} rater yet (its puzzles are \
             unrated)",
            p.title()
        ),
        None => {
            let names: Vec<String> = ladder
                .iter()
                .filter(|p| p.is_implemented())
                .map(|&p| kebab(p))
                .collect();
            anyhow::bail!(
                "--require: unknown {profile} technique '{name}'; valid: {}",
                names.join(", ")
            )
        }
    }
}

/// The variant options of the arguments: options the variant generator does
/// not take are usage errors.
pub fn variant_options(args: &GenerateArgs, kind: VariantKind) -> anyhow::Result<VariantOptions> {
    let rater = "variant puzzles are rated only by --rate (a partial rating: see `sudoku rate`), \
                 not chosen by it";
    for (given, flag) in [
        (args.difficulty.is_some(), "--difficulty"),
        (args.rating.is_some(), "--rating"),
        (!args.require.is_empty(), "--require"),
        (args.profile != RateProfile::Default, "--profile"),
        (!args.disable.is_empty(), "--disable"),
    ] {
        if given {
            anyhow::bail!("{flag} does not apply to --variant: {rater}");
        }
    }
    if args.clues.is_some() {
        anyhow::bail!("--clues does not apply to --variant: its givens are minimal");
    }
    if args.minimal {
        anyhow::bail!(
            "--minimal does not apply to --variant: its givens are minimal already \
             (see --help)"
        );
    }
    if args.format == Format::Grid {
        anyhow::bail!(
            "--format grid does not draw variant constraints; use text (ISS lines) or json"
        );
    }
    if args.killer_givens > 0 && kind != VariantKind::Killer {
        anyhow::bail!("--killer-givens applies to --variant killer only");
    }
    let options = VariantOptions {
        symmetry: args.symmetry,
        max_attempts: args.max_attempts,
        killer_givens: args.killer_givens,
        ..VariantOptions::new(kind, args.size)
    };
    options.validate()?;
    Ok(options)
}

/// What the workers make.
#[derive(Clone)]
enum Mode {
    Classic(GeneratorConfig),
    Variant(VariantOptions),
}

/// A worker's state: the classic generator keeps its solver and buffers.
enum Worker {
    Classic(Box<Generator>),
    Variant(VariantOptions),
}

/// A puzzle made.
enum Output {
    Classic(Generated),
    Variant(VariantGenerated),
}

impl Worker {
    fn new(mode: &Mode, cancel: &CancelToken, checks: &Arc<AtomicU64>) -> Worker {
        match mode {
            Mode::Classic(c) => Worker::Classic(Box::new(
                Generator::new(c.clone())
                    .with_cancel(cancel.clone())
                    .with_progress(Arc::clone(checks)),
            )),
            Mode::Variant(o) => Worker::Variant(o.clone()),
        }
    }

    /// The puzzle of a seed, by `deadline` (and `timeout`, per puzzle).
    fn make(
        &mut self,
        seed: u64,
        deadline: Option<Instant>,
        timeout: Option<Duration>,
        cancel: &CancelToken,
    ) -> Result<Output, GenerateError> {
        match self {
            Worker::Classic(g) => g.generate_seeded_by(seed, deadline).map(Output::Classic),
            Worker::Variant(o) => {
                let own = timeout.and_then(deadline_after);
                let limits = Limits {
                    deadline: match (own, deadline) {
                        (Some(a), Some(b)) => Some(a.min(b)),
                        (a, b) => a.or(b),
                    },
                    cancel: Some(cancel.clone()),
                    ..Limits::none()
                };
                generate_with(o, seed, &limits).map(Output::Variant)
            }
        }
    }
}

/// A seed from the clock and the process id, for runs without `--seed`.
fn random_seed() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos()),
    );
    h.write_u32(std::process::id());
    h.finish()
}

/// What a worker hands back: puzzle `index`, made or not.
struct Made {
    index: u64,
    made: Result<Output, GenerateError>,
}

/// Why the sink ended the run early.
enum Halt {
    /// Puzzle `index` could not be made (every earlier one is written).
    Failed(u64, GenerateError),
    /// The output cannot be written (a full disk, a closed pipe).
    Write(io::Error),
}

/// The sink: puzzles to the output in index order, flushed whenever the
/// pipeline waits for the next one. On its first failure it cancels the
/// puzzles still being made: every one of them comes after it, so none
/// would be written.
struct Writer<'a> {
    out: &'a mut dyn Write,
    args: &'a GenerateArgs,
    bar: &'a indicatif::ProgressBar,
    /// Whether the bar counts cells checked (large grids) rather than puzzles.
    cell_bar: bool,
    cancel: &'a CancelToken,
    printed: &'a mut u64,
}

impl Writer<'_> {
    fn halt(&self, why: Halt) -> Halt {
        self.cancel.cancel();
        why
    }
}

impl Sink<Vec<Made>> for Writer<'_> {
    type Error = Halt;

    fn put(&mut self, batch: Vec<Made>) -> Result<(), Halt> {
        for m in batch {
            match m.made {
                Ok(g) => {
                    write_puzzle(self.out, self.args, m.index, &g)
                        .map_err(|e| self.halt(Halt::Write(e)))?;
                    *self.printed += 1;
                    if self.cell_bar {
                        self.bar.set_message(format!(
                            "{} of {} puzzles",
                            self.printed, self.args.number
                        ));
                    } else {
                        self.bar.inc(1);
                    }
                }
                Err(e) => return Err(self.halt(Halt::Failed(m.index, e))),
            }
        }
        Ok(())
    }

    fn idle(&mut self) -> Result<(), Halt> {
        self.out.flush().map_err(|e| self.halt(Halt::Write(e)))
    }
}

/// How much work one job of the pipeline is: a run of consecutive indices
/// taking about [`Batches::TARGET`] (from the time per puzzle measured so
/// far), so fast puzzles (tens of microseconds each) do not pay a handoff
/// each, and slow ones (difficulty targets) still come out one by one as
/// they are made.
struct Batches {
    next: u64,
    end: u64,
    /// Lowest index of a puzzle not made (`u64::MAX`: none yet).
    failed: Arc<AtomicU64>,
    /// Nanoseconds per puzzle of the last batch done (0: none done yet).
    pace: Arc<AtomicU64>,
    deadline: Option<Instant>,
}

impl Batches {
    const TARGET: Duration = Duration::from_millis(2);
    const MAX_LEN: u64 = 256;
}

impl Iterator for Batches {
    type Item = Range<u64>;

    fn next(&mut self) -> Option<Range<u64>> {
        if self.next >= self.end
            || self.failed.load(Ordering::Relaxed) != u64::MAX
            || self.deadline.is_some_and(|d| Instant::now() >= d)
        {
            return None;
        }
        let pace = self.pace.load(Ordering::Relaxed);
        // Nothing measured yet (0): one index at a time.
        let len = (Self::TARGET.as_nanos() as u64)
            .checked_div(pace)
            .map_or(1, |n| n.clamp(1, Self::MAX_LEN));
        let start = self.next;
        self.next = start.saturating_add(len).min(self.end);
        Some(start..self.next)
    }
}

/// The bar of a run of large puzzles: `len` clue checks (about one per cell
/// and puzzle), with the puzzles done as its message.
fn cell_progress_bar(len: u64, show: bool, number: u64) -> indicatif::ProgressBar {
    if !show {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(len);
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{elapsed_precise} [{wide_bar}] {pos}/{len} cells checked, {msg} (eta {eta})",
        )
        .expect("valid template"),
    );
    bar.set_message(format!("0 of {number} puzzles"));
    bar
}

/// A message on stderr; a closed stderr is not worth a panic.
fn note(message: std::fmt::Arguments<'_>) {
    let _ = writeln!(io::stderr(), "sudoku: {message}");
}

/// Run `sudoku generate`.
pub fn run(args: &GenerateArgs) -> anyhow::Result<ExitCode> {
    // An impossible target is a usage error, found before any work starts.
    let mode = match args.variant {
        Some(kind) => Mode::Variant(variant_options(args, kind)?),
        None => {
            let config = config_of(args)?;
            config.validate()?;
            Mode::Classic(config)
        }
    };
    let seed = match args.seed {
        Some(s) => s,
        None => {
            let s = random_seed();
            note(format_args!(
                "seed {s} (pass --seed {s} to make these puzzles again)"
            ));
            s
        }
    };
    let mut out = open_output(args.output.as_deref())?;
    let all = worker_threads("sudoku", args.threads);
    let threads = all
        .min(usize::try_from(args.number).unwrap_or(usize::MAX))
        .max(1);
    // Fewer puzzles than threads: each puzzle's removal pass shares out
    // the threads left (16x16 and 25x25 use them; the same puzzles either
    // way).
    let mut mode = mode;
    if let Mode::Classic(c) = &mut mode {
        c.check_threads = (all / threads).max(1);
    }
    let deadline = args.total_timeout.and_then(deadline_after);
    // Large classic grids take long per puzzle: their bar counts the clue
    // checks (about one per cell), updated by a ticker, so one 25x25 puzzle
    // is not a silent wait.
    let cells = match &mode {
        Mode::Classic(c) if c.size.side() >= 16 => Some(c.size.cells() as u64),
        _ => None,
    };
    let checks = Arc::new(AtomicU64::new(0));
    let bar = match cells {
        Some(cells) => cell_progress_bar(
            args.number.saturating_mul(cells),
            args.progress.enabled(),
            args.number,
        ),
        None => progress_bar(args.number, args.progress.enabled(), "puzzles"),
    };
    let ticker = (cells.is_some() && !bar.is_hidden()).then(|| {
        let (bar, checks) = (bar.clone(), Arc::clone(&checks));
        let done = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let stop = Arc::clone(&done);
        let handle = std::thread::spawn(move || {
            while !stop.load(Ordering::Relaxed) {
                let len = bar.length().unwrap_or(u64::MAX);
                bar.set_position(checks.load(Ordering::Relaxed).min(len));
                std::thread::sleep(Duration::from_millis(100));
            }
        });
        (done, handle)
    });

    // Set by a worker whose puzzle failed: no new indices are handed out,
    // and no puzzle after it is started.
    let failed = Arc::new(AtomicU64::new(u64::MAX));
    let pace = Arc::new(AtomicU64::new(0));
    let cancel = CancelToken::new();
    let source = Batches {
        next: 0,
        end: args.number,
        failed: Arc::clone(&failed),
        pace: Arc::clone(&pace),
        deadline,
    };
    let mut printed = 0u64;
    let sink = Writer {
        out: &mut *out,
        args,
        bar: &bar,
        cell_bar: cells.is_some(),
        cancel: &cancel,
        printed: &mut printed,
    };
    // Runs of about 2 ms each: 16 per worker keep the workers busy while the
    // writing thread waits for a turn on a busy machine, and bound what is
    // held to 16 × 256 puzzles per worker.
    let result = Pipeline::new(threads).window(16 * threads).run(
        source,
        || Worker::new(&mode, &cancel, &checks),
        |worker, batch: Range<u64>| {
            let started = Instant::now();
            let mut made = Vec::with_capacity((batch.end - batch.start) as usize);
            for index in batch {
                if index > failed.load(Ordering::Relaxed) {
                    break; // never written: an earlier puzzle failed
                }
                let m = worker.make(puzzle_seed(seed, index), deadline, args.timeout, &cancel);
                let stop = m.is_err();
                made.push(Made { index, made: m });
                if stop {
                    failed.fetch_min(index, Ordering::Relaxed);
                    break;
                }
            }
            if !made.is_empty() {
                let per = started.elapsed().as_nanos() / made.len() as u128;
                pace.store(per.clamp(1, u128::from(u64::MAX)) as u64, Ordering::Relaxed);
            }
            made
        },
        sink,
    );
    if let Some((done, handle)) = ticker {
        done.store(true, Ordering::Relaxed);
        let _ = handle.join();
    }
    bar.finish_and_clear();
    let failure = match result {
        Ok(()) => None,
        Err(Halt::Write(e)) => return Err(e).context("cannot write the puzzles"),
        Err(Halt::Failed(index, e)) => Some((index, e)),
    };
    out.flush().context("cannot write the puzzles")?;
    drop(out);

    let timed_out = deadline.is_some_and(|d| Instant::now() >= d);
    let overall = if timed_out {
        " (the --total-timeout ran out)"
    } else {
        ""
    };
    match failure {
        None if printed == args.number => Ok(ExitCode::from(exit::OK)),
        // The source stopped at the deadline between two puzzles.
        None => {
            note(format_args!(
                "generated {printed} of {} puzzles{overall}",
                args.number
            ));
            Ok(ExitCode::from(exit::INCOMPLETE))
        }
        Some((index, e)) => {
            note(format_args!(
                "generated {printed} of {} puzzles{overall}; puzzle {} (seed {}): {e}",
                args.number,
                index + 1,
                puzzle_seed(seed, index)
            ));
            Ok(ExitCode::from(match e {
                GenerateError::Invalid(_) => exit::USAGE,
                _ => exit::INCOMPLETE,
            }))
        }
    }
}

fn write_puzzle(
    out: &mut dyn Write,
    args: &GenerateArgs,
    index: u64,
    made: &Output,
) -> io::Result<()> {
    let g = match made {
        Output::Classic(g) => g,
        Output::Variant(v) => return write_variant(out, args, index, v),
    };
    match args.format {
        Format::Text => {
            out.write_all(g.puzzle.to_line().as_bytes())?;
            if args.with_solution {
                out.write_all(b" ")?;
                out.write_all(g.solution.to_line().as_bytes())?;
            }
            if let Some(r) = g.rating.as_ref().filter(|_| args.rate) {
                write!(out, " {}", RatingWords(r))?;
            }
            if let Some(r) = g.se_rating.as_ref().filter(|_| args.rate) {
                write!(out, " {}", se_rating_line(r))?;
            }
            out.write_all(b"\n")?;
        }
        Format::Grid => {
            if index > 0 {
                out.write_all(b"\n")?;
            }
            write!(
                out,
                "# puzzle {}: {} clues",
                index + 1,
                g.puzzle.given_count()
            )?;
            if let Some(r) = g.rating.as_ref().filter(|_| args.rate) {
                write!(out, ", rating {}", RatingWords(r))?;
            }
            if let Some(r) = g.se_rating.as_ref().filter(|_| args.rate) {
                write!(out, ", {}", se_rating_line(r))?;
            }
            out.write_all(b"\n")?;
            out.write_all(grid_block(&g.puzzle).as_bytes())?;
            if args.with_solution {
                out.write_all(b"# solution\n")?;
                out.write_all(grid_block(&g.solution).as_bytes())?;
            }
        }
        Format::Json => {
            let mut obj = json!({
                "index": index,
                "seed": g.seed,
                "puzzle": g.puzzle.to_line(),
                "clues": g.puzzle.given_count(),
                "minimal": g.minimal,
                "attempts": g.attempts,
            });
            if args.with_solution {
                obj["solution"] = json!(g.solution.to_line());
            }
            if let Some(r) = g.rating.as_ref().filter(|_| args.rate) {
                obj["rating"] = rating_json(r);
            }
            if let Some(r) = g.se_rating.as_ref().filter(|_| args.rate) {
                obj["rating"] = se_rating_json(r);
            }
            writeln!(out, "{obj}")?;
        }
    }
    Ok(())
}

/// A variant puzzle: its ISS line (and solution), or a JSON object with the
/// ISS line as `puzzle`, the puzzle's serde form (shape, givens,
/// constraints) as `variant` (as `sudoku solve` writes them), the kind, and
/// the solution.
fn write_variant(
    out: &mut dyn Write,
    args: &GenerateArgs,
    index: u64,
    g: &VariantGenerated,
) -> io::Result<()> {
    let solution = variant::to_line(&g.solution);
    // --rate: the variant explainer's partial rating (the puzzle is unique)
    let rating = if args.rate {
        variant::explain::explain(&g.puzzle, 100_000).ok()
    } else {
        None
    };
    if args.format == Format::Json {
        let obj = json!({
            "index": index,
            "seed": g.seed,
            "kind": args.variant.map(VariantKind::name),
            "puzzle": g.puzzle.to_string(),
            "variant": g.puzzle,
            "clues": g.puzzle.givens().iter().filter(|&&d| d != 0).count(),
            "minimal": g.minimal,
            "attempts": g.attempts,
            "solution": solution,
            "rating": rating.as_ref().map(variant::explain::VariantExplanation::rating_json),
        });
        return writeln!(out, "{obj}");
    }
    write!(out, "{}", g.puzzle)?;
    if args.with_solution {
        write!(out, " {solution}")?;
    }
    if let Some(r) = &rating {
        write!(out, " # {}", crate::rate::variant_rating_line(r))?;
    }
    out.write_all(b"\n")
}

/// A rating as `--rate` prints it: difficulty, band, hardest technique
/// (`-` when none was needed).
struct RatingWords<'a>(&'a Rating);

impl std::fmt::Display for RatingWords<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let r = self.0;
        write!(
            f,
            "{:.1} {} {}",
            r.difficulty,
            r.band,
            r.hardest.map_or("-", |t| t.name())
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn batches(end: u64) -> Batches {
        Batches {
            next: 0,
            end,
            failed: Arc::new(AtomicU64::new(u64::MAX)),
            pace: Arc::new(AtomicU64::new(0)),
            deadline: None,
        }
    }

    #[test]
    fn batches_cover_every_index_once_in_order_and_follow_the_pace() {
        let mut b = batches(10_000);
        // Nothing measured yet: one index at a time.
        assert_eq!(b.next(), Some(0..1));
        // Slow puzzles (10 ms): still one at a time.
        b.pace.store(10_000_000, Ordering::Relaxed);
        assert_eq!(b.next(), Some(1..2));
        // 100 µs a puzzle: 2 ms worth is 20.
        b.pace.store(100_000, Ordering::Relaxed);
        assert_eq!(b.next(), Some(2..22));
        // Very fast puzzles: capped.
        b.pace.store(1, Ordering::Relaxed);
        assert_eq!(b.next(), Some(22..22 + Batches::MAX_LEN));
        let mut covered = 22 + Batches::MAX_LEN;
        for r in b.by_ref() {
            assert_eq!(r.start, covered);
            assert!(r.end > r.start);
            covered = r.end;
        }
        assert_eq!(covered, 10_000);
        assert_eq!(b.next(), None);
        // The last run stops at the end, even near u64::MAX.
        let mut b = batches(u64::MAX);
        b.next = u64::MAX - 3;
        b.pace.store(1, Ordering::Relaxed);
        assert_eq!(b.next(), Some(u64::MAX - 3..u64::MAX));
        assert_eq!(b.next(), None);
    }

    #[test]
    fn batches_stop_after_a_failure_or_the_deadline() {
        let mut b = batches(100);
        assert_eq!(b.next(), Some(0..1));
        b.failed.fetch_min(0, Ordering::Relaxed);
        assert_eq!(b.next(), None);
        let mut b = batches(100);
        b.deadline = Some(Instant::now());
        assert_eq!(b.next(), None);
        let mut b = batches(100);
        b.deadline = deadline_after(Duration::from_secs(3600));
        assert_eq!(b.next(), Some(0..1));
    }
}
