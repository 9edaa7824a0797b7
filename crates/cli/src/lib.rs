//! The command-line front end: argument types and the code behind each
//! `sudoku` subcommand. Thin: it parses arguments, calls the libraries and
//! formats their answers.

pub mod batch;
pub mod bench;
pub mod dlx;
pub mod explain;
pub mod generate;
pub mod hint;
pub mod input;
pub mod output;
pub mod rate;
pub mod serve;
pub mod solve;

use std::io::{self, Write};
use std::path::Path;
use std::time::{Duration, Instant};

/// Exit codes shared by `sudoku` and `dlx`.
pub mod exit {
    /// Every answer is complete (solved, counted exactly, rated, ...).
    pub const OK: u8 = 0;
    /// Some answer is cut short by a limit, a puzzle has no solution or
    /// several (for `solve`), or some input record is bad.
    pub const INCOMPLETE: u8 = 1;
    /// Usage error (bad flag or value) or I/O error (unreadable input,
    /// unwritable output).
    pub const USAGE: u8 = 2;
}

/// The largest number of seconds a timeout flag takes literally (about 31
/// years); larger values mean "no deadline".
pub const MAX_TIMEOUT_SECS: f64 = 1e9;

/// Parse a timeout flag's value: seconds, a positive finite number.
/// Values above [`MAX_TIMEOUT_SECS`] saturate (they never expire).
pub fn parse_secs(text: &str) -> Result<Duration, String> {
    let secs: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("'{text}' is not a number of seconds"))?;
    if secs.is_nan() || secs <= 0.0 {
        return Err(format!(
            "'{text}': a timeout is a positive number of seconds"
        ));
    }
    Ok(Duration::from_secs_f64(secs.min(MAX_TIMEOUT_SECS)))
}

/// The instant `d` from now, or `None` (no deadline) when that is past what
/// the clock can represent.
pub fn deadline_after(d: Duration) -> Option<Instant> {
    Instant::now().checked_add(d)
}

/// How many worker threads a command may start per core; `--threads` above
/// this is capped (with a warning).
pub const MAX_THREADS_PER_CORE: usize = 4;

