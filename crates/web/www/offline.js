// The page's offline engine, in a worker: the API's functions compiled from
// crates/web for wasm32-unknown-unknown, loaded through wasm-bindgen's ES
// module (engine/sudoku_web.js, built by crates/web/build.sh). Messages in:
// {id, endpoint, body}; out: {id, http, answer}, as the server would answer.

import init, { call } from './engine/sudoku_web.js';

const ENDPOINTS = ['solve', 'count', 'rate', 'hint', 'explain', 'generate', 'bench'];

const ready = init({ module_or_path: new URL('./engine/sudoku_web_bg.wasm', import.meta.url) });

self.onmessage = async (e) => {
  const { id, endpoint, body } = e.data;
  try {
    await ready;
    const index = ENDPOINTS.indexOf(endpoint);
    self.postMessage({ id, ...JSON.parse(call(index < 0 ? 99 : index, body)) });
  } catch (err) {
    self.postMessage({ id, http: 500, answer: { error: `the offline engine failed: ${err.message}` } });
  }
};
