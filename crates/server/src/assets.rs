//! The page's files, embedded in the binary from `crates/web/www/` (plain
//! ES modules, no build step; the offline engine `engine/` is built from
//! `crates/web` by `crates/web/build.sh`), and the API's OpenAPI description.

/// One embedded file.
#[derive(Debug)]
pub struct Asset {
    /// The URL path it is served at.
    pub path: &'static str,
    /// Its `Content-Type`.
    pub content_type: &'static str,
    /// Its bytes.
    pub body: &'static [u8],
}

/// Every file of the page, by URL path.
pub static ASSETS: &[Asset] = &[
    Asset {
        path: "/",
        content_type: "text/html; charset=utf-8",
        body: include_bytes!("../../web/www/index.html"),
    },
    Asset {
        path: "/index.html",
        content_type: "text/html; charset=utf-8",
        body: include_bytes!("../../web/www/index.html"),
    },
    Asset {
        path: "/app.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_bytes!("../../web/www/app.js"),
    },
    Asset {
        path: "/board.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_bytes!("../../web/www/board.js"),
    },
    Asset {
        path: "/variant.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_bytes!("../../web/www/variant.js"),
    },
    Asset {
        path: "/offline.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_bytes!("../../web/www/offline.js"),
    },
    Asset {
        path: "/engine/sudoku_web.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_bytes!("../../web/www/engine/sudoku_web.js"),
    },
    Asset {
        path: "/engine/sudoku_web_bg.wasm",
        content_type: "application/wasm",
        body: include_bytes!("../../web/www/engine/sudoku_web_bg.wasm"),
    },
    Asset {
        path: "/style.css",
        content_type: "text/css; charset=utf-8",
        body: include_bytes!("../../web/www/style.css"),
    },
    Asset {
        path: "/favicon.svg",
        content_type: "image/svg+xml",
        body: include_bytes!("../../web/www/favicon.svg"),
    },
];

/// The page's Content-Security-Policy: everything from this server only,
/// so the page can make no request elsewhere.
pub const CSP: &str = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/// `/api/openapi.json`.
pub const OPENAPI: &str = include_str!("openapi.json");