/// The cores of this machine (1 when unknown), asked once per process.
pub fn cores() -> usize {
    static CORES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// Start-up work that does not depend on the command line, done on a
/// second thread while the main thread parses it, for the batch commands
/// (`args` is the process's arguments; nothing is started for other
/// commands, or with `--threads 1`, where a second core may be busy with a
/// sibling process).
///
/// A short run (10,000 puzzles take about 20 ms) spends a noticeable part of
/// its wall time starting up, and with two workers that part is not shared
/// (BENCHMARKS.md, "The streaming command line"). The thread allocates
/// once, runs the CPU feature detection the solvers' kernels use (each
/// `cpuid` traps to the hypervisor on a virtual machine) and, when
/// `--threads` is not given, asks for the core count (cgroup files); then
/// it ends. With glibc, the first worker thread then takes over its malloc
/// arena (and its stack, if it has ended by then) instead of mapping new
/// ones while the main thread faults its pages in. Every step is also done
/// on demand, so nothing waits for this thread.
pub fn warm_up(args: impl Iterator<Item = std::ffi::OsString>) {
    let args: Vec<std::ffi::OsString> = args.skip(1).collect();
    let Some(count_cores) = warm_up_plan(&args) else {
        return;
    };
    // A failure to start the thread only loses the head start.
    let _ = std::thread::Builder::new()
        .name("warm-up".into())
        .spawn(move || {
            drop(std::hint::black_box(Box::new(0u64)));
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            std::hint::black_box(std::arch::is_x86_feature_detected!("avx2"));
            if count_cores {
                cores();
            }
        });
}

/// Whether [`warm_up`] starts its thread for these arguments (without the
/// program name), and if so whether it counts the cores: a batch command
/// that may run several workers; the count is needed when `--threads` is
/// not given.
fn warm_up_plan(args: &[std::ffi::OsString]) -> Option<bool> {
    let batch = args
        .first()
        .and_then(|a| a.to_str())
        .is_some_and(|c| matches!(c, "solve" | "count" | "rate" | "explain" | "generate"));
    let threads = args.iter().enumerate().find_map(|(i, a)| {
        let a = a.to_str()?;
        match a.strip_prefix("--threads") {
            Some("") => args.get(i + 1)?.to_str(),
            Some(rest) => rest.strip_prefix('='),
            None => None,
        }
    });
    match threads {
        _ if !batch => None,
        Some("1") => None,
        Some("0") | None => Some(true),
        Some(_) => Some(false),
    }
}

/// Resolve `--threads N`: 0 means one per core; more than
/// [`MAX_THREADS_PER_CORE`] per core is capped, with a warning on stderr
/// naming the program.
pub fn worker_threads(program: &str, requested: usize) -> usize {
    // Every machine has a core, so up to the per-core cap needs no count
    // (asking the system reads cgroup files: a few dozen microseconds of a
    // short run).
    if (1..=MAX_THREADS_PER_CORE).contains(&requested) {
        return requested;
    }
    let cores = cores();
    let max = MAX_THREADS_PER_CORE * cores;
    match requested {
        0 => cores,
        n if n > max => {
            eprintln!(
                "{program}: warning: --threads {n} capped at {max} ({MAX_THREADS_PER_CORE} per core, {cores} cores)"
            );
            max
        }
        n => n,
    }
}

/// Where a command writes its answers: the file of `-o FILE`, or standard
/// output (no flag, or `-o -`).
pub fn open_output(path: Option<&Path>) -> anyhow::Result<Box<dyn Write + Send>> {
    use anyhow::Context;
    match path {
        Some(p) if p.as_os_str() != "-" => {
            let f = std::fs::File::create(p)
                .with_context(|| format!("-o: cannot create {}", p.display()))?;
            Ok(Box::new(io::BufWriter::with_capacity(1 << 16, f)))
        }
        _ => Ok(Box::new(io::BufWriter::with_capacity(
            1 << 16,
            io::stdout(),
        ))),
    }
}

/// Whether an error chain ends in a broken pipe (the reader went away:
/// `sudoku solve big.txt | head`), which is not a failure.
pub fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain()
        .filter_map(|c| c.downcast_ref::<io::Error>())
        .any(|e| e.kind() == io::ErrorKind::BrokenPipe)
}

/// Whether to show a progress bar: `--progress auto` shows one when stderr is
/// a terminal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum When {
    Auto,
    Always,
    Never,
}

impl When {
    /// Resolve against the terminal.
    pub fn enabled(self) -> bool {
        use std::io::IsTerminal;
        match self {
            When::Always => true,
            When::Never => false,
            When::Auto => io::stderr().is_terminal(),
        }
    }
}

/// What a batch command needs: a pool of `threads` workers (0 = all cores)
/// and a progress bar for `len` puzzles, shown per `progress` when there is
/// more than one.
pub fn batch_tools(
    threads: usize,
    len: usize,
    progress: When,
) -> anyhow::Result<(rayon::ThreadPool, indicatif::ProgressBar)> {
    use anyhow::Context;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .context("cannot start worker threads")?;
    let bar = progress_bar(len as u64, progress.enabled() && len > 1, "puzzles");
    Ok((pool, bar))
}

/// A progress counter on stderr for a stream of unknown length (count, rate
/// and elapsed time), hidden when `show` is false.
pub fn progress_counter(show: bool, what: &str) -> indicatif::ProgressBar {
    if !show {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new_spinner();
    bar.set_style(
        indicatif::ProgressStyle::with_template(&format!(
            "{{elapsed_precise}} {{spinner}} {{human_pos}} {what} ({{per_sec}})"
        ))
        .expect("valid template"),
    );
    bar.enable_steady_tick(std::time::Duration::from_millis(200));
    bar
}

/// The input and exit-code part of the batch commands' `--help`.
pub const PUZZLE_INPUT_HELP: &str = "\
Input: one puzzle per line (16, 81, 256 or 625 characters for 4x4, 9x9, 16x16,
25x25; '.', '0' or '_' for a blank; letters A-P for digits above 9; text after
the puzzle is a comment; lines starting with '#' are comments; LF, CRLF or CR
line ends), grids of n lines with or without '|', '-', '+' borders, or
pencilmark lines (729 characters for 9x9, 64 for 4x4: for each cell and digit,
the digit if it is a candidate, else '.'). Lines longer than 65536 bytes are
errors. Input is read as a stream: answers come out in input order as soon as
they are ready, whatever the input's length.

