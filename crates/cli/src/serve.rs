//! `sudoku serve`: the web page and its JSON API (the `sudoku-server`
//! crate), with the command line's limits as flags.

use std::net::SocketAddr;
use std::process::ExitCode;

use anyhow::Context;

/// Serve the page (play, hints, explanations, solve and compare, generate)
/// and its JSON API under /api/ (described at /api/openapi.json).
#[derive(clap::Args, Debug, Clone)]
pub struct ServeArgs {
    /// Address to listen on (port 0 picks a free port; the address is
    /// printed on stderr).
    #[arg(long, value_name = "IP:PORT", default_value = "127.0.0.1:8080")]
    pub addr: SocketAddr,
    /// Time a request may take, waiting included, in seconds; a search
    /// still running then answers "unknown".
    #[arg(long, value_name = "SECS", default_value = "5", value_parser = crate::parse_secs)]
    pub timeout: std::time::Duration,
    /// Search nodes per search at most.
    #[arg(long, value_name = "N", default_value_t = 20_000_000)]
    pub max_nodes: u64,
    /// Largest request body in bytes (larger: 413).
    #[arg(long, value_name = "BYTES", default_value_t = 65_536)]
    pub max_body: usize,
    /// Requests in flight at once at most (more: 429).
    #[arg(long, value_name = "N", default_value_t = 256)]
    pub max_in_flight: usize,
    /// Worker threads for searches (0 = one per core, at most 4 per core).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub threads: usize,
}

/// Run `sudoku serve` until the process is stopped.
pub fn run(args: &ServeArgs) -> anyhow::Result<ExitCode> {
    let config = sudoku_server::Config {
        deadline: args.timeout,
        max_nodes: args.max_nodes.max(1),
        max_body: args.max_body.max(1),
        max_in_flight: args.max_in_flight.max(1),
        workers: crate::worker_threads("sudoku", args.threads),
        ..sudoku_server::Config::default()
    };
    sudoku_server::run(args.addr, config, |addr| {
        eprintln!(
            "sudoku serve: listening on http://{addr}/ (the API: http://{addr}/api/openapi.json)"
        );
    })
    .with_context(|| format!("--addr {}: cannot serve", args.addr))?;
    Ok(ExitCode::SUCCESS)
}
