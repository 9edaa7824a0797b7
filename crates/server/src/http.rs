//! The HTTP side: routes, limits, and JSON errors.

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::task::{Context, Poll};
use std::time::Instant;

use axum::Router;
use axum::body::Bytes;
use axum::extract::{Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde_json::Value;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::Config;
use crate::api::{self, ApiError, Endpoint, RequestLimits};
use crate::assets;

struct Shared {
    config: Config,
    in_flight: AtomicUsize,
    workers: Arc<Semaphore>,
}

/// The router: the page, its assets, `/api/openapi.json` and `POST
/// /api/<endpoint>`, every unknown path or method answered in JSON.
pub fn router(config: Config) -> Router {
    let shared = Arc::new(Shared {
        workers: Arc::new(Semaphore::new(config.workers.max(1))),
        in_flight: AtomicUsize::new(0),
        config,
    });
    let mut r = Router::new()
        .route("/api/openapi.json", get(openapi))
        .route("/api/{endpoint}", post(api_call).fallback(wrong_method));
    for asset in assets::ASSETS {
        r = r.route(
            asset.path,
            get(move || async move { asset_response(asset) }),
        );
    }
    r.fallback(not_found).with_state(shared)
}

fn json_response(status: StatusCode, body: &Value) -> Response {
    // Straight into bytes (`to_string` goes through `fmt::Write`, a few
    // times slower for the same output).
    let bytes = serde_json::to_vec(body).unwrap_or_else(|_| b"{}".to_vec());
    let mut res = (status, bytes).into_response();
    res.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    res.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    res
}

fn error_response(e: &ApiError) -> Response {
    let status = StatusCode::from_u16(e.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let mut res = json_response(status, &e.to_json());
    if matches!(e.status, 429 | 503) {
        res.headers_mut()
            .insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
    }
    res
}

fn asset_response(asset: &'static assets::Asset) -> Response {
    let mut res = (StatusCode::OK, asset.body).into_response();
    let h = res.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static(asset.content_type),
    );
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(assets::CSP),
    );
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    res
}

async fn openapi() -> Response {
    let mut res = (StatusCode::OK, assets::OPENAPI).into_response();
    res.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    res
}

async fn not_found() -> Response {
    error_response(&ApiError::new(
        404,
        "no such page or endpoint; the API is described at /api/openapi.json",
    ))
}

async fn wrong_method() -> Response {
    error_response(&ApiError::new(
        405,
        "the API's endpoints take POST with a JSON body; see /api/openapi.json",
    ))
}

/// Counts a request in flight while alive.
struct InFlight<'a>(&'a AtomicUsize);

impl Drop for InFlight<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

/// `POST /api/<endpoint>`. The request is taken whole (no extractors that
/// copy the header map or the path into new allocations).
async fn api_call(State(shared): State<Arc<Shared>>, req: Request) -> Response {
    let arrived = Instant::now();
    let config = &shared.config;
    let name = req.uri().path().strip_prefix("/api/").unwrap_or_default();
    let Some(endpoint) = Endpoint::from_name(name) else {
        return not_found().await;
    };
    let (parts, body) = req.into_parts();
    let headers = &parts.headers;
    let n = shared.in_flight.fetch_add(1, Ordering::AcqRel);
    let _guard = InFlight(&shared.in_flight);
    if n >= config.max_in_flight {
        return error_response(&ApiError::new(
            429,
            format!(
                "too many requests in flight (at most {}); try again shortly",
                config.max_in_flight
            ),
        ));
    }
    let deadline = arrived + config.deadline;
    let too_large = || {
        error_response(&ApiError::new(
            413,
            format!("the request body is larger than {} bytes", config.max_body),
        ))
    };
    let declared = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|s| s.parse::<u64>().ok());
    if declared.is_some_and(|n| n > config.max_body as u64) {
        return too_large();
    }
    let bytes: Bytes =
        match tokio::time::timeout_at(deadline.into(), axum::body::to_bytes(body, config.max_body))
            .await
        {
            Ok(Ok(b)) => b,
            Ok(Err(e)) => {
                let limit = std::error::Error::source(&e)
                    .is_some_and(|s| s.is::<http_body_util::LengthLimitError>())
                    || e.to_string().contains("length limit");
                if limit {
                    return too_large();
                }
                return error_response(&ApiError::new(
                    400,
                    format!("cannot read the request body: {e}"),
                ));
            }
            Err(_) => {
                return error_response(&ApiError::new(
                    408,
                    "the request body did not arrive before the deadline",
                ));
            }
        };
    let limits = RequestLimits {
        deadline,
        max_nodes: config.max_nodes,
    };
    // Cheap requests are answered here, under a small node cap (a few
    // microseconds of search); the rest go to a worker.
    if api::inline_candidate(endpoint, &bytes) {
        let small = RequestLimits {
            max_nodes: limits.max_nodes.min(api::INLINE_NODES),
            ..limits
        };
        let answer = api::handle(endpoint, &bytes, &small);
        match &answer {
            Ok(v) if api::stopped_by_node_cap(v) && small.max_nodes < limits.max_nodes => {}
            _ => return to_response(answer),
        }
    }
    // Wait for a worker while at least a quarter of the deadline is left
    // for the search; after that the answer could only be "unknown".
    let wait_until = deadline - config.deadline / 4;
    let permit: OwnedSemaphorePermit =
        match tokio::time::timeout_at(wait_until.into(), shared.workers.clone().acquire_owned())
            .await
        {
            Ok(Ok(p)) => p,
            _ => {
                return error_response(&ApiError::new(
                    503,
                    "the server is busy: no worker was free in time; try again shortly",
                ));
            }
        };
    let job = tokio::task::spawn_blocking(move || {
        let _permit = permit;
        api::handle(endpoint, &bytes, &limits)
    });
    match job.await {
        Ok(answer) => to_response(answer),
        Err(e) => error_response(&ApiError::new(500, format!("internal error: {e}"))),
    }
}

