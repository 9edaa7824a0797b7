//! `dlx`: solve exact-cover problems written in Knuth's DLX text format.
//! The work is in the library module `sudoku_cli::dlx`.

use std::process::ExitCode;

use clap::Parser;
use sudoku_cli::dlx::{Args, run};
use sudoku_cli::{exit, is_broken_pipe};

fn main() -> ExitCode {
    match run(&Args::parse()) {
        Ok(code) => code,
        // the reader went away (`dlx ... | head`): not a failure
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("dlx: {e:#}");
            ExitCode::from(exit::USAGE)
        }
    }
}
