//! Agreement of the Explainer-style rater (`rate::se`) with Sudoku
//! Explainer's published ratings, per ER band, and its speed.
//!
//! ```text
//! cargo run --release -p sudoku-core --example se_agreement -- \
//!     [--profile se|sukaku] [--limit N] [--mismatches] [--times OUT] \
//!     [--seconds S] FILE.tsv
//! ```
//!
//! FILE is the calibration list's format (tab-separated: src, id, puzzle,
//! er, ep, ed, hardest; `#` lines skipped; `None` where a figure was not
//! published). Rows from `sx-diabolical` are rated as the build that rated
//! them did: without the three SukakuExplainer families their ratings were
//! made without (4-strong-link fishes, UVWXYZ- and TUVWXYZ-wings), and
//! with the 3-strong-link fishes valued as before SukakuExplainer 1.17.7
//! (`SeRater::with_early_link_values`). Single-threaded; prints a Markdown
//! table: per integer ER band, puzzles, rated (the path stayed within the
//! implemented ladder), ER equal, all published figures equal, of the
//! rated ones the share equal, and puzzles per second of this thread's CPU
//! time (rated and unrated together). `--times OUT` writes one line per
//! puzzle: id, published ER, rated (1) or not (0), microseconds of CPU, our
//! ER/EP/ED, and the hardest step's name (rated) or where the path stopped.
//! `--seconds S` gives each puzzle a deadline of S seconds (wall clock):
//! past it, "unrated (time limit)".
//! `--check` also replays every step of every path (rated or not) against
//! the puzzle's unique solution (outside the timed part) and prints how
//! many steps were checked and how many were wrong. `--steps OUT` writes
//! every path (outside the timed part): per puzzle its id, then one line
//! per step in prose, to compare two builds' paths.

use std::collections::BTreeMap;

use std::time::Duration;

use sudoku_core::time::Instant;

use sudoku_core::rate::se::{Producer, Profile, SeLimits, SeOutcome, SeRater, SeRating};
use sudoku_core::solve::Method;
use sudoku_core::{Grid, Limits, Uniqueness};

#[derive(Default)]
struct Band {
    puzzles: u64,
    rated: u64,
    er_equal: u64,
    all_equal: u64,
    wrong: u64,
    secs: f64,
}