Variant puzzles (solve and count only): one per line in the Interactive
Sudoku Solver's text format, mixed freely with classic lines, e.g.
.~R1C2_4~R1C8_1.Thermo~R9C4~R8C3~R7C2.Cage~10~R1C1~R1C2 (givens as
.~R<row>C<col>_<digit>; .Shape~6x6 for other sizes up to 16x16; kinds:
Cage, Sum, Thermo, Arrow, Whisper, Renban, LittleKiller, Sandwich, Jigsaw,
Diagonal, AntiKnight, kropki dots, XV and more; an unknown kind's error lists
them). They are solved by the variant solver whatever --algo names (a method
is for the classic lines; a note on stderr says so once) and are not traced.
Try: sudoku solve testdata/variant/examples.txt

A bad puzzle gets an error record in its place (`error: FILE: line 4, column
17: 'x' is not a digit or blank`) and the rest is still answered; a file that
cannot be read is reported on stderr and the other files are still read.

Exit codes: 0 every answer complete (solve: every puzzle has exactly one
solution; count: every count exact and not zero; rate: every puzzle rated),
1 some answer cut short by a limit, a puzzle with no solution (or several, for
solve and rate), a bad record or an unreadable file, 2 usage or I/O error.";

/// A progress bar on stderr for `len` items, hidden when `show` is false.
pub fn progress_bar(len: u64, show: bool, what: &str) -> indicatif::ProgressBar {
    if !show {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(len);
    bar.set_style(
        indicatif::ProgressStyle::with_template(&format!(
            "{{elapsed_precise}} [{{wide_bar}}] {{pos}}/{{len}} {what} ({{per_sec}}, eta {{eta}})"
        ))
        .expect("valid template"),
    );
    bar
}

/// A technique by name, or an error naming `flag` and listing the valid names.
pub fn parse_technique(flag: &str, name: &str) -> anyhow::Result<sudoku_core::rate::Technique> {
    sudoku_core::rate::Technique::from_name(name).ok_or_else(|| {
        anyhow::anyhow!(
            "{flag}: unknown technique '{name}'; valid names: {}",
            technique_names()
        )
    })
}

/// The rating part of `rate`, `explain` and `generate --help`: the bands'
/// thresholds and every technique with its difficulty.
///
/// Made once per process and shared by the commands that show it (every
/// command's help text is built at start-up, so this runs on every start:
/// difficulties are written from their tenths, without float formatting).
pub fn rating_help() -> &'static str {
    static HELP: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    HELP.get_or_init(make_rating_help)
}

fn make_rating_help() -> String {
    use std::fmt::Write as _;
    let mut s = String::from(
        "Ratings are on the Sudoku Explainer scale: the difficulty of the hardest technique on the \
         path that always takes the easiest step.\nBands: easy 1.0-1.5, medium 1.6-2.8, hard 2.9-4.1, \
         expert 4.2-5.0, extreme 5.1 and up, needs-guessing (the techniques cannot finish).\n\
         Techniques (name: difficulty), easiest first:\n",
    );
    for t in sudoku_core::rate::Technique::ALL {
        let d = t.difficulty_tenths();
        let _ = writeln!(s, "  {:<22} {}.{}", t.name(), d / 10, d % 10);
    }
    s
}

