// The page: play, hints and explanations, solve and compare, generate.
// Plain ES module, no build step; talks to `sudoku serve`'s JSON API.

import { buildBoard, charDigit, digitChar, draw, maskText } from './board.js';
import { cellIndex, cellNotes, drawVariant, hasOutsideClues, isVariantText, peersOf as peersFor, regionsOf, rulesOf, sideOf } from './variant.js';

const $ = (id) => document.getElementById(id);
const STORE = 'sudoku-game-v1';

const ui = {
  board: $('board'), overlay: $('overlay'), keypad: $('keypad'), timer: $('timer'),
  message: $('message'), hintText: $('hint-text'), input: $('puzzle-input'),
  result: $('result'), stats: $('stats'), steps: $('steps'), explainSummary: $('explain-summary'),
  shareUrl: $('share-url'), traceView: $('trace-view'), traceStep: $('trace-step'), traceText: $('trace-text'),
  decor: $('decor'), wrap: $('board-wrap'), rules: $('rules'),
};

/**
 * The game: size, givens, the player's digits and marks, time; for a variant
 * also `variant`: its ISS text, box shape and constraints as the engine read
 * them.
 */
let game = null;
let peers = []; // the cells each cell must differ from (game.n² sets)
let notes = []; // what each cell of a variant is part of, in words
let cells = [];
let selected = 0;
let mode = 'digit';
let history = [];
let future = [];
let solution = null; // the givens' solution, once asked for
let hint = { key: null, level: 0 };
let picture = null; // what the overlay shows
let wrong = new Set();
let trace = null;

function emptyGame(n) {
  return {
    n,
    givens: new Array(n * n).fill(0),
    values: new Array(n * n).fill(0),
    corner: new Array(n * n).fill(0),
    centre: new Array(n * n).fill(0),
    colour: new Array(n * n).fill(0),
    elapsed: 0,
    done: false,
  };
}

function line(arr) {
  return arr.map((d) => digitChar(d) || '.').join('');
}

/** The puzzle as the engine reads it: the variant's text, or the givens' line. */
function puzzleText() {
  return game.variant ? game.variant.text : line(game.givens);
}

/** The grid as the player has it: givens and entered digits. */
function currentLine() {
  return line(game.values.map((v, i) => game.givens[i] || v));
}

function say(text, kind) {
  ui.message.textContent = text;
  ui.message.className = kind || '';
}

// ---------------------------------------------------------------- the API

// The engine: the server's API, or (with ?offline, or when no API answers)
// the same functions compiled to WebAssembly, run in a worker.
let offline = new URLSearchParams(location.search).has('offline');
let worker = null;
let nextId = 1;
const pending = new Map();

function showEngine() {
  $('engine').textContent = offline ? 'Engine: in this browser (WebAssembly)' : 'Engine: the server';
}

function offlineCall(endpoint, body) {
  if (!worker) {
    worker = new Worker(new URL('./offline.js', import.meta.url), { type: 'module' });
    worker.onmessage = (e) => {
      const done = pending.get(e.data.id);
      pending.delete(e.data.id);
      if (done) done(e.data);
    };
    worker.onerror = (e) => {
      e.preventDefault();
      for (const [id, done] of pending) done({ id, http: 500, answer: { error: `the offline engine failed to start: ${e.message || 'no detail'}` } });
      pending.clear();
      worker = null;
    };
  }
  return new Promise((done) => {
    const id = nextId++;
    pending.set(id, done);
    worker.postMessage({ id, endpoint, body: JSON.stringify(body) });
  });
}