fn tenths(s: &str) -> Option<u16> {
    let v: f64 = s.trim().parse().ok()?;
    Some((v * 10.0).round() as u16)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut profile = Profile::Sukaku;
    let mut limit = usize::MAX;
    let mut seconds: Option<f64> = None;
    let mut show = false;
    let mut file = None;
    let mut times: Option<std::fs::File> = None;
    let mut check = false;
    let mut steps: Option<std::io::BufWriter<std::fs::File>> = None;
    let (mut checked, mut wrong_steps) = (0u64, 0u64);
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--profile" => {
                let v = args.next().unwrap_or_default();
                profile = Profile::from_name(&v).ok_or(format!("--profile: unknown {v:?}"))?;
            }
            "--limit" => limit = args.next().unwrap_or_default().parse()?,
            "--seconds" => seconds = Some(args.next().unwrap_or_default().parse::<f64>()?),
            "--mismatches" => show = true,
            "--check" => check = true,
            "--steps" => {
                let out = std::fs::File::create(args.next().unwrap_or_default())?;
                steps = Some(std::io::BufWriter::new(out));
            }
            "--times" => times = Some(std::fs::File::create(args.next().unwrap_or_default())?),
            _ => file = Some(a),
        }
    }
    let file = file.ok_or("usage: se_agreement [--profile se|sukaku] [--limit N] FILE.tsv")?;
    let text = std::fs::read_to_string(&file)?;
    let plain = SeRater::new(profile);
    let sx = SeRater::new(profile)
        .without(Producer::FourStrongLinks)
        .without(Producer::UvwxyzWing)
        .without(Producer::TuvwxyzWing)
        .with_early_link_values();
    let mut bands: BTreeMap<u16, Band> = BTreeMap::new();
    let mut stopped: BTreeMap<&'static str, u64> = BTreeMap::new();
    for (n, line) in text.lines().filter(|l| !l.starts_with('#')).enumerate() {
        if n >= limit {
            break;
        }
        let f: Vec<&str> = line.split('\t').collect();
        if f.len() < 6 {
            return Err(format!("{file}: line {}: expected 7 tab-separated fields", n + 2).into());
        }
        let grid: Grid = f[2].parse()?;
        let rater = if f[0] == "sx-diabolical" { &sx } else { &plain };
        // Each run (the timed one, then the paths written) gets its own
        // deadline.
        let limited = || {
            rater.clone().with_limits(SeLimits {
                deadline: seconds.map(|s| Instant::now() + Duration::from_secs_f64(s)),
            })
        };
        let rater = &limited();
        let t = thread_cpu_secs();
        let r: SeRating = rater.rate(&grid);
        let secs = thread_cpu_secs() - t;
        if let Some(out) = steps.as_mut() {
            use std::io::Write;
            writeln!(out, "{}", f[1])?;
            let mut res = Ok(());
            limited().run(&grid, |s| {
                if res.is_ok() {
                    res = writeln!(out, "  {}", s.prose());
                }
            });
            res?;
        }
        if check {
            let mut solver = Method::Fast.solver();
            let Uniqueness::Unique(sol) = solver.uniqueness(&grid, &Limits::default()).0 else {
                return Err(format!("{file}: line {}: not uniquely solvable", n + 2).into());
            };
            limited().run(&grid, |s| {
                checked += 1;
                let bad = s.placement.is_some_and(|p| sol.get(p.cell) != p.digit)
                    || s.eliminations.iter().any(|e| sol.get(e.cell) == e.digit);
                if bad {
                    wrong_steps += 1;
                    println!("wrong step {}: {}", f[1], s.prose());
                }
            });
        }
        let er = tenths(f[3]).ok_or(format!("{file}: line {}: bad er", n + 2))?;
        let (ep, ed) = (tenths(f[4]), tenths(f[5]));
        if let Some(t) = times.as_mut() {
            use std::io::Write;
            let rated = u8::from(r.outcome == SeOutcome::Rated);
            writeln!(
                t,
                "{}\t{}\t{rated}\t{:.1}\t{}/{}/{}\t{}",
                f[1],
                f[3],
                secs * 1e6,
                SeRating::format(r.er),
                SeRating::format(r.ep),
                SeRating::format(r.ed),
                r.hardest
                    .filter(|_| rated == 1)
                    .or(r.stopped_at)
                    .unwrap_or("")
            )?;
        }
        let b = bands.entry(er / 10).or_default();
        b.puzzles += 1;
        b.secs += secs;
        if r.outcome == SeOutcome::Rated {
            b.rated += 1;
            let er_ok = r.er == er;
            let all_ok = er_ok && ep.is_none_or(|x| x == r.ep) && ed.is_none_or(|x| x == r.ed);
            b.er_equal += u64::from(er_ok);
            b.all_equal += u64::from(all_ok);
            b.wrong += u64::from(!all_ok);
            if show && !all_ok {
                println!(
                    "mismatch {} {}: ours {}/{}/{} {:?}, published {}/{}/{} {}",
                    f[1],
                    f[2],
                    SeRating::format(r.er),
                    SeRating::format(r.ep),
                    SeRating::format(r.ed),
                    r.hardest,
                    f[3],
                    f[4],
                    f[5],
                    f.get(6).unwrap_or(&"")
                );
            }
        } else {
            *stopped
                .entry(r.stopped_at.unwrap_or("invalid"))
                .or_default() += 1;
        }
    }
    println!("profile {profile}, file {file}\n");
    println!(
        "| ER band | puzzles | rated | ER equal | ER/EP/ED equal | equal of rated | puzzles/s |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|");
    let mut total = Band::default();
    for (band, b) in &bands {
        row(&format!("{band}.0–{band}.9"), b);
        total.puzzles += b.puzzles;
        total.rated += b.rated;
        total.er_equal += b.er_equal;
        total.all_equal += b.all_equal;
        total.wrong += b.wrong;
        total.secs += b.secs;
    }
    row("all", &total);
    if check {
        println!("\nsteps checked against the solution: {checked}, wrong: {wrong_steps}");
    }
    println!("\nunrated, by the ladder entry reached:");
    for (k, v) in &stopped {
        println!("  {k}: {v}");
    }
    Ok(())
}

fn row(name: &str, b: &Band) {
    let pct = |x: u64, of: u64| {
        if of == 0 {
            "-".to_string()
        } else {
            format!("{:.1}%", 100.0 * x as f64 / of as f64)
        }
    };
    println!(
        "| {name} | {} | {} | {} | {} | {} | {:.0} |",
        b.puzzles,
        b.rated,
        b.er_equal,
        b.all_equal,
        pct(b.all_equal, b.rated),
        b.puzzles as f64 / b.secs.max(1e-9)
    );
}

/// This thread's CPU time in seconds.
fn thread_cpu_secs() -> f64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec and CLOCK_THREAD_CPUTIME_ID
    // is a clock id every Linux has; the call only writes `ts`.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    ts.tv_sec as f64 + ts.tv_nsec as f64 / 1e9
}
