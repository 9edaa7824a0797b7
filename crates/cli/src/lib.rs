//! The command-line front end: argument types and the code behind each
//! `sudoku` subcommand. Thin: it parses arguments, calls the libraries and
//! formats their answers.

pub mod bench;
pub mod explain;
pub mod generate;
pub mod hint;
pub mod input;
pub mod output;
pub mod rate;
pub mod solve;

use std::io;

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
