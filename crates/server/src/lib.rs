//! `sudoku serve`: the web page and its JSON API, on axum and tokio.
//!
//! [`api`] answers requests as plain functions (JSON in, JSON out, no
//! networking); this module puts them behind HTTP with the same kind of
//! limits as the command line:
//!
//! - a bounded body ([`Config::max_body`]; larger bodies get `413`);
//! - a deadline and a node cap per request ([`Config::deadline`],
//!   [`Config::max_nodes`]): a search cut short answers status `unknown`;
//! - a bounded number of requests in flight ([`Config::max_in_flight`],
//!   then `429`), searches on a bounded pool of worker threads
//!   ([`Config::workers`]) off the async threads, and `503` when no worker
//!   is free while three quarters of the request's deadline are left;
//! - a bounded number of open connections ([`Config::max_connections`]:
//!   more wait in the kernel's queue);
//! - every error is JSON: `{"error": "...", "line": L, "column": C}` with a
//!   place when there is one (a bad puzzle, or request JSON that does not
//!   parse).
//!
//! The page (`/`) and its scripts are embedded in the binary ([`assets`]);
//! `/api/openapi.json` describes the API.

pub mod api;
#[cfg(feature = "http")]
pub mod assets;
#[cfg(feature = "http")]
mod http;

#[cfg(feature = "http")]
use std::io;
#[cfg(feature = "http")]
use std::net::SocketAddr;
use std::time::Duration;

#[cfg(feature = "http")]
pub use http::router;

/// The server's limits. Defaults ([`Config::default`]) are written next to
/// each field.
#[derive(Clone, Debug)]
pub struct Config {
    /// Largest request body in bytes (default 65,536); larger ones get `413`.
    pub max_body: usize,
    /// Time from a request's arrival until its answer is due (default 5 s):
    /// waiting for a worker and searching both count. A search still running
    /// then answers `unknown`. A request that waited for a worker for three
    /// quarters of it gets `503`.
    pub deadline: Duration,
    /// Search nodes per search at most (default 20,000,000).
    pub max_nodes: u64,
    /// Requests in flight at once at most (default 256); more get `429`.
    pub max_in_flight: usize,
    /// Worker threads for searches (default: one per core).
    pub workers: usize,
    /// Open connections at most (default 1,024); further connections wait
    /// to be accepted.
    pub max_connections: usize,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            max_body: 64 * 1024,
            deadline: Duration::from_secs(5),
            max_nodes: 20_000_000,
            max_in_flight: 256,
            workers: std::thread::available_parallelism().map_or(1, |n| n.get()),
            max_connections: 1024,
        }
    }
}

#[cfg(feature = "http")]
/// Bind `addr` and serve until the process ends, on a tokio runtime of
/// its own. `on_listen` is called with the bound address (port 0 picks a
/// free port) once the server accepts connections.
pub fn run(addr: SocketAddr, config: Config, on_listen: impl FnOnce(SocketAddr)) -> io::Result<()> {
    // One worker: a current-thread runtime (the async side on this thread,
    // no hand-offs between scheduler threads; searches past the inline
    // node cap still go to the blocking pool). More: a worker per async
    // thread.
    let mut builder = if config.workers <= 1 {
        tokio::runtime::Builder::new_current_thread()
    } else {
        let mut b = tokio::runtime::Builder::new_multi_thread();
        b.worker_threads(config.workers.clamp(1, 64));
        b
    };
    let runtime = builder
        .max_blocking_threads(config.workers.clamp(1, 512) + 4)
        .enable_all()
        .build()?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(addr).await?;
        on_listen(listener.local_addr()?);
        serve(listener, config).await
    })
}

#[cfg(feature = "http")]
/// Serve on a bound listener until the process ends (or the future is
/// dropped).
pub async fn serve(listener: tokio::net::TcpListener, config: Config) -> io::Result<()> {
    let max = config.max_connections.max(1);
    let app = router(config);
    axum::serve(http::Limited::new(listener, max), app).await
}
