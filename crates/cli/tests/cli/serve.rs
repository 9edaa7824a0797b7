//! `sudoku serve`: the binary starts, says where it listens, serves the page
//! and the API; a bad address is a usage error.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command as StdCommand, Stdio};
use std::time::Duration;

use super::{PUZZLE, SOLUTION, sudoku};

/// Kills the server when the test ends, whatever happens.
struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn http(addr: &str, request: &str) -> String {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    s.write_all(request.as_bytes()).unwrap();
    let mut out = String::new();
    s.read_to_string(&mut out).unwrap();
    out
}

#[test]
fn serve_says_where_it_listens_and_answers() {
    let bin = assert_cmd::cargo::cargo_bin("sudoku");
    let child = StdCommand::new(bin)
        .args(["serve", "--addr", "127.0.0.1:0", "--threads", "1"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut server = Server(child);
    let mut line = String::new();
    BufReader::new(server.0.stderr.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr = line
        .split("http://")
        .nth(1)
        .and_then(|s| s.split('/').next())
        .unwrap_or_else(|| panic!("no address in {line:?}"))
        .to_string();
    let page = http(
        &addr,
        "GET / HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n",
    );
    assert!(page.starts_with("HTTP/1.1 200"), "{page}");
    assert!(page.contains("role=\"grid\""));
    let body = format!("{{\"puzzle\": \"{PUZZLE}\"}}");
    let answer = http(
        &addr,
        &format!(
            "POST /api/solve HTTP/1.1\r\nHost: t\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        ),
    );
    assert!(
        answer.contains(&format!("\"solution\":\"{SOLUTION}\"")),
        "{answer}"
    );
}

#[test]
fn serve_on_a_bad_address_is_a_usage_error() {
    let out = sudoku()
        .args(["serve", "--addr", "localhost-ish"])
        .assert()
        .code(2);
    assert!(super::stderr_of(&out).contains("--addr"));
}
