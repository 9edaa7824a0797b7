// The offline engine's calls in WebAssembly, under Node: `/api/count` on
// every puzzle of a file through the page's engine (www/engine/, the
// wasm-bindgen output of crates/web), as the page's worker makes them
// (examples/api_throughput.rs makes the same calls natively).
//
//   node crates/web/bench.mjs PUZZLES.txt [ENGINE_DIR]

import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const file = process.argv[2];
const dir = process.argv[3] ? pathToFileURL(`${process.argv[3]}/`) : new URL('www/engine/', import.meta.url);
const bodies = readFileSync(file, 'utf8').split('\n')
  .filter((l) => !l.startsWith('#') && l.length >= 81)
  .map((l) => JSON.stringify({ puzzle: l.slice(0, 81) }));
const { initSync, call } = await import(new URL('sudoku_web.js', dir));
initSync({ module: readFileSync(new URL('sudoku_web_bg.wasm', dir)) });
for (let pass = 1; pass <= 8; pass++) {
  const start = process.hrtime.bigint();
  let micros = 0;
  for (const b of bodies) {
    const v = JSON.parse(call(1, b));
    if (v.answer.status !== 'unique') throw new Error(`${b}: ${JSON.stringify(v)}`);
    micros += v.answer.stats.micros;
  }
  const secs = Number(process.hrtime.bigint() - start) / 1e9;
  console.log(`wasm pass ${pass}: ${bodies.length} calls in ${secs.toFixed(3)} s = ${(secs * 1e6 / bodies.length).toFixed(1)} us per call; search time ${(micros / bodies.length).toFixed(2)} us per puzzle`);
}
