// Run a wasm32-wasip1 program under Node's WASI (for the solver-only
// benchmark in BENCHMARKS.md; Node prints an "experimental" warning):
//
//   node crates/web/wasi-run.mjs PROGRAM.wasm ARGS...
//
// The program sees the current directory as its root `/`: give it paths
// relative to the current directory.

import { readFileSync } from 'node:fs';
import { WASI } from 'node:wasi';

const [program, ...args] = process.argv.slice(2);
if (!program) {
  console.error('usage: node wasi-run.mjs PROGRAM.wasm ARGS...');
  process.exit(2);
}
const wasi = new WASI({
  version: 'preview1',
  args: [program, ...args],
  env: {},
  preopens: { '/': process.cwd() },
  returnOnExit: true,
});
const module = new WebAssembly.Module(readFileSync(program));
process.exitCode = wasi.start(new WebAssembly.Instance(module, wasi.getImportObject()));
