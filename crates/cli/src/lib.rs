//! The command-line front end: argument types and the code behind each
//! `sudoku` subcommand. Thin: it parses arguments, calls the libraries and
//! formats their answers.

pub mod bench;
pub mod input;
pub mod output;
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
