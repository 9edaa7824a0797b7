//! The API on a real server: bound to a free loopback port, spoken to over
//! TCP with a plain HTTP/1.1 client, so every status code, header and body
//! is the one a browser or `curl` gets. Every test is bounded in requests and
//! time.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use sudoku_server::Config;

const PUZZLE: &str =
    ".3..9..5.....1...45..8....7....3.2..6....9.4...7..25.......19....69....812.....7.";
const SOLUTION: &str =
    "734296851268517394591843627915734286682159743347682519853471962476925138129368475";
/// A 17-clue puzzle that `naive` takes far more than a second on.
const HARD_FOR_NAIVE: &str =
    "..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9";

/// Start a server with `config` on 127.0.0.1, port 0; its address.
fn start(config: Config) -> SocketAddr {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let r = sudoku_server::run("127.0.0.1:0".parse().unwrap(), config, |a| {
            tx.send(a).unwrap();
        });
        panic!("the server stopped: {r:?}");
    });
    rx.recv_timeout(Duration::from_secs(10))
        .expect("the server did not start")
}

fn default_server() -> SocketAddr {
    start(Config {
        workers: 2,
        ..Config::default()
    })
}

/// One request on a fresh connection; the status, headers and body.
fn raw(addr: SocketAddr, request: &[u8]) -> (u16, String, String) {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    // the server may answer (413) and close before the whole body is sent
    let _ = s.write_all(request);
    let mut out = Vec::new();
    let _ = s.read_to_end(&mut out);
    let text = String::from_utf8_lossy(&out).to_string();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    (status, head.to_string(), body.to_string())
}