fn to_response(answer: Result<Value, ApiError>) -> Response {
    match answer {
        Ok(v) => json_response(StatusCode::OK, &v),
        Err(e) => error_response(&e),
    }
}

/// A listener that keeps at most `max` connections open: accepting waits
/// while that many are open.
pub(crate) struct Limited {
    inner: TcpListener,
    open: Arc<Semaphore>,
}

impl Limited {
    pub(crate) fn new(inner: TcpListener, max: usize) -> Limited {
        Limited {
            inner,
            open: Arc::new(Semaphore::new(max)),
        }
    }
}

/// A connection holding its place among the open ones until dropped, and
/// closed (a `TimedOut` error) after [`IDLE`] with no byte read or written,
/// so an idle or trickling client cannot keep its place for ever.
///
/// Traffic only notes the time ([`Counted::last`]); the timer is moved
/// when it fires early, not on every read and write (moving a timer costs
/// more than reading the clock).
pub(crate) struct Counted {
    io: TcpStream,
    _permit: OwnedSemaphorePermit,
    idle: Pin<Box<tokio::time::Sleep>>,
    /// When a byte was last read or written.
    last: tokio::time::Instant,
}

/// How long a connection may stay without traffic.
const IDLE: std::time::Duration = std::time::Duration::from_secs(30);

impl Counted {
    /// `Pending` becomes an error once the connection has been idle too long.
    fn idle_check<T>(
        &mut self,
        cx: &mut Context<'_>,
        p: Poll<io::Result<T>>,
    ) -> Poll<io::Result<T>> {
        match p {
            Poll::Pending => loop {
                match self.idle.as_mut().poll(cx) {
                    Poll::Ready(()) => {
                        let due = self.last + IDLE;
                        if due > tokio::time::Instant::now() {
                            // traffic since the timer was set: move it
                            self.idle.as_mut().reset(due);
                            continue;
                        }
                        return Poll::Ready(Err(io::Error::new(
                            io::ErrorKind::TimedOut,
                            "connection idle too long",
                        )));
                    }
                    Poll::Pending => return Poll::Pending,
                }
            },
            ready => {
                self.last = tokio::time::Instant::now();
                ready
            }
        }
    }
}

impl axum::serve::Listener for Limited {
    type Io = Counted;
    type Addr = std::net::SocketAddr;

    async fn accept(&mut self) -> (Counted, std::net::SocketAddr) {
        loop {
            let Ok(permit) = self.open.clone().acquire_owned().await else {
                // never closed; wait a little rather than spin
                tokio::time::sleep(std::time::Duration::from_millis(10)).await;
                continue;
            };
            match self.inner.accept().await {
                Ok((io, addr)) => {
                    let _ = io.set_nodelay(true);
                    return (
                        Counted {
                            io,
                            _permit: permit,
                            idle: Box::pin(tokio::time::sleep(IDLE)),
                            last: tokio::time::Instant::now(),
                        },
                        addr,
                    );
                }
                // out of file descriptors and the like: wait, then retry
                Err(_) => tokio::time::sleep(std::time::Duration::from_millis(10)).await,
            }
        }
    }

    fn local_addr(&self) -> io::Result<std::net::SocketAddr> {
        self.inner.local_addr()
    }
}

impl AsyncRead for Counted {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let p = Pin::new(&mut self.io).poll_read(cx, buf);
        self.idle_check(cx, p)
    }
}

impl AsyncWrite for Counted {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let p = Pin::new(&mut self.io).poll_write(cx, buf);
        self.idle_check(cx, p)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.io).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.io).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let p = Pin::new(&mut self.io).poll_write_vectored(cx, bufs);
        self.idle_check(cx, p)
    }

    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }
}