async function api(endpoint, body) {
  let status = 0;
  let data = null;
  if (!offline) {
    try {
      const res = await fetch(`/api/${endpoint}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
      const json = (res.headers.get('Content-Type') || '').includes('application/json');
      if (!json && (res.status === 404 || res.status === 405)) throw new Error('no API here');
      status = res.status;
      data = await res.json().catch(() => ({ error: `HTTP ${res.status}` }));
    } catch (e) {
      // no server (a static copy of the page, or the server is down)
      offline = true;
      showEngine();
    }
  }
  if (offline) {
    const r = await offlineCall(endpoint, body);
    status = r.http;
    data = r.answer;
  }
  if (status !== 200) {
    let where = '';
    if (data.line && data.column && data.field === 'puzzle') where = ` (line ${data.line}, column ${data.column})`;
    throw new Error(`${data.error || 'HTTP ' + status}${where}`);
  }
  return data;
}

async function busy(button, work) {
  button.disabled = true;
  try {
    await work();
  } catch (e) {
    say(e.message, 'bad');
  } finally {
    button.disabled = false;
  }
}

// ------------------------------------------------------------ parsing

/** Read puzzle text: a line, a grid (borders allowed) or pencilmarks. */
function parsePuzzle(text) {
  const lines = text.split(/\r\n|\r|\n/).map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
  if (lines.length === 0) throw new Error('Puzzle: the field is empty');
  const token = lines[0].split(/\s+/)[0];
  // ISS text (.Cage~10~R1C1~R1C2), f-puzzles JSON or a link: read by the engine
  if (isVariantText(token)) throw new Error('Puzzle: a variant puzzle is read by the engine (loadPuzzle)');
  if (token.length === 729 || token.length === 64) return parsePencilmarks(token);
  let chars;
  if ([16, 81, 256].includes(token.length)) chars = token;
  else chars = lines.join('').replace(/[|\-+=\s]/g, '');
  const n = { 16: 4, 81: 9, 256: 16 }[chars.length];
  if (!n) {
    throw new Error(`Puzzle: found ${chars.length} cells; a puzzle has 16, 81 or 256 (a line, or a grid of 4, 9 or 16 rows)`);
  }
  const g = emptyGame(n);
  for (let i = 0; i < chars.length; i++) {
    const d = charDigit(chars[i]);
    if (d < 0 || d > n) {
      throw new Error(`Puzzle: '${chars[i]}' at cell r${Math.floor(i / n) + 1}c${(i % n) + 1} is not a digit of a ${n}×${n} grid or a blank`);
    }
    g.givens[i] = d;
  }
  const clash = firstClash(g.givens, n);
  if (clash) throw new Error(`Puzzle: ${clash}`);
  return g;
}

function parsePencilmarks(token) {
  const n = token.length === 729 ? 9 : 4;
  const g = emptyGame(n);
  for (let i = 0; i < n * n; i++) {
    let mask = 0;
    for (let k = 0; k < n; k++) {
      const ch = token[i * n + k];
      if (ch === '.') continue;
      if (charDigit(ch) !== k + 1) {
        throw new Error(`Puzzle: pencilmarks: '${ch}' at column ${i * n + k + 1} where '${k + 1}' or '.' was expected`);
      }
      mask |= 1 << (k + 1);
    }
    if (mask === 0) throw new Error(`Puzzle: pencilmarks: cell r${Math.floor(i / n) + 1}c${(i % n) + 1} has no candidate`);
    const digits = maskText(mask, n, '');
    if (digits.length === 1) g.givens[i] = charDigit(digits);
    else g.centre[i] = mask;
  }
  const clash = firstClash(g.givens, n);
  if (clash) throw new Error(`Puzzle: ${clash}`);
  return g;
}

/**
 * Read any puzzle text: classic ones here, variants by the engine (which
 * answers with their constraints, solution and status).
 */
async function loadPuzzle(text) {
  const first = text.trim().split(/\s+/)[0] || '';
  if (!isVariantText(first)) return { game: parsePuzzle(text) };
  const r = await api('solve', { puzzle: text.trim() });
  return { game: variantGame(r), status: r.status, solution: r.status === 'unique' ? r.solution : null };
}

/** A variant game from the engine's answer: its ISS text `puzzle` and `variant` object. */
function variantGame(r) {
  const v = r.variant;
  const n = v ? sideOf(v.shape) : 0;
  if (!n) throw new Error('Puzzle: the engine did not read it as a variant');
  const g = emptyGame(n);
  for (let i = 0; i < n * n; i++) g.givens[i] = Math.max(0, charDigit(v.givens[i] || '.'));
  g.variant = { text: r.puzzle, boxes: v.boxes, constraints: v.constraints };
  return g;
}

function firstClash(digits, n, cellPeers) {
  const ps = cellPeers || peersFor(n, null);
  for (let i = 0; i < n * n; i++) {
    if (!digits[i]) continue;
    for (const j of ps[i]) {
      if (j > i && digits[j] === digits[i]) {
        const name = (k) => `r${Math.floor(k / n) + 1}c${(k % n) + 1}`;
        return `${digitChar(digits[i])} appears twice (${name(i)} and ${name(j)})`;
      }
    }
  }
  return null;
}

// ------------------------------------------------------------ the game

function startGame(g, note) {
  game = g;
  peers = peersFor(g.n, g.variant || null);
  notes = cellNotes(g.n, g.variant || null);
  history = [];
  future = [];
  solution = null;
  hint = { key: null, level: 0 };
  wrong = new Set();
  picture = null;
  trace = null;
  ui.traceView.hidden = true;
  ui.shareUrl.hidden = true;
  ui.steps.replaceChildren();
  ui.explainSummary.textContent = '';
  ui.hintText.textContent = '';
  cells = buildBoard(ui.board, ui.overlay, g.n, onCellPointer, regionsOf(g.n, g.variant || null));
  layoutVariant();
  buildKeypad(g.n);
  // the step solver (hints, rating, explanations) takes 4×4 and 9×9; a
  // variant is rated and explained by the variant explainer, and solved by
  // the variant solver only (no hints, no other methods, no trace here)
  const big = !g.variant && g.n > 9 ? 'The step solver takes 4×4 and 9×9 puzzles' : '';
  const off = {
    hint: g.variant ? 'Hints take classic puzzles; Explain shows a variant\'s steps' : big,
    rate: big,
    explain: big,
    compare: g.variant ? 'Variants are solved by the variant solver only' : '',
    trace: g.variant ? 'The trace replays the classic methods' : '',
    method: g.variant ? 'Variants are solved by the variant solver' : '',
  };
  for (const [id, why] of Object.entries(off)) {
    $(id).disabled = !!why;
    $(id).title = why;
  }
  selected = Math.min(selected, g.n * g.n - 1);
  render();
  save();
  if (note) say(note);
}

function snapshot() {
  return { values: game.values.slice(), corner: game.corner.slice(), centre: game.centre.slice(), colour: game.colour.slice() };
}

function restore(s) {
  game.values = s.values.slice();
  game.corner = s.corner.slice();
  game.centre = s.centre.slice();
  game.colour = (s.colour || new Array(game.n * game.n).fill(0)).slice();
}

/** Change the game, keeping an undo step. */
function change(fn) {
  const before = snapshot();
  fn();
  const after = snapshot();
  if (JSON.stringify(before) === JSON.stringify(after)) return;
  history.push(before);
  if (history.length > 1000) history.shift();
  future = [];
  wrong = new Set();
  picture = null;
  afterChange();
}

/** The variant's drawing and rules, and room around the board for clues outside it. */
function layoutVariant() {
  const n = game.n;
  const v = game.variant || null;
  const pad = hasOutsideClues(v) ? 100 / (n + 2) : 0;
  ui.wrap.style.padding = pad ? `${pad}%` : '';
  for (const svg of [ui.overlay, ui.decor]) {
    svg.style.inset = pad ? `calc(${pad}% + 3px)` : '';
    svg.style.width = pad ? `calc(${100 - 2 * pad}% - 6px)` : '';
    svg.style.height = svg.style.width;
  }
  ui.decor.setAttribute('viewBox', `0 0 ${n} ${n}`);
  drawVariant(ui.decor, n, v);
  ui.rules.replaceChildren();
  ui.rules.hidden = !v;
  if (v) {
    const houses = `Every row, column and ${v.boxes ? 'box' : 'region'} holds each digit once.`;
    for (const text of [houses, ...rulesOf(v)]) {
      const li = document.createElement('li');
      li.textContent = text;
      ui.rules.appendChild(li);
    }
  }
}

function afterChange() {
  const full = game.values.every((v, i) => game.givens[i] || v);
  if (full && !firstClash(game.values.map((v, i) => game.givens[i] || v), game.n, peers)) {
    if (!game.done) {
      game.done = true;
      say(`Solved in ${clock(game.elapsed)}. Press Check to confirm against the unique solution.`, 'good');
    }
  } else {
    game.done = false;
  }
  render();
  save();
}

function undo() {
  if (!history.length) return say('Nothing to undo.');
  future.push(snapshot());
  restore(history.pop());
  wrong = new Set();
  picture = null;
  afterChange();
}

function redo() {
  if (!future.length) return say('Nothing to redo.');
  history.push(snapshot());
  restore(future.pop());
  wrong = new Set();
  picture = null;
  afterChange();
}

function enter(d, how) {
  const i = selected;
  if (game.givens[i]) return say('That cell is a given.');
  change(() => {
    if (d === 0) {
      if (game.values[i]) game.values[i] = 0;
      else { game.corner[i] = 0; game.centre[i] = 0; }
      return;
    }
    if (how === 'corner') { if (!game.values[i]) game.corner[i] ^= 1 << d; }
    else if (how === 'centre') { if (!game.values[i]) game.centre[i] ^= 1 << d; }
    else {
      game.values[i] = game.values[i] === d ? 0 : d;
      if (game.values[i]) {
        // the digit leaves the marks of its peers
        for (const j of peers[i]) {
          game.corner[j] &= ~(1 << d);
          game.centre[j] &= ~(1 << d);
        }
      }
    }
  });
}

function render() {
  const n = game.n;
  const digits = game.values.map((v, i) => game.givens[i] || v);
  const conflicts = new Set();
  for (let i = 0; i < n * n; i++) {
    if (!digits[i]) continue;
    for (const j of peers[i]) if (digits[j] === digits[i]) { conflicts.add(i); conflicts.add(j); }
  }
  const near = peers[selected];
  const selDigit = digits[selected];
  cells.forEach((cell, i) => {
    cell.textContent = digitChar(digits[i]);
    cell.classList.toggle('given', !!game.givens[i]);
    cell.classList.toggle('selected', i === selected);
    cell.classList.toggle('peer', near.has(i));
    cell.classList.toggle('same', !!selDigit && digits[i] === selDigit && i !== selected);
    cell.classList.toggle('conflict', conflicts.has(i));
    cell.classList.toggle('wrong', wrong.has(i));
    cell.tabIndex = i === selected ? 0 : -1;
    cell.setAttribute('aria-selected', i === selected ? 'true' : 'false');
    const corner = digits[i] ? '' : maskText(game.corner[i], n, '');
    const centre = digits[i] ? '' : maskText(game.centre[i], n, '');
    if (corner) cell.dataset.corner = corner; else delete cell.dataset.corner;
    if (centre) cell.dataset.centre = centre; else delete cell.dataset.centre;
    for (let k = 1; k <= COLOURS; k++) cell.classList.toggle(`colour-${k}`, game.colour[i] === k);
    const desc = [];
    if (notes[i]) desc.push(notes[i]);
    if (corner) desc.push(`corner marks ${corner}`);
    if (centre) desc.push(`centre marks ${centre}`);
    if (conflicts.has(i)) desc.push('conflict');
    if (desc.length) cell.setAttribute('aria-description', desc.join(', '));
    else cell.removeAttribute('aria-description');
  });
  draw(ui.overlay, n, picture);
  $('undo').disabled = history.length === 0;
  $('redo').disabled = future.length === 0;
}

function select(i, focus) {
  selected = i;
  render();
  if (focus) cells[i].focus();
}

function onCellPointer(i, e) {
  e.preventDefault();
  select(i, true);
}

/** Cell colours: the player's own markings, 1 to COLOURS (0: none). */
const COLOURS = 6;

function paint(k) {
  change(() => { game.colour[selected] = game.colour[selected] === k ? 0 : k; });
}

function buildPalette() {
  const palette = $('palette');
  palette.replaceChildren();
  for (let k = 0; k <= COLOURS; k++) {
    const b = document.createElement('button');
    b.type = 'button';
    b.className = `swatch colour-${k}`;
    b.setAttribute('aria-label', k ? `Colour ${k}` : 'No colour');
    b.addEventListener('click', () => { paint(k); cells[selected].focus(); });
    palette.appendChild(b);
  }
}

function buildKeypad(n) {
  ui.keypad.replaceChildren();
  for (let d = 1; d <= n; d++) {
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = digitChar(d);
    b.setAttribute('aria-label', `Enter ${digitChar(d)}`);
    b.addEventListener('click', () => { enter(d, mode); cells[selected].focus(); });
    ui.keypad.appendChild(b);
  }
  const erase = document.createElement('button');
  erase.type = 'button';
  erase.textContent = '⌫';
  erase.setAttribute('aria-label', 'Erase');
  erase.addEventListener('click', () => { enter(0, mode); cells[selected].focus(); });
  ui.keypad.appendChild(erase);
}

function setMode(m) {
  mode = m;
  for (const k of ['digit', 'corner', 'centre']) $(`mode-${k}`).setAttribute('aria-pressed', String(k === m));
}

ui.board.addEventListener('keydown', (e) => {
  const n = game.n;
  const r = Math.floor(selected / n);
  const c = selected % n;
  const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
  if (moves[e.key]) {
    const [dr, dc] = moves[e.key];
    select(((r + dr + n) % n) * n + ((c + dc + n) % n), true);
    e.preventDefault();
    return;
  }
  if ((e.ctrlKey || e.metaKey) && (e.key === 'z' || e.key === 'Z')) { e.shiftKey ? redo() : undo(); e.preventDefault(); return; }
  if ((e.ctrlKey || e.metaKey) && (e.key === 'y' || e.key === 'Y')) { redo(); e.preventDefault(); return; }
  if (e.key === 'Backspace' || e.key === 'Delete') { enter(0, mode); e.preventDefault(); return; }
  // Shift+digit gives '!' etc. on many layouts: read the key's code too
  let ch = e.key;
  const m = /^(Digit|Numpad)(\d)$/.exec(e.code || '');
  if (m) ch = m[2];
  const d = ch.length === 1 ? charDigit(ch) : -1;
  if (d === 0 && ch !== '.') { enter(0, mode); e.preventDefault(); return; }
  if (d > 0 && d <= n) {
    const how = e.shiftKey ? 'corner' : (e.ctrlKey || e.altKey) ? 'centre' : mode;
    enter(d, how);
    e.preventDefault();
  }
});

// ------------------------------------------------------------ time, storage, links

function clock(ms) {
  const s = Math.floor(ms / 1000);
  const h = Math.floor(s / 3600);
  const mm = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h ? `${h}:${String(mm).padStart(2, '0')}:${ss}` : `${mm}:${ss}`;
}

let lastTick = Date.now();
setInterval(() => {
  const now = Date.now();
  if (game && !game.done && document.visibilityState === 'visible') game.elapsed += now - lastTick;
  lastTick = now;
  if (game) ui.timer.textContent = clock(game.elapsed);
}, 500);

function save() {
  try {
    localStorage.setItem(STORE, JSON.stringify({ ...game, history: history.slice(-200), future }));
  } catch (e) {
    // storage full or disabled: the game still plays
  }
}

function load() {
  try {
    const s = JSON.parse(localStorage.getItem(STORE) || 'null');
    if (!s || !Array.isArray(s.givens) || s.givens.length !== s.n * s.n) return null;
    const variantOk = s.variant && s.n >= 1 && s.n <= 16 && typeof s.variant.text === 'string' && Array.isArray(s.variant.constraints);
    if (s.variant ? !variantOk : ![4, 9, 16].includes(s.n)) return null;
    return s;
  } catch (e) {
    return null;
  }
}

function masksToText(masks) {
  return masks.map((m) => m.toString(36)).join(',');
}

function shareLink() {
  const p = new URLSearchParams();
  p.set('p', puzzleText());
  p.set('v', line(game.values));
  if (game.corner.some(Boolean)) p.set('c', masksToText(game.corner));
  if (game.centre.some(Boolean)) p.set('m', masksToText(game.centre));
  if (game.colour.some(Boolean)) p.set('k', game.colour.join(''));
  p.set('t', String(Math.floor(game.elapsed / 1000)));
  return `${location.origin}${location.pathname}#${p.toString()}`;
}

async function fromLink(hash) {
  const p = new URLSearchParams(hash.replace(/^#/, ''));
  if (!p.get('p')) return null;
  const { game: g } = await loadPuzzle(p.get('p'));
  const n = g.n;
  const v = p.get('v') || '';
  if (v.length === n * n) {
    for (let i = 0; i < n * n; i++) {
      const d = charDigit(v[i]);
      if (d > 0 && d <= n && !g.givens[i]) g.values[i] = d;
    }
  }
  const masks = (key) => {
    const parts = (p.get(key) || '').split(',');
    if (parts.length !== n * n) return new Array(n * n).fill(0);
    return parts.map((x) => (parseInt(x, 36) || 0) & ((1 << (n + 1)) - 2));
  };
  g.corner = masks('c');
  g.centre = masks('m');
  const k = p.get('k') || '';
  if (k.length === n * n) g.colour = [...k].map((ch) => Math.min(COLOURS, Number(ch) || 0));
  g.elapsed = (parseInt(p.get('t') || '0', 10) || 0) * 1000;
  return g;
}

// ------------------------------------------------------------ buttons

$('mode-digit').addEventListener('click', () => { setMode('digit'); cells[selected].focus(); });
$('mode-corner').addEventListener('click', () => { setMode('corner'); cells[selected].focus(); });
$('mode-centre').addEventListener('click', () => { setMode('centre'); cells[selected].focus(); });
$('undo').addEventListener('click', undo);
$('redo').addEventListener('click', redo);

$('load').addEventListener('click', (e) => busy(e.currentTarget, async () => {
  const { game: g, status, solution: known } = await loadPuzzle(ui.input.value);
  const givens = g.givens.filter(Boolean).length;
  if (g.variant) {
    const kinds = [...new Set(g.variant.constraints.map((c) => c.kind))].join(', ') || 'givens only';
    const note = { unique: '', multiple: ' It has several solutions.', none: ' It has no solution.' }[status] ?? ' Whether it has one solution is not known yet.';
    startGame(g, `Loaded a ${g.n}×${g.n} variant (${kinds}) with ${givens} givens.${note}`);
    solution = known;
  } else {
    startGame(g, `Loaded a ${g.n}×${g.n} puzzle with ${givens} givens.`);
  }
  cells[selected].focus();
}));

$('share').addEventListener('click', () => {
  const url = shareLink();
  ui.shareUrl.hidden = false;
  ui.shareUrl.value = url;
  ui.shareUrl.select();
  window.history.replaceState(null, '', url);
  say('The link to this game is in the field below the board.');
});

async function solutionOfGivens() {
  if (solution) return solution;
  const r = await api('solve', { puzzle: puzzleText() });
  if (r.status !== 'unique') throw new Error(`The puzzle has no unique solution (${r.status}).`);
  solution = r.solution;
  return solution;
}

$('check').addEventListener('click', (e) => busy(e.currentTarget, async () => {
  const sol = await solutionOfGivens();
  const n = game.n;
  wrong = new Set();
  let empty = 0;
  for (let i = 0; i < n * n; i++) {
    if (game.givens[i]) continue;
    if (!game.values[i]) empty++;
    else if (digitChar(game.values[i]) !== sol[i]) wrong.add(i);
  }
  render();
  if (wrong.size) say(`${wrong.size} digit${wrong.size > 1 ? 's are' : ' is'} wrong (shown in red).`, 'bad');
  else if (empty) say(`All correct so far; ${empty} cell${empty > 1 ? 's' : ''} to go.`, 'good');
  else say(`Solved and correct, in ${clock(game.elapsed)}.`, 'good');
}));

$('hint').addEventListener('click', (e) => busy(e.currentTarget, async () => {
  const key = currentLine();
  hint.level = hint.key === key ? Math.min(hint.level + 1, 3) : 1;
  hint.key = key;
  const r = await api('hint', { puzzle: key, level: hint.level });
  if (r.status === 'none') {
    ui.hintText.textContent = 'No solution from here: a digit you placed is wrong (press Check).';
    return;
  }
  const label = `Hint level ${hint.level}: `;
  ui.hintText.textContent = label + (r.hint || r.error || '');
  if (r.step) {
    picture = { step: r.step, candidates: candidatesOf(key), filled: filledOf() };
    render();
  }
}));

/** The candidates of the current grid, from the digits only, as pencilmarks. */
function candidatesOf(key) {
  const n = game.n;
  const digits = [...key].map(charDigit);
  let s = '';
  for (let i = 0; i < n * n; i++) {
    const seen = new Set([...peers[i]].map((j) => digits[j]));
    for (let d = 1; d <= n; d++) {
      s += digits[i] ? (d === digits[i] ? digitChar(d) : '.') : (seen.has(d) ? '.' : digitChar(d));
    }
  }
  return s;
}

function filledOf() {
  return game.values.map((v, i) => !!(game.givens[i] || v));
}

$('solve').addEventListener('click', (e) => busy(e.currentTarget, async () => {
  const method = game.variant ? 'auto' : $('method').value;
  const r = await api('solve', { puzzle: puzzleText(), method });
  ui.result.textContent = `${r.method}: ${r.status}${r.stopped ? ` (${r.stopped})` : ''}, ${r.stats.nodes} nodes, ${r.stats.guesses} guesses, ${r.stats.micros} µs`;
  statsTable([{ method: r.method, status: r.status, stats: r.stats, stopped: r.stopped }]);
  if (r.solution && r.status === 'unique') {
    solution = r.solution;
    change(() => {
      for (let i = 0; i < game.n * game.n; i++) if (!game.givens[i]) game.values[i] = charDigit(r.solution[i]);
    });
    say(`Solved with ${r.method}.`, 'good');
  } else {
    say(`No unique solution: ${r.status}.`, 'bad');
  }
}));

function statsTable(rows) {
  const t = document.createElement('table');
  t.innerHTML = '<caption class="visually-hidden">Statistics per method</caption><thead><tr><th scope="col">method</th><th scope="col">status</th><th scope="col">µs</th><th scope="col">nodes</th><th scope="col">guesses</th><th scope="col">depth</th><th scope="col">bytes</th></tr></thead>';
  const body = document.createElement('tbody');
  for (const r of rows) {
    const tr = document.createElement('tr');
    const s = r.stats || {};
    const cellsText = [r.method, r.status + (r.stopped ? ` (${r.stopped})` : ''), s.micros, s.nodes, s.guesses, s.max_depth, s.state_bytes];
    cellsText.forEach((v, k) => {
      const td = document.createElement(k === 0 ? 'th' : 'td');
      if (k === 0) td.scope = 'row';
      td.textContent = v === undefined ? '–' : String(v);
      tr.appendChild(td);
    });
    body.appendChild(tr);
  }
  t.appendChild(body);
  ui.stats.replaceChildren(t);
}

$('compare').addEventListener('click', (e) => busy(e.currentTarget, async () => {
  const r = await api('bench', { puzzle: line(game.givens) });
  statsTable(r.results);
  ui.result.textContent = 'Every method on this puzzle (each with an equal share of the time limit).';
}));

$('count').addEventListener('click', (e) => busy(e.currentTarget, async () => {
  const r = await api('count', { puzzle: puzzleText(), limit: 1000 });
  const n = r.complete ? `${r.count}` : `at least ${r.count}`;
  ui.result.textContent = `${r.status}: ${n} solution${r.count === 1 ? '' : 's'}${r.stopped && r.stopped !== 'solution-limit' ? ` (${r.stopped})` : ''}`;
}));

$('rate').addEventListener('click', (e) => busy(e.currentTarget, async () => {
  const r = await api('rate', { puzzle: puzzleText() });
  if (r.status !== 'rated') { ui.result.textContent = `${r.status}: ${r.error}`; return; }
  if (r.variant) {
    ui.result.textContent = `Variant rating (partial: no chains or wings yet): ${r.variant.rating}`;
    return;
  }
  const counts = Object.entries(r.counts).map(([k, v]) => `${k} ×${v}`).join(', ');
  ui.result.textContent = `Rating ${r.rating.toFixed(1)} (${r.band}), hardest ${r.hardest || '–'}; ${counts}`;
}));

function traceWords(s, n) {
  const name = (i) => `r${Math.floor(i / n) + 1}c${(i % n) + 1}`;
  switch (s.kind) {
    case 'naked-single': return `${name(s.cell)} has one candidate: ${digitChar(s.digit)}`;
    case 'hidden-single': return `${digitChar(s.digit)} fits only ${name(s.cell)} in its house`;
    case 'try': return `depth ${s.depth}: ${name(s.cell)} has {${s.candidates.map(digitChar).join(',')}}, try ${digitChar(s.digit)}`;
    case 'dead-end': return `${name(s.cell)} has no candidate left: dead end`;
    case 'no-place': return `${digitChar(s.digit)} has no place left: dead end`;
    case 'backtrack': return `back to depth ${s.depth} (${name(s.cell)})`;
    case 'solution': return 'a solution';
    case 'column': return `depth ${s.depth}: constraint ${s.constraint}, ${s.options} option${s.options === 1 ? '' : 's'} left`;
    case 'place': return `depth ${s.depth}: place ${digitChar(s.digit)} in ${name(s.cell)}`;
    case 'undo': return `undo the placement at depth ${s.depth}`;
    case 'conflict': return 'the givens conflict';
    default: return s.kind;
  }
}

/**
 * The digits the search holds after step k: a try or placement at depth d
 * and the singles after it belong to depth d; going back to depth d (or
 * undoing its placement) takes back everything from depth d on.
 */
function traceDigits(k) {
  const n = game.n;
  const digit = new Array(n * n).fill(0);
  const depthOf = new Array(n * n).fill(0);
  let depth = 0;
  const takeBack = (d) => {
    for (let i = 0; i < n * n; i++) if (digit[i] && depthOf[i] >= d) digit[i] = 0;
    depth = d - 1;
  };
  for (let j = 0; j <= k && j < trace.steps.length; j++) {
    const s = trace.steps[j];
    switch (s.kind) {
      case 'try':
      case 'place':
        takeBack(s.depth);
        depth = s.depth;
        digit[s.cell] = s.digit;
        depthOf[s.cell] = depth;
        break;
      case 'naked-single':
      case 'hidden-single':
        digit[s.cell] = s.digit;
        depthOf[s.cell] = depth;
        break;
      case 'backtrack':
      case 'undo':
        takeBack(s.depth);
        break;
      default:
        break;
    }
  }
  return digit;
}

function showTraceStep(k) {
  const s = trace.steps[k];
  if (!s) return;
  ui.traceText.textContent = `${k + 1} of ${trace.steps.length}: ${traceWords(s, game.n)}`;
  const digits = traceDigits(k);
  picture = { traceCell: s.cell ?? null, traceDigits: digits, filled: filledOf() };
  render();
}

$('trace').addEventListener('click', (e) => busy(e.currentTarget, async () => {
  const method = $('method').value;
  const r = await api('solve', { puzzle: line(game.givens), method, trace: true });
  trace = { steps: r.trace };
  ui.traceView.hidden = false;
  ui.traceStep.max = String(Math.max(0, r.trace.length - 1));
  ui.traceStep.value = '0';
  ui.result.textContent = `Trace of ${r.method}: ${r.trace.length} steps${r.trace_truncated ? ' (the first ones)' : ''}, ${r.status}.`;
  showTraceStep(0);
}));
ui.traceStep.addEventListener('input', () => showTraceStep(Number(ui.traceStep.value)));

$('explain').addEventListener('click', (e) => busy(e.currentTarget, async () => {
  if (game.variant) return explainVariant();
  const key = currentLine();
  const r = await api('explain', { puzzle: key });
  if (r.status !== 'explained') { ui.explainSummary.textContent = `${r.status}: ${r.error}`; ui.steps.replaceChildren(); return; }
  const rt = r.rating;
  ui.explainSummary.textContent = `${r.steps.length} steps; rating ${rt.rating.toFixed(1)} (${rt.band})${rt.outcome === 'stuck' ? '; the techniques get stuck after these' : ''}. Choose a step to draw it.`;
  ui.steps.replaceChildren();
  r.steps.forEach((s) => {
    const li = document.createElement('li');
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = `[${s.difficulty.toFixed(1)}] ${s.prose}`;
    b.addEventListener('click', () => {
      for (const other of ui.steps.querySelectorAll('button')) other.removeAttribute('aria-current');
      b.setAttribute('aria-current', 'step');
      const n = game.n;
      const filled = [];
      for (let i = 0; i < n * n; i++) {
        const marks = s.candidates.slice(i * n, i * n + n).replace(/\./g, '');
        filled.push(marks.length === 1 && !!(game.givens[i] || game.values[i]));
      }
      picture = { step: s.step, candidates: s.candidates, filled };
      render();
    });
    li.appendChild(b);
    ui.steps.appendChild(li);
  });
}));

/**
 * A variant's explanation from its givens: each step's prose, and on the
 * board the candidates it removes (red) and the digit it places (green).
 */
async function explainVariant() {
  const r = await api('explain', { puzzle: puzzleText() });
  if (r.status !== 'explained') { ui.explainSummary.textContent = `${r.status}: ${r.error}`; ui.steps.replaceChildren(); return; }
  const n = game.n;
  const rt = r.rating;
  ui.explainSummary.textContent = `${r.steps.length} steps from the givens; ${rt.rating} (the variant rating is partial: no chains or wings yet). Choose a step to draw it.`;
  ui.steps.replaceChildren();
  r.steps.forEach((s) => {
    const li = document.createElement('li');
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = `[level ${s.level}] ${s.prose}`;
    b.addEventListener('click', () => {
      for (const other of ui.steps.querySelectorAll('button')) other.removeAttribute('aria-current');
      b.setAttribute('aria-current', 'step');
      const eliminations = (s.removed || []).map(([cell, digit]) => ({ cell: cellIndex(cell, n), digit })).filter((e) => e.cell >= 0);
      const placements = s.placed ? [{ cell: cellIndex(s.placed[0], n), digit: s.placed[1] }].filter((p) => p.cell >= 0) : [];
      const touched = [...eliminations, ...placements].map((e) => e.cell);
      picture = { step: { cells: [...new Set(touched)], eliminations, placements } };
      render();
    });
    li.appendChild(b);
    ui.steps.appendChild(li);
  });
}

$('clear-drawing').addEventListener('click', () => { picture = null; render(); });

/** The sides each variant kind is made on (as `sudoku generate --variant`). */
const VARIANT_SIDES = {
  x: [4, 6, 8, 9], windoku: [9], disjoint: [4, 6, 8, 9], 'anti-knight': [6, 8, 9], 'anti-king': [6, 8, 9],
  'non-consecutive': [6, 8, 9], jigsaw: [4, 5, 6, 7, 8, 9], killer: [4, 6, 8, 9], thermo: [4, 6, 8, 9],
  kropki: [4, 6, 8, 9], xv: [4, 6, 8, 9],
};

/** The Size list for the chosen kind: 4, 9, 16 for classic puzzles, the kind's sides for a variant. */
function sizeChoices() {
  const kind = $('variant').value;
  const sides = kind === 'classic' ? [4, 9, 16] : VARIANT_SIDES[kind];
  const keep = Number($('size').value);
  $('size').replaceChildren(...sides.map((n) => {
    const o = document.createElement('option');
    o.value = String(n);
    o.textContent = `${n}×${n}`;
    return o;
  }));
  $('size').value = String(sides.includes(keep) ? keep : sides.includes(9) ? 9 : sides[sides.length - 1]);
  $('difficulty').disabled = kind !== 'classic';
  $('difficulty').title = kind === 'classic' ? '' : 'Variant puzzles are not made to a difficulty';
  $('symmetry').disabled = kind === 'killer';
  $('symmetry').title = kind === 'killer' ? 'A killer puzzle has no givens' : '';
}
$('variant').addEventListener('change', sizeChoices);

$('generate').addEventListener('click', (e) => busy(e.currentTarget, async () => {
  const size = Number($('size').value);
  const kind = $('variant').value;
  if (kind !== 'classic') {
    const body = { variant: kind, size };
    if (kind !== 'killer') body.symmetry = $('symmetry').value;
    say('Making a puzzle…');
    const r = await api('generate', body);
    if (r.status !== 'generated') { say(r.error || 'No puzzle was made in time; try again.', 'bad'); return; }
    startGame(variantGame(r), `New ${size}×${size} ${kind} puzzle (seed ${r.seed}, ${r.clues} givens).`);
    solution = r.solution;
    ui.input.value = r.puzzle;
    return;
  }
  const body = { size, symmetry: $('symmetry').value };
  const difficulty = $('difficulty').value;
  if (size <= 9 && difficulty !== 'any') body.difficulty = difficulty;
  say('Making a puzzle…');
  const r = await api('generate', body);
  if (r.status !== 'generated') { say(r.error || 'No puzzle was made in time; try again.', 'bad'); return; }
  const g = parsePuzzle(r.puzzle);
  startGame(g, `New ${size}×${size} puzzle (seed ${r.seed}, ${r.clues} clues${r.rating ? `, rating ${r.rating.rating.toFixed(1)} ${r.rating.band}` : ''}).`);
  solution = r.solution;
  ui.input.value = r.puzzle;
}));

// ------------------------------------------------------------ start

const SAMPLE = '.3..9..5.....1...45..8....7....3.2..6....9.4...7..25.......19....69....812.....7.';

async function boot() {
  showEngine();
  buildPalette();
  let g = null;
  let note = '';
  if (location.hash.length > 1) {
    try {
      g = await fromLink(location.hash);
      if (g) note = 'Game loaded from the link.';
    } catch (e) {
      say(`The link's puzzle is not valid: ${e.message}`, 'bad');
    }
  }
  if (!g) {
    const s = load();
    if (s) {
      g = { ...emptyGame(s.n), ...s };
      if (!Array.isArray(g.colour) || g.colour.length !== g.n * g.n) g.colour = new Array(g.n * g.n).fill(0);
      note = 'Your game was restored.';
    }
  }
  if (!g) {
    g = parsePuzzle(SAMPLE);
    note = 'A sample puzzle: type digits, or paste your own puzzle and press Load.';
  }
  startGame(g, note);
  if (Array.isArray(g.history)) history = g.history;
  if (Array.isArray(g.future)) future = g.future;
  delete game.history;
  delete game.future;
  ui.input.value = puzzleText();
  render();
}

boot();
