//! `sudoku generate`: make uniquely solvable puzzles with the library's
//! generator, in index order, on several threads.
//!
//! Puzzle `i` of a run with seed `S` is made from
//! [`puzzle_seed`]`(S, i)`, so a run is reproducible with `--seed` and comes
//! out the same on any number of threads. Workers take the next index from a
//! shared counter and hand their puzzles back to the main thread, which
//! writes them in index order as soon as the next one is ready.

use std::collections::BTreeMap;
use std::io::{self, BufWriter, Write};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use anyhow::Context;
use serde_json::json;
use sudoku_core::Size;
use sudoku_core::generate::{
    GenerateError, Generated, Generator, GeneratorConfig, Symmetry, puzzle_seed,
};
use sudoku_core::rate::{Band, Rating};

use crate::output::{Format, grid_block};
use crate::rate::rating_json;
use crate::{When, parse_range, parse_technique, progress_bar, rater_config};

/// Generate puzzles: every one uniquely solvable; minimal (no clue can be
/// removed) unless a clue range is given.
///
/// Output goes to standard output, one puzzle per line by default (with
/// --with-solution and --rate appended after a space, which `sudoku solve`
/// and `sudoku rate` read as a comment), so it can be piped on. The seed of
/// a run without --seed is printed on standard error.
#[derive(clap::Args, Debug, Clone)]
pub struct GenerateArgs {
    /// How many puzzles.
    #[arg(long, short = 'n', value_name = "N", default_value_t = 1)]
    pub count: u64,
    /// Seed of the run: the same seed and options give the same puzzles on
    /// any number of threads. Default: a random seed, printed on stderr.
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
    /// Grid size: 4, 9, 16 or 25 (also written 4x4, 9x9, ...).
    #[arg(long, value_name = "SIZE", default_value = "9", value_parser = parse_size)]
    pub size: Size,
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
    /// Wanted difficulty band: easy, medium, hard, expert, extreme,
    /// needs-guessing (as `sudoku rate` reports it).
    #[arg(long, value_name = "BAND", value_parser = parse_band)]
    pub difficulty: Option<Band>,
    /// Wanted rating range on the Sudoku Explainer scale, MIN..MAX (e.g.
    /// 3.0..4.5), inclusive.
    #[arg(long, value_name = "MIN..MAX")]
    pub rating: Option<String>,
    /// A technique the solving path must use (repeatable or comma-separated).
    #[arg(long, value_name = "TECHNIQUE")]
    pub require: Vec<String>,
    /// Techniques the rater must not use (names, comma-separated or repeated).
    #[arg(long, value_name = "TECHNIQUE")]
    pub disable: Vec<String>,
    /// Worker threads (0 = all cores). Output stays in index order.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub threads: usize,
    /// Print each puzzle's solution too.
    #[arg(long)]
    pub with_solution: bool,
    /// Rate each puzzle: rating, band, hardest technique.
    #[arg(long)]
    pub rate: bool,
    /// Output format: line (one puzzle per line), grid, json (JSON Lines).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Give up on a puzzle after this many seconds without one that meets
    /// the target.
    #[arg(long, value_name = "SECS", value_parser = parse_secs)]
    pub timeout: Option<Duration>,
    /// Give up on the whole run after this many seconds (the puzzles made by
    /// then are printed).
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

fn parse_size(text: &str) -> Result<Size, String> {
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
        .and_then(Size::from_side)
        .ok_or_else(|| format!("'{text}' is not a grid size; use 4, 9, 16 or 25"))
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

fn parse_secs(text: &str) -> Result<Duration, String> {
    let secs: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("'{text}' is not a number of seconds"))?;
    Duration::try_from_secs_f64(secs)
        .map_err(|_| format!("'{text}' is not a number of seconds (0 or more)"))
}

/// The generator config of the arguments (without the seed).
pub fn config_of(args: &GenerateArgs) -> anyhow::Result<GeneratorConfig> {
    let mut c = GeneratorConfig::for_size(args.size);
    c.symmetry = args.symmetry;
    if let Some(text) = &args.clues {
        let (lo, hi) = parse_range("--clues", text, 0, args.size.cells())?;
        if lo > args.size.cells() {
            anyhow::bail!(
                "--clues: a {} grid has only {} cells",
                args.size,
                args.size.cells()
            );
        }
        c.clues = Some(lo..=hi);
    }
    c.band = args.difficulty;
    if let Some(text) = &args.rating {
        let (lo, hi) = parse_range::<f32>("--rating", text, 0.0, 20.0)?;
        if lo.is_nan() || hi.is_nan() {
            anyhow::bail!("--rating: '{text}' is not a range of numbers");
        }
        c.rating = Some(lo..=hi);
    }
    for list in &args.require {
        for name in list.split(',').filter(|n| !n.trim().is_empty()) {
            let t = parse_technique("--require", name)?;
            if !c.require.contains(&t) {
                c.require.push(t);
            }
        }
    }
    c.rater = rater_config(&args.disable)?;
    c.rate = args.rate;
    c.max_attempts = args.max_attempts;
    c.timeout = args.timeout;
    Ok(c)
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

/// What a worker hands back for puzzle `index`.
type Made = (u64, Result<Generated, GenerateError>);

/// Run `sudoku generate`.
pub fn run(args: &GenerateArgs) -> anyhow::Result<ExitCode> {
    let config = config_of(args)?;
    let seed = match args.seed {
        Some(s) => s,
        None => {
            let s = random_seed();
            eprintln!("sudoku: seed {s} (pass --seed {s} to make these puzzles again)");
            s
        }
    };
    // An impossible target is a usage error, found before any work starts.
    config.validate()?;
    let threads = if args.threads == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        args.threads
    };
    let threads = threads
        .min(usize::try_from(args.count).unwrap_or(usize::MAX))
        .max(1);
    let bar = progress_bar(args.count, args.progress.enabled(), "puzzles");
    let started = Instant::now();
    let total_deadline = args.total_timeout.map(|t| started + t);

    let next = AtomicU64::new(0);
    let stop = AtomicBool::new(false);
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let mut failure: Option<(u64, GenerateError)> = None;
    let mut written = 0u64; // puzzles done (printed or failed), in index order
    let mut printed = 0u64;
    let mut flushed = Instant::now();
    let mut write_error: Option<anyhow::Error> = None;

    std::thread::scope(|scope| {
        let (tx, rx) = mpsc::channel::<Made>();
        for _ in 0..threads {
            let tx = tx.clone();
            let (next, stop, config) = (&next, &stop, &config);
            scope.spawn(move || {
                let mut generator = Generator::new(config.clone());
                while !stop.load(Ordering::Relaxed) {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    if index >= args.count {
                        break;
                    }
                    if let Some(d) = total_deadline {
                        let left = d.saturating_duration_since(Instant::now());
                        generator.set_timeout(Some(config.timeout.map_or(left, |t| t.min(left))));
                    }
                    let made = generator.generate_seeded(puzzle_seed(seed, index));
                    if made.is_err() {
                        stop.store(true, Ordering::Relaxed);
                    }
                    if tx.send((index, made)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        // Write in index order: hold back puzzles that come early.
        let mut pending: BTreeMap<u64, Result<Generated, GenerateError>> = BTreeMap::new();
        for (index, made) in rx {
            pending.insert(index, made);
            while let Some(entry) = pending.first_entry() {
                if *entry.key() != written {
                    break;
                }
                let made = entry.remove();
                match made {
                    Ok(g) if write_error.is_none() => {
                        if let Err(e) = write_puzzle(&mut out, args, written, &g) {
                            write_error = Some(e);
                            stop.store(true, Ordering::Relaxed);
                        }
                        printed += 1;
                    }
                    Ok(_) => {}
                    Err(e) => {
                        if failure.is_none() {
                            failure = Some((written, e));
                        }
                    }
                }
                written += 1;
                bar.inc(1);
            }
            // Slow targets: show each puzzle soon, without a write per puzzle
            // on fast runs.
            if write_error.is_none() && flushed.elapsed() >= Duration::from_millis(200) {
                if let Err(e) = out.flush() {
                    write_error = Some(e.into());
                    stop.store(true, Ordering::Relaxed);
                }
                flushed = Instant::now();
            }
        }
    });
    bar.finish_and_clear();
    if let Some(e) = write_error {
        return Err(e);
    }
    out.flush().context("cannot write the puzzles")?;
    drop(out);
    match failure {
        None => Ok(ExitCode::SUCCESS),
        Some((index, e)) => {
            let overall = if total_deadline.is_some_and(|d| Instant::now() >= d) {
                " (the --total-timeout ran out)"
            } else {
                ""
            };
            eprintln!(
                "sudoku: generated {printed} of {} puzzles{overall}; puzzle {} (seed {}): {e}",
                args.count,
                index + 1,
                puzzle_seed(seed, index)
            );
            Ok(ExitCode::from(match e {
                GenerateError::Invalid(_) => 2,
                _ => 1,
            }))
        }
    }
}

fn write_puzzle(
    out: &mut impl Write,
    args: &GenerateArgs,
    index: u64,
    g: &Generated,
) -> anyhow::Result<()> {
    match args.format {
        Format::Text => {
            let mut line = g.puzzle.to_line();
            if args.with_solution {
                line.push(' ');
                line.push_str(&g.solution.to_line());
            }
            if let Some(r) = g.rating.as_ref().filter(|_| args.rate) {
                line.push(' ');
                line.push_str(&rating_words(r));
            }
            writeln!(out, "{line}")?;
        }
        Format::Grid => {
            if index > 0 {
                writeln!(out)?;
            }
            let mut note = format!("# puzzle {}: {} clues", index + 1, g.puzzle.given_count());
            if let Some(r) = g.rating.as_ref().filter(|_| args.rate) {
                note.push_str(", rating ");
                note.push_str(&rating_words(r));
            }
            writeln!(out, "{note}")?;
            write!(out, "{}", grid_block(&g.puzzle))?;
            if args.with_solution {
                writeln!(out, "# solution")?;
                write!(out, "{}", grid_block(&g.solution))?;
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
            writeln!(out, "{obj}")?;
        }
    }
    Ok(())
}

/// A rating as `--rate` prints it: difficulty, band, hardest technique
/// (`-` when none was needed).
fn rating_words(r: &Rating) -> String {
    format!(
        "{:.1} {} {}",
        r.difficulty,
        r.band,
        r.hardest.map_or("-", |t| t.name())
    )
}
