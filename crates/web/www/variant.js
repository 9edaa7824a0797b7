// Variant puzzles on the board: the regions and houses their rules add, the
// drawing of each constraint (cages, lines, dots, clues outside the grid) and
// the rules in words. The puzzle itself is read by the engine (the API or its
// WebAssembly copy), which answers with the constraints as JSON: each has a
// `kind` and cells named `r1c1` ... (see `sudoku_core::variant::Constraint`).

const SVG = 'http://www.w3.org/2000/svg';

/** Whether a puzzle's first token is a variant: ISS text, f-puzzles JSON or a link. */
export function isVariantText(token) {
  return /^\.[A-Za-z]*~/.test(token) || /^\.(AntiKnight|AntiKing|AntiConsecutive|NoBoxes|Windoku|DisjointSets|StrictKropki|StrictXV)\b/.test(token)
    || token.startsWith('{') || /f-puzzles|[?&]load=|^N4Ig|^fpuz/.test(token);
}

/** The index of a cell named `r3c4` on an n×n grid (-1 if it is not one). */
export function cellIndex(name, n) {
  const m = /^r(\d+)c(\d+)$/i.exec(name || '');
  if (!m) return -1;
  const r = Number(m[1]) - 1;
  const c = Number(m[2]) - 1;
  return r >= 0 && r < n && c >= 0 && c < n ? r * n + c : -1;
}

/** The grid's side from the engine's shape ("9x9"). */
export function sideOf(shape) {
  const m = /^(\d+)x\1$/.exec(shape || '');
  return m ? Number(m[1]) : 0;
}

/**
 * The region of each cell, for the thick lines: a jigsaw's regions, else the
 * boxes ([rows, columns], or null for none: every cell its own region).
 */
export function regionsOf(n, variant) {
  const jigsaw = variant && variant.constraints.find((c) => c.kind === 'jigsaw');
  if (jigsaw && jigsaw.regions.length === n * n) return jigsaw.regions.slice();
  const boxes = variant ? variant.boxes : [Math.round(Math.sqrt(n)), Math.round(Math.sqrt(n))];
  if (!boxes) return null;
  const [br, bc] = boxes;
  const out = [];
  for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) out.push(Math.floor(r / br) * (n / bc) + Math.floor(c / bc));
  return out;
}

/**
 * The cells each cell must differ from: its row, column and region, and for
 * a variant the extra regions, cages, all-different groups and the
 * anti-knight and anti-king moves.
 */
export function peersOf(n, variant) {
  const peers = Array.from({ length: n * n }, () => new Set());
  const house = (cells) => {
    for (const a of cells) for (const b of cells) if (a !== b) peers[a].add(b);
  };
  for (let r = 0; r < n; r++) house(Array.from({ length: n }, (_, c) => r * n + c));
  for (let c = 0; c < n; c++) house(Array.from({ length: n }, (_, r) => r * n + c));
  const regions = regionsOf(n, variant);
  if (regions) {
    const groups = new Map();
    regions.forEach((g, i) => { if (!groups.has(g)) groups.set(g, []); groups.get(g).push(i); });
    for (const cells of groups.values()) house(cells);
  }
  if (!variant) return peers;
  const moves = (steps) => {
    for (let r = 0; r < n; r++) {
      for (let c = 0; c < n; c++) {
        for (const [dr, dc] of steps) {
          const rr = r + dr;
          const cc = c + dc;
          if (rr >= 0 && rr < n && cc >= 0 && cc < n) peers[r * n + c].add(rr * n + cc);
        }
      }
    }
  };
  const cellsOf = (k) => (k.cells || []).map((name) => cellIndex(name, n)).filter((i) => i >= 0);
  for (const k of variant.constraints) {
    switch (k.kind) {
      case 'diagonal':
        house(Array.from({ length: n }, (_, i) => i * n + (k.anti ? n - 1 - i : i)));
        break;
      case 'windoku':
        for (const w of windows(n)) house(w);
        break;
      case 'disjoint-sets':
        if (variant.boxes) {
          const [br, bc] = variant.boxes;
          for (let pr = 0; pr < br; pr++) {
            for (let pc = 0; pc < bc; pc++) {
              const cells = [];
              for (let r = pr; r < n; r += br) for (let c = pc; c < n; c += bc) cells.push(r * n + c);
              house(cells);
            }
          }
        }
        break;
      case 'cage':
      case 'all-different':
        house(cellsOf(k));
        break;
      case 'anti-knight':
        moves([[1, 2], [2, 1], [-1, 2], [-2, 1], [1, -2], [2, -1], [-1, -2], [-2, -1]]);
        break;
      case 'anti-king':
        moves([[1, 1], [1, -1], [-1, 1], [-1, -1]]);
        break;
      default:
        break;
    }
  }
  return peers;
}

