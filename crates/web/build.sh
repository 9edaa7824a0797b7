#!/bin/sh
# The page's offline engine: crates/web built for wasm32-unknown-unknown
# (SIMD128 on), then wasm-bindgen's ES module for the page's worker, into
# crates/web/www/engine/ (committed; `sudoku serve` embeds it). The build
# record crates/web/engine-build.txt keeps the compiler's version and the
# SHA-256 of cargo's .wasm, so `--check` can tell whether the committed
# engine still matches the sources.
#
# Needs: rustup target add wasm32-unknown-unknown
#        cargo install wasm-bindgen-cli --version 0.2.130  (= the crate's pin;
#        not needed by --check)
# Usage: crates/web/build.sh           rebuild www/engine/ and the record
#        crates/web/build.sh --check   rebuild cargo's .wasm only and compare
#                                      it with the record (exit 1 if stale)
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
out=$root/crates/web/www/engine
record=$root/crates/web/engine-build.txt
cd "$root"
target=$(cargo metadata --format-version 1 --no-deps |
  sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')
cargo_home=${CARGO_HOME:-$HOME/.cargo}
# Registry paths (in panic locations) made machine-independent.
RUSTFLAGS="-C target-feature=+simd128 --remap-path-prefix=$cargo_home/registry/src=/cargo/registry/src" \
  cargo build --profile wasm --target wasm32-unknown-unknown -p sudoku-web
wasm=$target/wasm32-unknown-unknown/wasm/sudoku_web.wasm
rustc_v=$(rustc -V)
sum=$(sha256sum "$wasm" | cut -d' ' -f1)
if [ "${1:-}" = --check ]; then
  if [ ! -f "$record" ]; then
    echo "build.sh --check: no build record crates/web/engine-build.txt: run crates/web/build.sh" >&2
    exit 1
  fi
  want_rustc=$(sed -n 's/^rustc: //p' "$record")
  want_sum=$(sed -n 's/^cargo wasm sha256: //p' "$record")
  if [ "$rustc_v" != "$want_rustc" ]; then
    echo "build.sh --check: built with '$rustc_v', the record says '$want_rustc': the engine builds, its bytes are not compared"
    exit 0
  fi
  if [ "$sum" != "$want_sum" ]; then
    echo "build.sh --check: crates/web/www/engine/ is stale (cargo's .wasm $sum, recorded $want_sum): run crates/web/build.sh" >&2
    exit 1
  fi
  echo "build.sh --check: the committed engine matches the sources ($sum)"
  exit 0
fi
want=$(sed -n 's/^wasm-bindgen = { version = "=\([0-9.]*\)".*/\1/p' crates/web/Cargo.toml)
have=$(wasm-bindgen --version | cut -d' ' -f2)
if [ "$want" != "$have" ]; then
  echo "build.sh: wasm-bindgen CLI $have, the crate pins $want: cargo install wasm-bindgen-cli --version $want" >&2
  exit 2
fi
mkdir -p "$out"
wasm-bindgen --target web --no-typescript --remove-name-section --remove-producers-section \
  --out-dir "$out" "$wasm"
printf '%s\n' \
  "# Written by crates/web/build.sh: what built crates/web/www/engine/." \
  "rustc: $rustc_v" \
  "wasm-bindgen: $have" \
  "cargo wasm sha256: $sum" >"$record"
ls -l "$out"