fn request(addr: SocketAddr, method: &str, path: &str, body: &[u8]) -> (u16, String, String) {
    let mut req = format!(
        "{method} {path} HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    )
    .into_bytes();
    req.extend_from_slice(body);
    raw(addr, &req)
}

/// POST a JSON body; the status and the parsed answer.
fn post(addr: SocketAddr, endpoint: &str, body: &Value) -> (u16, Value) {
    let (status, _, text) = request(
        addr,
        "POST",
        &format!("/api/{endpoint}"),
        body.to_string().as_bytes(),
    );
    let v = serde_json::from_str(&text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"));
    (status, v)
}

#[test]
fn every_endpoint_answers_in_the_clis_vocabulary() {
    let addr = default_server();
    let (s, v) = post(addr, "solve", &json!({"puzzle": PUZZLE, "method": "auto"}));
    assert_eq!(s, 200);
    assert_eq!(v["status"], "unique");
    assert_eq!(v["solution"], SOLUTION);
    assert_eq!(v["method"], "fast");
    for field in ["micros", "nodes", "guesses", "max_depth", "state_bytes"] {
        assert!(v["stats"][field].is_u64(), "{field}: {v}");
    }

    let (s, v) = post(
        addr,
        "solve",
        &json!({"puzzle": PUZZLE, "method": "dlx", "trace": true}),
    );
    assert_eq!((s, &v["status"]), (200, &json!("unique")));
    let trace = v["trace"].as_array().unwrap();
    assert!(trace.iter().any(|t| t["kind"] == "column"), "{trace:?}");
    assert_eq!(trace.iter().filter(|t| t["kind"] == "solution").count(), 1);

    let (s, v) = post(
        addr,
        "count",
        &json!({"puzzle": ".".repeat(16), "limit": 1000}),
    );
    assert_eq!(s, 200);
    assert_eq!(
        (v["count"].as_u64(), v["complete"].as_bool()),
        (Some(288), Some(true))
    );
    assert_eq!(v["status"], "multiple");
    let (_, v) = post(addr, "count", &json!({"puzzle": PUZZLE}));
    assert_eq!(
        (v["status"].as_str(), v["count"].as_u64()),
        (Some("unique"), Some(1))
    );

    let (s, v) = post(addr, "rate", &json!({"puzzle": PUZZLE}));
    assert_eq!(s, 200);
    assert_eq!(
        (v["rating"].as_f64(), v["band"].as_str()),
        (Some(3.2), Some("hard"))
    );
    assert_eq!(v["hardest"], "x-wing");

    for level in 1..=3 {
        let (s, v) = post(addr, "hint", &json!({"puzzle": PUZZLE, "level": level}));
        assert_eq!((s, &v["status"]), (200, &json!("hint")), "{v}");
        assert_eq!(v["level"], level);
        assert!(!v["hint"].as_str().unwrap().is_empty());
        assert_eq!(v.get("technique").is_some(), level >= 2, "{v}");
        assert_eq!(v.get("step").is_some(), level == 3, "{v}");
    }

    let (s, v) = post(addr, "explain", &json!({"puzzle": PUZZLE}));
    assert_eq!((s, &v["status"]), (200, &json!("explained")));
    let steps = v["steps"].as_array().unwrap();
    assert_eq!(steps.len() as u64, v["rating"]["steps"].as_u64().unwrap());
    assert_eq!(steps[0]["candidates"].as_str().unwrap().len(), 729);

    let (s, a) = post(
        addr,
        "generate",
        &json!({"difficulty": "easy", "seed": 12, "size": 9}),
    );
    assert_eq!((s, &a["status"]), (200, &json!("generated")), "{a}");
    assert_eq!(a["rating"]["band"], "easy");
    let (_, b) = post(
        addr,
        "generate",
        &json!({"difficulty": "easy", "seed": 12, "size": 9}),
    );
    assert_eq!(a["puzzle"], b["puzzle"], "one seed, one puzzle");
    let (_, check) = post(addr, "solve", &json!({"puzzle": a["puzzle"]}));
    assert_eq!(
        (&check["status"], &check["solution"]),
        (&json!("unique"), &a["solution"])
    );
    let (_, small) = post(addr, "generate", &json!({"size": 4, "symmetry": "rot180"}));
    assert_eq!(small["puzzle"].as_str().unwrap().len(), 16);

    let (s, v) = post(
        addr,
        "bench",
        &json!({"puzzle": PUZZLE, "methods": ["mrv", "dlx-pruned", "fast"]}),
    );
    assert_eq!(s, 200);
    let results = v["results"].as_array().unwrap();
    assert_eq!(results.len(), 3);
    assert!(results.iter().all(|r| r["status"] == "unique"), "{v}");
    let (_, v) = post(
        addr,
        "bench",
        &json!({"puzzle": ".".repeat(256), "methods": ["fast", "mrv-hidden"]}),
    );
    assert_eq!(v["results"][0]["status"], "n/a");
    assert_eq!(v["results"][1]["status"], "multiple");
}

#[test]
fn the_openapi_description_names_every_endpoint() {
    let addr = default_server();
    let (s, head, body) = request(addr, "GET", "/api/openapi.json", b"");
    assert_eq!(s, 200);
    assert!(head.to_ascii_lowercase().contains("application/json"));
    let v: Value = serde_json::from_str(&body).unwrap();
    for e in sudoku_server::api::Endpoint::ALL {
        let path = format!("/api/{}", e.name());
        assert!(v["paths"][&path]["post"].is_object(), "{path} missing");
    }
}

#[test]
fn the_page_and_its_assets_are_served_with_a_strict_policy() {
    let addr = default_server();
    for asset in sudoku_server::assets::ASSETS {
        let (s, head, body) = request(addr, "GET", asset.path, b"");
        assert_eq!(s, 200, "{}", asset.path);
        assert!(!body.is_empty());
        assert!(head.contains("default-src 'self'"), "{head}");
    }
    let (_, _, page) = request(addr, "GET", "/", b"");
    for name in [
        ">Puzzle</label>",
        ">Load<",
        ">Solve<",
        ">Hint<",
        ">Undo<",
        ">Redo<",
        ">Check<",
        ">New puzzle<",
    ] {
        assert!(page.contains(name), "{name}");
    }
    assert!(
        !page.contains("http://") && !page.contains("https://"),
        "no external URL"
    );
}

#[test]
fn a_bad_puzzle_is_a_400_with_its_line_and_column() {
    let addr = default_server();
    let (s, v) = post(
        addr,
        "solve",
        &json!({"puzzle": format!("..3x{}", ".".repeat(77))}),
    );
    assert_eq!(s, 400);
    assert_eq!(
        (v["line"].as_u64(), v["column"].as_u64()),
        (Some(1), Some(4)),
        "{v}"
    );
    assert_eq!(v["field"], "puzzle");
    // a grid whose second row is short
    let grid = "53..7....\n6..195..\n.98....6.\n8...6...3\n4..8.3..1\n7...2...6\n.6....28.\n...419..5\n....8..79";
    let (s, v) = post(addr, "rate", &json!({"puzzle": grid}));
    assert_eq!((s, v["line"].as_u64()), (400, Some(2)), "{v}");
    // givens that conflict
    let (s, v) = post(
        addr,
        "hint",
        &json!({"puzzle": format!("11{}", ".".repeat(79))}),
    );
    assert_eq!(s, 400);
    assert!(v["error"].as_str().unwrap().contains("twice"), "{v}");
    assert_eq!(
        (v["line"].as_u64(), v["column"].as_u64()),
        (Some(1), Some(2)),
        "{v}"
    );
    for endpoint in ["solve", "count", "rate", "hint", "explain", "bench"] {
        let (s, v) = post(addr, endpoint, &json!({"puzzle": "1234"}));
        assert_eq!(s, 400, "{endpoint}");
        assert!(
            v["line"].is_u64() && v["column"].is_u64(),
            "{endpoint}: {v}"
        );
    }
}

/// The 729-character pencilmark line of a puzzle: every candidate in an
/// empty cell, only the given in a filled one.
fn pencilmarks_of(puzzle: &str) -> String {
    puzzle
        .chars()
        .map(|c| match c.to_digit(10) {
            Some(d @ 1..=9) => (1..=9u32)
                .map(|k| if k == d { c } else { '.' })
                .collect::<String>(),
            _ => "123456789".to_string(),
        })
        .collect()
}

#[test]
fn solve_and_count_take_pencilmarks_as_the_cli_does() {
    let addr = default_server();
    let marks = pencilmarks_of(PUZZLE);
    assert_eq!(marks.len(), 729);
    let (s, v) = post(addr, "solve", &json!({"puzzle": marks}));
    assert_eq!(s, 200, "{v}");
    assert_eq!(
        (&v["status"], &v["solution"], &v["pencilmarks"]),
        (&json!("unique"), &json!(SOLUTION), &json!(true)),
        "{v}"
    );
    assert_eq!(v["puzzle"], PUZZLE.replace('0', "."));
    // a candidate struck out of the solution's cell leaves no solution
    let first_digit = SOLUTION.as_bytes()[0] - b'0';
    let mut struck = marks.clone().into_bytes();
    struck[usize::from(first_digit) - 1] = b'.';
    let struck = String::from_utf8(struck).unwrap();
    let (s, v) = post(addr, "count", &json!({"puzzle": struck, "method": "fast"}));
    assert_eq!(
        (s, &v["status"], &v["count"]),
        (200, &json!("none"), &json!(0)),
        "{v}"
    );
    // every candidate everywhere: many solutions, counted up to the limit
    let (s, v) = post(
        addr,
        "count",
        &json!({"puzzle": "123456789".repeat(81), "limit": 5}),
    );
    assert_eq!(
        (s, &v["count"], &v["complete"]),
        (200, &json!(5), &json!(false)),
        "{v}"
    );
    // other methods, a trace, 4x4 pencilmarks and bench are clear 400s
    let (s, v) = post(addr, "solve", &json!({"puzzle": marks, "method": "dlx"}));
    assert_eq!((s, &v["field"]), (400, &json!("method")), "{v}");
    let (s, v) = post(addr, "solve", &json!({"puzzle": marks, "trace": true}));
    assert_eq!((s, &v["field"]), (400, &json!("trace")), "{v}");
    let (s, v) = post(addr, "solve", &json!({"puzzle": "1234".repeat(16)}));
    assert_eq!(s, 400, "{v}");
    assert!(v["error"].as_str().unwrap().contains("9x9"), "{v}");
    let (s, v) = post(addr, "bench", &json!({"puzzle": marks}));
    assert_eq!(s, 400, "{v}");
    assert!(v["error"].as_str().unwrap().contains("pencilmarks"), "{v}");
    // a bad pencilmark character is located
    let mut bad = marks.into_bytes();
    bad[10] = b'x';
    let (s, v) = post(
        addr,
        "solve",
        &json!({"puzzle": String::from_utf8(bad).unwrap()}),
    );
    assert_eq!(
        (s, v["line"].as_u64(), v["column"].as_u64()),
        (400, Some(1), Some(11)),
        "{v}"
    );
}

#[test]
fn malformed_requests_are_400s_in_json() {
    let addr = default_server();
    let bodies: [&[u8]; 8] = [
        b"",
        b"{",
        b"\xff\xfe\x00garbage",
        b"[1, 2, 3]",
        b"{\"puzzle\": 5}",
        b"{\"puzzle\": \"\\ud800\"}",
        b"{\"puzzle\": \"...\", \"unknown\": 1}",
        b"{\"puzzle\": \"...\", \"max_nodes\": 1e40}",
    ];
    for body in bodies {
        for endpoint in ["solve", "generate", "hint"] {
            let (s, _, text) = request(addr, "POST", &format!("/api/{endpoint}"), body);
            assert_eq!(s, 400, "{endpoint} {body:?}: {text}");
            let v: Value = serde_json::from_str(&text).unwrap();
            assert!(v["error"].is_string());
            assert!(v["line"].is_u64() && v["column"].is_u64(), "{text}");
        }
    }
    // deep nesting stops at the JSON reader's depth limit
    let deep = format!("{}{}", "[".repeat(100_000 / 2), "]".repeat(100_000 / 2));
    let (s, _, _) = request(addr, "POST", "/api/solve", deep.as_bytes());
    assert_eq!(s, 413);
    let deep = format!("{{\"puzzle\": {}{}}}", "[".repeat(5000), "]".repeat(5000));
    let (s, _, _) = request(addr, "POST", "/api/solve", deep.as_bytes());
    assert_eq!(s, 400);
    // fields out of range
    for (endpoint, body) in [
        ("solve", json!({"puzzle": PUZZLE, "method": "quantum"})),
        (
            "solve",
            json!({"puzzle": ".".repeat(256), "method": "fast"}),
        ),
        ("count", json!({"puzzle": PUZZLE, "limit": 0})),
        ("hint", json!({"puzzle": PUZZLE, "level": 4})),
        ("rate", json!({"puzzle": ".".repeat(256)})),
        ("generate", json!({"size": 5})),
        ("generate", json!({"difficulty": "impossible"})),
        ("generate", json!({"size": 16, "difficulty": "hard"})),
        ("generate", json!({"symmetry": "spiral"})),
        ("bench", json!({"puzzle": PUZZLE, "methods": ["nope"]})),
    ] {
        let (s, v) = post(addr, endpoint, &body);
        assert_eq!(s, 400, "{endpoint} {body}: {v}");
        assert!(v["field"].is_string(), "{v}");
    }
    // not an HTTP request at all: the connection is refused politely and
    // the server goes on
    let (s, _, _) = raw(addr, b"\x16\x03\x01garbage\r\n\r\n");
    assert!(s == 400 || s == 0, "{s}");
    let (s, _) = post(addr, "solve", &json!({"puzzle": PUZZLE}));
    assert_eq!(s, 200);
}

#[test]
fn unknown_paths_and_methods_are_json_404_and_405() {
    let addr = default_server();
    let (s, _, body) = request(addr, "POST", "/api/frobnicate", b"{}");
    assert_eq!(s, 404);
    assert!(serde_json::from_str::<Value>(&body).unwrap()["error"].is_string());
    let (s, _, body) = request(addr, "GET", "/nothing-here", b"");
    assert_eq!(s, 404);
    assert!(serde_json::from_str::<Value>(&body).is_ok());
    for method in ["GET", "PUT", "DELETE"] {
        let (s, _, body) = request(addr, method, "/api/solve", b"");
        assert_eq!(s, 405, "{method}");
        assert!(serde_json::from_str::<Value>(&body).unwrap()["error"].is_string());
    }
}

#[test]
fn oversized_bodies_are_413_declared_or_not() {
    let addr = start(Config {
        max_body: 1000,
        workers: 1,
        ..Config::default()
    });
    let big = format!("{{\"puzzle\": \"{}\"}}", ".".repeat(2000));
    let (s, head, body) = request(addr, "POST", "/api/solve", big.as_bytes());
    assert_eq!(s, 413, "{head}");
    assert!(serde_json::from_str::<Value>(&body).unwrap()["error"].is_string());
    // chunked, with no length declared
    let mut req = b"POST /api/solve HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n".to_vec();
    for chunk in big.as_bytes().chunks(300) {
        req.extend_from_slice(format!("{:x}\r\n", chunk.len()).as_bytes());
        req.extend_from_slice(chunk);
        req.extend_from_slice(b"\r\n");
    }
    req.extend_from_slice(b"0\r\n\r\n");
    let (s, _, body) = raw(addr, &req);
    assert_eq!(s, 413);
    assert!(serde_json::from_str::<Value>(&body).is_ok());
    // just under the limit is fine
    let (s, _) = post(addr, "solve", &json!({"puzzle": PUZZLE}));
    assert_eq!(s, 200);
}

#[test]
fn the_deadline_and_node_cap_make_answers_unknown() {
    let addr = start(Config {
        deadline: Duration::from_millis(400),
        workers: 1,
        ..Config::default()
    });
    let t = Instant::now();
    let (s, v) = post(
        addr,
        "solve",
        &json!({"puzzle": HARD_FOR_NAIVE, "method": "naive"}),
    );
    assert_eq!(
        (s, &v["status"], &v["stopped"]),
        (200, &json!("unknown"), &json!("deadline")),
        "{v}"
    );
    assert!(v["solution"].is_null());
    assert!(t.elapsed() < Duration::from_secs(3));
    let (_, v) = post(
        addr,
        "count",
        &json!({"puzzle": ".".repeat(81), "limit": 1_000_000, "max_nodes": 5000}),
    );
    assert_eq!(
        (&v["status"], &v["complete"]),
        (&json!("multiple"), &json!(false)),
        "{v}"
    );
    assert_eq!(v["stopped"], "node-limit");
    let (_, v) = post(
        addr,
        "count",
        &json!({"puzzle": PUZZLE, "method": "naive", "max_nodes": 50}),
    );
    assert_eq!(
        (&v["status"], &v["stopped"]),
        (&json!("unknown"), &json!("node-limit")),
        "{v}"
    );
}

#[test]
fn too_many_requests_in_flight_get_429_and_no_free_worker_503() {
    let addr = start(Config {
        deadline: Duration::from_millis(1500),
        workers: 1,
        max_in_flight: 2,
        ..Config::default()
    });
    let slow = json!({"puzzle": HARD_FOR_NAIVE, "method": "naive"});
    let first = {
        let slow = slow.clone();
        std::thread::spawn(move || post(addr, "solve", &slow))
    };
    std::thread::sleep(Duration::from_millis(200));
    // the only worker is busy until the first request's deadline: the
    // second waits, and gives up with 503 when a quarter of its own is left
    let second = {
        let slow = slow.clone();
        std::thread::spawn(move || {
            let t = Instant::now();
            (post(addr, "solve", &slow), t.elapsed())
        })
    };
    std::thread::sleep(Duration::from_millis(200));
    // two in flight: the third is turned away at once
    let t = Instant::now();
    let (s, _, body) = request(
        addr,
        "POST",
        "/api/rate",
        json!({"puzzle": PUZZLE}).to_string().as_bytes(),
    );
    assert_eq!(s, 429, "{body}");
    assert!(t.elapsed() < Duration::from_millis(500));
    assert!(serde_json::from_str::<Value>(&body).unwrap()["error"].is_string());
    let (s, v) = first.join().unwrap();
    assert_eq!((s, &v["status"]), (200, &json!("unknown")));
    let ((s, v), waited) = second.join().unwrap();
    assert_eq!(s, 503, "{v}");
    assert!(waited < Duration::from_millis(1500), "{waited:?}");
    // once they are done, requests go through again
    let (s, _) = post(addr, "rate", &json!({"puzzle": PUZZLE}));
    assert_eq!(s, 200);
}

#[test]
fn many_concurrent_requests_all_get_right_answers() {
    let addr = start(Config {
        workers: 2,
        ..Config::default()
    });
    let puzzles: Vec<String> = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../testdata/solve-slice.txt"
    ))
    .unwrap()
    .lines()
    .filter(|l| l.len() >= 81 && !l.starts_with('#'))
    .map(|l| l[..81].to_string())
    .take(40)
    .collect();
    assert!(puzzles.len() >= 10);
    let t = Instant::now();
    let threads: Vec<_> = (0..8)
        .map(|k| {
            let puzzles = puzzles.clone();
            std::thread::spawn(move || {
                let mut ok = 0;
                for (i, p) in puzzles.iter().enumerate().filter(|(i, _)| i % 8 == k) {
                    let endpoint = if i % 3 == 0 { "count" } else { "solve" };
                    let method = ["auto", "dlx", "mrv-hidden"][i % 3];
                    let (s, v) = post(addr, endpoint, &json!({"puzzle": p, "method": method}));
                    assert_eq!(s, 200, "{v}");
                    assert_eq!(v["status"], "unique", "{p}: {v}");
                    if let Some(sol) = v["solution"].as_str() {
                        assert!(
                            sol.chars()
                                .zip(p.chars())
                                .all(|(a, b)| b == '.' || b == '0' || a == b)
                        );
                    }
                    ok += 1;
                }
                ok
            })
        })
        .collect();
    let done: usize = threads.into_iter().map(|t| t.join().unwrap()).sum();
    assert_eq!(done, puzzles.len());
    assert!(t.elapsed() < Duration::from_secs(60));
}

#[test]
fn keep_alive_connections_serve_many_requests() {
    let addr = default_server();
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    let body = json!({"puzzle": PUZZLE}).to_string();
    for _ in 0..20 {
        let req = format!(
            "POST /api/solve HTTP/1.1\r\nHost: t\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        );
        s.write_all(req.as_bytes()).unwrap();
        // read one response: headers, then content-length bytes
        let mut buf = Vec::new();
        let mut byte = [0u8; 1];
        while !buf.ends_with(b"\r\n\r\n") {
            s.read_exact(&mut byte).unwrap();
            buf.push(byte[0]);
        }
        let head = String::from_utf8_lossy(&buf).to_ascii_lowercase();
        assert!(head.starts_with("http/1.1 200"), "{head}");
        let len: usize = head
            .lines()
            .find_map(|l| l.strip_prefix("content-length:"))
            .unwrap()
            .trim()
            .parse()
            .unwrap();
        let mut body = vec![0u8; len];
        s.read_exact(&mut body).unwrap();
        let v: Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(v["solution"], SOLUTION);
    }
}