/** The windoku windows: 3×3 squares one cell in from each box corner (9×9). */
function windows(n) {
  if (n !== 9) return [];
  const out = [];
  for (const r0 of [1, 5]) {
    for (const c0 of [1, 5]) {
      const w = [];
      for (let r = r0; r < r0 + 3; r++) for (let c = c0; c < c0 + 3; c++) w.push(r * n + c);
      out.push(w);
    }
  }
  return out;
}

/** Whether a variant has clues outside the grid (the board then gets a margin). */
export function hasOutsideClues(variant) {
  return !!variant && variant.constraints.some((c) => ['little-killer', 'sandwich', 'x-sum', 'skyscraper'].includes(c.kind));
}

const RULES = {
  diagonal: 'Diagonal: each marked diagonal holds every digit once.',
  windoku: 'Windoku: each shaded window holds every digit once.',
  'disjoint-sets': 'Disjoint groups: cells in the same place of their boxes hold different digits.',
  jigsaw: 'Jigsaw: each outlined region holds every digit once.',
  cage: 'Killer cage: digits do not repeat in a cage and sum to its total.',
  sum: 'Sum (dotted outline): the cells sum to the total; digits may repeat.',
  'little-killer': 'Little killer: the digits along the arrow\'s diagonal sum to the clue; digits may repeat.',
  sandwich: 'Sandwich: the digits between the 1 and the largest digit of the row or column sum to the clue.',
  thermo: 'Thermometer: digits increase from the bulb.',
  'slow-thermo': 'Slow thermometer (dashed): digits never decrease from the bulb.',
  arrow: 'Arrow: the digits on the arrow sum to the number in the circle (or pill).',
  'double-arrow': 'Double arrow: the digits between the two circles sum to the two circles\' digits.',
  'white-dot': 'White dot: the two digits are consecutive.',
  'black-dot': 'Black dot: one digit is double the other.',
  'strict-kropki': 'All kropki dots are given: neighbours without a dot are neither consecutive nor one double the other.',
  x: 'X: the two digits sum to 10.',
  v: 'V: the two digits sum to 5.',
  'strict-xv': 'All X and V are given: neighbours without one sum to neither 10 nor 5.',
  'anti-knight': 'Anti-knight: cells a knight\'s move apart hold different digits.',
  'anti-king': 'Anti-king: cells a king\'s move apart hold different digits.',
  'anti-consecutive': 'Non-consecutive: orthogonal neighbours are not consecutive.',
  odd: 'Odd (grey circle): the cell is odd.',
  even: 'Even (grey square): the cell is even.',
  renban: 'Renban (purple line): the digits are a run of consecutive digits in any order.',
  whisper: 'German whispers (green line): neighbours on the line differ by at least 5 (or the number given).',
  palindrome: 'Palindrome (grey line): the line reads the same from both ends.',
  between: 'Between line: the digits on the line lie strictly between the two circles\' digits.',
  quad: 'Quadruple: the digits in the circle appear in the four cells around it.',
  'region-sum-line': 'Region-sum line (blue): the digits of the line sum to the same total in each box it passes.',
  'greater-than': 'Greater-than: the sign points to the smaller digit.',
  'all-different': 'All different (dotted outline): the cells hold different digits.',
  lockout: 'Lockout line: the diamonds differ by at least the number given; no digit between them is on the line.',
  zipper: 'Zipper line (lavender): digits the same distance from the middle sum to the same total (the middle digit, if any).',
  'x-sum': 'X-sum: the first X digits from the clue sum to it, X being the first digit.',
  skyscraper: 'Skyscraper: the clue counts the digits seen from it, larger digits hiding smaller ones behind them.',
};

/** The rules of a variant's constraints, one line per kind, in order of appearance. */
export function rulesOf(variant) {
  const seen = [];
  for (const c of variant.constraints) if (!seen.includes(c.kind)) seen.push(c.kind);
  return seen.map((k) => RULES[k] || k);
}

/**
 * What each cell is part of, in words, for assistive technology (the
 * drawing is hidden from it): "killer cage of 3 cells, total 10; thermometer
 * bulb".
 */
