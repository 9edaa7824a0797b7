// The offline engine's calls in WebAssembly, under Node: `/api/count` on
// every puzzle of a file through sudoku.wasm, as the page's worker makes
// them (examples/throughput.rs makes the same calls natively).
//
//   node crates/web/bench.mjs PUZZLES.txt

import { readFileSync } from 'node:fs';
import { webcrypto } from 'node:crypto';

const file = process.argv[2];
const bodies = readFileSync(file, 'utf8').split('\n')
  .filter((l) => !l.startsWith('#') && l.length >= 81)
  .map((l) => JSON.stringify({ puzzle: l.slice(0, 81) }));
const module = new WebAssembly.Module(readFileSync(new URL('www/sudoku.wasm', import.meta.url)));
let exports;
const view = () => new DataView(exports.memory.buffer);
const wasi = {
  clock_time_get(id, _p, out) {
    view().setBigUint64(out, id === 0 ? BigInt(Date.now()) * 1000000n : process.hrtime.bigint(), true);
    return 0;
  },
  random_get(ptr, len) { webcrypto.getRandomValues(new Uint8Array(exports.memory.buffer, ptr, len)); return 0; },
  fd_write(_fd, _iovs, _n, written) { view().setUint32(written, 0, true); return 0; },
  environ_sizes_get(c, s) { view().setUint32(c, 0, true); view().setUint32(s, 0, true); return 0; },
  environ_get() { return 0; },
  proc_exit(code) { throw new Error(`exit ${code}`); },
};
const imports = {};
for (const imp of WebAssembly.Module.imports(module)) {
  imports[imp.module] ||= {};
  imports[imp.module][imp.name] = wasi[imp.name] || (() => 52);
}
exports = new WebAssembly.Instance(module, imports).exports;
const enc = new TextEncoder();
const dec = new TextDecoder();
function call(endpoint, body) {
  const bytes = enc.encode(body);
  const ptr = exports.sudoku_alloc(bytes.length);
  new Uint8Array(exports.memory.buffer, ptr, bytes.length).set(bytes);
  const r = BigInt.asUintN(64, exports.sudoku_call(endpoint, ptr, bytes.length));
  exports.sudoku_free(ptr, bytes.length);
  return JSON.parse(dec.decode(new Uint8Array(exports.memory.buffer, Number(r >> 32n), Number(r & 0xffffffffn))));
}
for (let pass = 1; pass <= 8; pass++) {
  const start = process.hrtime.bigint();
  let micros = 0;
  for (const b of bodies) {
    const v = call(1, b);
    if (v.answer.status !== 'unique') throw new Error(`${b}: ${JSON.stringify(v)}`);
    micros += v.answer.stats.micros;
  }
  const secs = Number(process.hrtime.bigint() - start) / 1e9;
  console.log(`wasm pass ${pass}: ${bodies.length} calls in ${secs.toFixed(3)} s = ${(secs * 1e6 / bodies.length).toFixed(1)} us per call; search time ${(micros / bodies.length).toFixed(2)} us per puzzle`);
}
