// The page's offline engine, in a worker: sudoku.wasm (the API's functions
// compiled for wasm32-wasip1 from crates/web) with the few WASI calls its
// standard library makes (a clock, random bytes, stderr). Messages in:
// {id, endpoint, body}; out: {id, http, answer}, as the server would answer.

const ENDPOINTS = ['solve', 'count', 'rate', 'hint', 'explain', 'generate', 'bench'];
const ENOSYS = 52;

let exports = null;

function view() {
  return new DataView(exports.memory.buffer);
}

const wasi = {
  clock_time_get(id, _precision, out) {
    const ms = id === 0 ? performance.timeOrigin + performance.now() : performance.now();
    view().setBigUint64(out, BigInt(Math.round(ms * 1e6)), true);
    return 0;
  },
  random_get(ptr, len) {
    const bytes = new Uint8Array(exports.memory.buffer, ptr, len);
    for (let i = 0; i < len; i += 65536) crypto.getRandomValues(bytes.subarray(i, Math.min(len, i + 65536)));
    return 0;
  },
  fd_write(fd, iovs, count, written) {
    const v = view();
    let text = '';
    let total = 0;
    for (let k = 0; k < count; k++) {
      const ptr = v.getUint32(iovs + k * 8, true);
      const len = v.getUint32(iovs + k * 8 + 4, true);
      text += new TextDecoder().decode(new Uint8Array(exports.memory.buffer, ptr, len));
      total += len;
    }
    if (text.trim()) console.warn(`sudoku.wasm (fd ${fd}): ${text}`);
    v.setUint32(written, total, true);
    return 0;
  },
  environ_sizes_get(count, size) {
    view().setUint32(count, 0, true);
    view().setUint32(size, 0, true);
    return 0;
  },
  environ_get() { return 0; },
  args_sizes_get(count, size) {
    view().setUint32(count, 0, true);
    view().setUint32(size, 0, true);
    return 0;
  },
  args_get() { return 0; },
  sched_yield() { return 0; },
  proc_exit(code) { throw new Error(`sudoku.wasm exited (${code})`); },
};

const ready = (async () => {
  const res = await fetch(new URL('sudoku.wasm', import.meta.url));
  if (!res.ok) throw new Error(`sudoku.wasm: HTTP ${res.status}`);
  const module = await WebAssembly.compile(await res.arrayBuffer());
  const imports = {};
  for (const imp of WebAssembly.Module.imports(module)) {
    imports[imp.module] ||= {};
    imports[imp.module][imp.name] = wasi[imp.name] || (() => ENOSYS);
  }
  const instance = await WebAssembly.instantiate(module, imports);
  exports = instance.exports;
  if (exports._initialize) exports._initialize();
})();

function call(endpoint, body) {
  const index = ENDPOINTS.indexOf(endpoint);
  const bytes = new TextEncoder().encode(body);
  const ptr = exports.sudoku_alloc(bytes.length);
  new Uint8Array(exports.memory.buffer, ptr, bytes.length).set(bytes);
  try {
    const r = exports.sudoku_call(index < 0 ? 99 : index, ptr, bytes.length);
    const at = Number(BigInt.asUintN(64, r) >> 32n);
    const len = Number(BigInt.asUintN(64, r) & 0xffffffffn);
    return JSON.parse(new TextDecoder().decode(new Uint8Array(exports.memory.buffer, at, len).slice()));
  } finally {
    exports.sudoku_free(ptr, bytes.length);
  }
}

self.onmessage = async (e) => {
  const { id, endpoint, body } = e.data;
  try {
    await ready;
    self.postMessage({ id, ...call(endpoint, body) });
  } catch (err) {
    self.postMessage({ id, http: 500, answer: { error: `the offline engine failed: ${err.message}` } });
  }
};