export function cellNotes(n, variant) {
  const notes = Array.from({ length: n * n }, () => []);
  if (!variant) return notes.map(() => '');
  const name = (kind) => (RULES[kind] || kind).split(/[:(]/)[0].trim().toLowerCase();
  for (const k of variant.constraints) {
    const cells = (k.cells || []).map((c) => cellIndex(c, n)).filter((i) => i >= 0);
    cells.forEach((i, pos) => {
      let text = name(k.kind);
      if (['cage', 'sum', 'all-different'].includes(k.kind)) {
        text += ` of ${cells.length} cells${k.sum !== null && k.sum !== undefined ? `, total ${k.sum}` : ''}`;
      } else if (['thermo', 'slow-thermo'].includes(k.kind)) {
        text += pos === 0 ? ' bulb' : `, cell ${pos + 1} of ${cells.length}`;
      } else if (k.kind === 'arrow') {
        text += pos < Math.max(1, k.pill || 1) ? ' circle' : ', on the shaft';
      } else if (['white-dot', 'black-dot', 'x', 'v'].includes(k.kind)) {
        const next = [cells[pos - 1], cells[pos + 1]].filter((j) => j !== undefined);
        text += ` with ${next.map((j) => `r${Math.floor(j / n) + 1}c${(j % n) + 1}`).join(' and ')}`;
      } else if (k.kind === 'little-killer') {
        text += ` ${k.sum}`;
      }
      notes[i].push(text);
    });
  }
  return notes.map((list) => list.join('; '));
}

function el(name, attrs, text) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (text !== undefined) e.textContent = text;
  return e;
}