/// Every technique name, easiest first, comma-separated.
pub fn technique_names() -> String {
    sudoku_core::rate::Technique::ALL
        .iter()
        .map(|t| t.name())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The rater config with the techniques of `--disable` turned off.
pub fn rater_config(disable: &[String]) -> anyhow::Result<sudoku_core::rate::Config> {
    let mut config = sudoku_core::rate::Config::all();
    for list in disable {
        for name in list.split(',').filter(|n| !n.trim().is_empty()) {
            config = config.without(parse_technique("--disable", name)?);
        }
    }
    Ok(config)
}

/// Parse `MIN..MAX` (either end may be left out: `..MAX`, `MIN..`), or a
/// single value `N` meaning `N..N`. `flag` names the option in errors.
pub fn parse_range<T>(flag: &str, text: &str, lowest: T, highest: T) -> anyhow::Result<(T, T)>
where
    T: std::str::FromStr + Copy + PartialOrd + std::fmt::Display,
{
    let bad = || {
        anyhow::anyhow!(
            "{flag}: '{text}' is not a range; write MIN..MAX (e.g. {lowest}..{highest}), MIN.., ..MAX or a single value"
        )
    };
    let num = |s: &str, default: T| -> anyhow::Result<T> {
        let s = s.trim();
        if s.is_empty() {
            Ok(default)
        } else {
            s.parse().map_err(|_| bad())
        }
    };
    let (lo, hi) = match text.split_once("..") {
        Some((a, b)) => {
            let b = b.strip_prefix('=').unwrap_or(b);
            (num(a, lowest)?, num(b, highest)?)
        }
        None => {
            let v = num(text, lowest)?;
            if text.trim().is_empty() {
                return Err(bad());
            }
            (v, v)
        }
    };
    if lo > hi {
        anyhow::bail!("{flag}: the range {text} is empty (its minimum is above its maximum)");
    }
    Ok((lo, hi))
}

/// A global allocator for this crate's unit tests that counts, per thread,
/// the allocations made: tests check that hot paths make none.
#[cfg(test)]
pub(crate) mod counting_alloc {
    use std::alloc::{GlobalAlloc, Layout, System};
    use std::cell::Cell;

    thread_local! {
        static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
    }

    struct Counting;

    // SAFETY: every call is passed on to the system allocator unchanged;
    // counting touches only a thread-local `Cell` (const-initialised, so it
    // never allocates).
    unsafe impl GlobalAlloc for Counting {
        unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
            ALLOCATIONS.with(|a| a.set(a.get() + 1));
            // SAFETY: the caller's contract is passed on.
            unsafe { System.alloc(layout) }
        }
        unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
            // SAFETY: the caller's contract is passed on.
            unsafe { System.dealloc(ptr, layout) }
        }
        unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
            ALLOCATIONS.with(|a| a.set(a.get() + 1));
            // SAFETY: the caller's contract is passed on.
            unsafe { System.realloc(ptr, layout, new_size) }
        }
    }

    #[global_allocator]
    static GLOBAL: Counting = Counting;

    /// Allocations made so far by this thread.
    pub(crate) fn count() -> u64 {
        ALLOCATIONS.with(Cell::get)
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_warm_up_thread_starts_only_for_batch_commands_that_may_use_several_workers() {
        let plan = |line: &str| {
            let args: Vec<std::ffi::OsString> = line.split(' ').map(Into::into).collect();
            super::warm_up_plan(&args)
        };
        assert_eq!(plan("solve puzzles.txt"), Some(true));
        assert_eq!(plan("count --threads 2 puzzles.txt"), Some(false));
        assert_eq!(plan("explain --threads=3 puzzles.txt"), Some(false));
        assert_eq!(plan("rate --threads 0 puzzles.txt"), Some(true));
        assert_eq!(plan("generate -n 10"), Some(true));
        assert_eq!(plan("solve --threads 1 puzzles.txt"), None);
        assert_eq!(plan("rate --threads=1 puzzles.txt"), None);
        assert_eq!(plan("bench"), None);
        assert_eq!(plan("hint 123"), None);
        assert_eq!(plan("serve --threads 2"), None);
        assert_eq!(plan(""), None);
    }

    #[test]
    fn rating_help_lists_every_technique_with_its_difficulty() {
        let help = super::rating_help();
        for t in sudoku_core::rate::Technique::ALL {
            let line = format!("  {:<22} {:.1}\n", t.name(), t.difficulty());
            assert!(help.contains(&line), "missing {line:?}");
        }
        // made once: the same text every time
        assert!(std::ptr::eq(help, super::rating_help()));
    }
}