/** Draw a variant's constraints on `svg` (viewBox 0..n, overflow visible for the outside clues). */
export function drawVariant(svg, n, variant) {
  svg.replaceChildren();
  if (!variant) return;
  const at = (name) => {
    const i = cellIndex(name, n);
    return i < 0 ? null : [i % n + 0.5, Math.floor(i / n) + 0.5];
  };
  const points = (k) => (k.cells || []).map(at).filter(Boolean);
  const poly = (pts, cls) => svg.appendChild(el('polyline', { class: cls, points: pts.map((p) => p.join(',')).join(' ') }));
  const mid = (a, b) => [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
  // shading first, lines next, marks and text last
  const order = (k) => (['windoku', 'diagonal', 'odd', 'even'].includes(k.kind) ? 0 : ['cage', 'sum', 'all-different'].includes(k.kind) ? 1 : 2);
  const sorted = variant.constraints.slice().sort((a, b) => order(a) - order(b));
  for (const k of sorted) {
    const pts = points(k);
    switch (k.kind) {
      case 'windoku':
        for (const w of windows(n)) {
          const i = w[0];
          svg.appendChild(el('rect', { class: 'v-window', x: i % n, y: Math.floor(i / n), width: 3, height: 3 }));
        }
        break;
      case 'diagonal':
        svg.appendChild(el('line', k.anti ? { class: 'v-diag', x1: 0, y1: n, x2: n, y2: 0 } : { class: 'v-diag', x1: 0, y1: 0, x2: n, y2: n }));
        break;
      case 'odd':
        for (const p of pts) svg.appendChild(el('circle', { class: 'v-parity', cx: p[0], cy: p[1], r: 0.36 }));
        break;
      case 'even':
        for (const p of pts) svg.appendChild(el('rect', { class: 'v-parity', x: p[0] - 0.34, y: p[1] - 0.34, width: 0.68, height: 0.68 }));
        break;
      case 'cage':
      case 'sum':
      case 'all-different':
        cageOutline(svg, n, k, k.kind === 'cage' ? 'v-cage' : 'v-cage dotted');
        break;
      case 'thermo':
      case 'slow-thermo':
        if (pts.length) {
          poly(pts, k.kind === 'thermo' ? 'v-thermo' : 'v-thermo slow');
          svg.appendChild(el('circle', { class: 'v-bulb', cx: pts[0][0], cy: pts[0][1], r: 0.36 }));
        }
        break;
      case 'arrow':
        arrow(svg, pts, Math.max(1, k.pill || 1));
        break;
      case 'double-arrow':
        if (pts.length >= 2) {
          poly(pts, 'v-arrow');
          for (const p of [pts[0], pts[pts.length - 1]]) svg.appendChild(el('circle', { class: 'v-circle', cx: p[0], cy: p[1], r: 0.38 }));
        }
        break;
      case 'between':
      case 'lockout':
        if (pts.length >= 2) {
          poly(pts, k.kind === 'between' ? 'v-line between' : 'v-line lockout');
          for (const p of [pts[0], pts[pts.length - 1]]) {
            if (k.kind === 'between') svg.appendChild(el('circle', { class: 'v-circle', cx: p[0], cy: p[1], r: 0.38 }));
            else svg.appendChild(el('rect', { class: 'v-circle', x: p[0] - 0.27, y: p[1] - 0.27, width: 0.54, height: 0.54, transform: `rotate(45 ${p[0]} ${p[1]})` }));
          }
          if (k.kind === 'lockout') svg.appendChild(el('text', { class: 'v-small', x: pts[0][0], y: pts[0][1] - 0.3 }, String(k.difference)));
        }
        break;
      case 'renban':
      case 'whisper':
      case 'palindrome':
      case 'region-sum-line':
      case 'zipper':
        poly(pts, `v-line ${k.kind}`);
        if (k.kind === 'whisper' && k.difference) svg.appendChild(el('text', { class: 'v-small', x: pts[0][0], y: pts[0][1] - 0.3 }, String(k.difference)));
        break;
      case 'white-dot':
      case 'black-dot':
        for (let j = 1; j < pts.length; j++) {
          const [x, y] = mid(pts[j - 1], pts[j]);
          svg.appendChild(el('circle', { class: k.kind === 'white-dot' ? 'v-dot white' : 'v-dot black', cx: x, cy: y, r: 0.12 }));
        }
        break;
      case 'x':
      case 'v':
        for (let j = 1; j < pts.length; j++) {
          const [x, y] = mid(pts[j - 1], pts[j]);
          svg.appendChild(el('text', { class: 'v-xv', x, y }, k.kind.toUpperCase()));
        }
        break;
      case 'greater-than':
        for (let a = 0; a < pts.length; a++) {
          for (let b = a + 1; b < pts.length; b++) {
            const dx = pts[b][0] - pts[a][0];
            const dy = pts[b][1] - pts[a][1];
            if (Math.abs(dx) + Math.abs(dy) !== 1) continue;
            // a chevron on the shared side, pointing to the smaller (later) cell
            const [x, y] = mid(pts[a], pts[b]);
            const s = 0.1;
            const tip = [x + dx * s, y + dy * s];
            const back = [x - dx * s, y - dy * s];
            const side = [dy * s * 1.4, dx * s * 1.4];
            poly([[back[0] + side[0], back[1] + side[1]], tip, [back[0] - side[0], back[1] - side[1]]], 'v-sign');
          }
        }
        break;
      case 'quad': {
        const i = cellIndex(k.cell, n);
        if (i < 0) break;
        const x = i % n + 1;
        const y = Math.floor(i / n) + 1;
        svg.appendChild(el('circle', { class: 'v-quad', cx: x, cy: y, r: 0.24 }));
        svg.appendChild(el('text', { class: 'v-quad-text', x, y }, k.digits.join('')));
        break;
      }
      case 'little-killer':
        if (pts.length) {
          const dir = pts.length >= 2 ? [pts[1][0] - pts[0][0], pts[1][1] - pts[0][1]] : [1, 1];
          const p = [pts[0][0] - dir[0] * 0.85, pts[0][1] - dir[1] * 0.85];
          svg.appendChild(el('text', { class: 'v-outside', x: p[0] - dir[0] * 0.12, y: p[1] - dir[1] * 0.12 }, String(k.sum)));
          svg.appendChild(el('line', { class: 'v-lk', x1: p[0] + dir[0] * 0.12, y1: p[1] + dir[1] * 0.12, x2: p[0] + dir[0] * 0.38, y2: p[1] + dir[1] * 0.38 }));
        }
        break;
      case 'sandwich':
        outside(svg, n, k.line, k.sum, null, 'v-outside');
        break;
      case 'x-sum':
      case 'skyscraper':
        outside(svg, n, k.line, k.front, k.back, k.kind === 'x-sum' ? 'v-outside' : 'v-outside sky');
        break;
      default:
        break;
    }
  }
}

/** A clue before a row or column (and one after it, for `back`). */
function outside(svg, n, line, front, back, cls) {
  if (!line) return;
  const row = 'row' in line;
  const k = row ? line.row : line.col;
  const put = (v, before) => {
    if (v === null || v === undefined) return;
    const far = before ? -0.5 : n + 0.5;
    svg.appendChild(el('text', row ? { class: cls, x: far, y: k + 0.5 } : { class: cls, x: k + 0.5, y: far }, String(v)));
  };
  put(front, true);
  put(back, false);
}

/** An arrow: the circle (or pill) over the first `pill` cells, then the shaft and its head. */
function arrow(svg, pts, pill) {
  if (pts.length === 0) return;
  const head = pts.slice(0, Math.min(pill, pts.length));
  if (head.length === 1) {
    svg.appendChild(el('circle', { class: 'v-circle', cx: head[0][0], cy: head[0][1], r: 0.38 }));
  } else {
    const xs = head.map((p) => p[0]);
    const ys = head.map((p) => p[1]);
    const x0 = Math.min(...xs) - 0.38;
    const y0 = Math.min(...ys) - 0.38;
    svg.appendChild(el('rect', {
      class: 'v-circle', x: x0, y: y0, width: Math.max(...xs) + 0.38 - x0, height: Math.max(...ys) + 0.38 - y0, rx: 0.38, ry: 0.38,
    }));
  }
  const shaft = pts.slice(head.length - 1);
  if (shaft.length < 2) return;
  const [a, b] = [shaft[0], shaft[1]];
  const len = Math.hypot(b[0] - a[0], b[1] - a[1]) || 1;
  const start = [a[0] + (b[0] - a[0]) / len * 0.38, a[1] + (b[1] - a[1]) / len * 0.38];
  const line = [start, ...shaft.slice(1)];
  svg.appendChild(el('polyline', { class: 'v-arrow', points: line.map((p) => p.join(',')).join(' ') }));
  const end = shaft[shaft.length - 1];
  const prev = shaft[shaft.length - 2];
  const l2 = Math.hypot(end[0] - prev[0], end[1] - prev[1]) || 1;
  const ux = (end[0] - prev[0]) / l2;
  const uy = (end[1] - prev[1]) / l2;
  const s = 0.22;
  const wing = (sign) => [end[0] - ux * s - uy * s * sign * 0.8, end[1] - uy * s + ux * s * sign * 0.8];
  svg.appendChild(el('polyline', { class: 'v-arrow', points: [wing(1), end, wing(-1)].map((p) => p.join(',')).join(' ') }));
}

/**
 * A cage's dashed outline, a little inside its cells, and its total in the
 * corner of its first cell (top row, then left).
 */
function cageOutline(svg, n, k, cls) {
  const inside = new Set((k.cells || []).map((name) => cellIndex(name, n)).filter((i) => i >= 0));
  const has = (r, c) => r >= 0 && r < n && c >= 0 && c < n && inside.has(r * n + c);
  const m = 0.07;
  let d = '';
  for (const i of inside) {
    const r = Math.floor(i / n);
    const c = i % n;
    // each side without a neighbour in the cage; its ends stop short at a
    // corner, run to the cell's edge along a straight side, and reach past
    // it into an inner corner
    const end = (along, diag) => (along ? (diag ? -m : 0) : m);
    if (!has(r - 1, c)) {
      const a = c + end(has(r, c - 1), has(r - 1, c - 1));
      const b = c + 1 - end(has(r, c + 1), has(r - 1, c + 1));
      d += `M${a},${r + m}H${b}`;
    }
    if (!has(r + 1, c)) {
      const a = c + end(has(r, c - 1), has(r + 1, c - 1));
      const b = c + 1 - end(has(r, c + 1), has(r + 1, c + 1));
      d += `M${a},${r + 1 - m}H${b}`;
    }
    if (!has(r, c - 1)) {
      const a = r + end(has(r - 1, c), has(r - 1, c - 1));
      const b = r + 1 - end(has(r + 1, c), has(r + 1, c - 1));
      d += `M${c + m},${a}V${b}`;
    }
    if (!has(r, c + 1)) {
      const a = r + end(has(r - 1, c), has(r - 1, c + 1));
      const b = r + 1 - end(has(r + 1, c), has(r + 1, c + 1));
      d += `M${c + 1 - m},${a}V${b}`;
    }
  }
  if (d) svg.appendChild(el('path', { class: cls, d }));
  if (k.sum !== null && k.sum !== undefined && inside.size) {
    const first = Math.min(...inside);
    const x = first % n + 0.09;
    const y = Math.floor(first / n) + 0.1;
    const text = String(k.sum);
    svg.appendChild(el('rect', { class: 'v-sum-bg', x: x - 0.03, y: y - 0.02, width: 0.14 * text.length + 0.06, height: 0.26 }));
    svg.appendChild(el('text', { class: 'v-sum', x, y: y + 0.11 }, text));
  }
}
