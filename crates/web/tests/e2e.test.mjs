// End-to-end: the real `sudoku serve` on a free loopback port, the page in
// headless Chromium (Debian's /usr/bin/chromium, driven by playwright-core).
// Any console error, page error or request to another host fails the test.
// Screenshots go to $E2E_ARTIFACTS (default: crates/web/test-artifacts/,
// git-ignored).
//
// Run: cargo build -p sudoku-cli --bin sudoku && (cd crates/web && npm ci && npm test)
// ($SUDOKU_BIN names the binary; $CHROMIUM the browser.)

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync, existsSync, rmSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../../..');
const artifacts = process.env.E2E_ARTIFACTS || join(here, '..', 'test-artifacts');
mkdirSync(artifacts, { recursive: true });

function findBinary() {
  if (process.env.SUDOKU_BIN) return process.env.SUDOKU_BIN;
  const targets = [process.env.CARGO_TARGET_DIR, join(root, 'target')].filter(Boolean);
  for (const t of targets) {
    for (const profile of ['release', 'debug']) {
      const p = join(t, profile, 'sudoku');
      if (existsSync(p)) return p;
    }
  }
  throw new Error('no sudoku binary: build it (cargo build -p sudoku-cli) or set SUDOKU_BIN');
}

const PUZZLE = '.3..9..5.....1...45..8....7....3.2..6....9.4...7..25.......19....69....812.....7.';
const SOLUTION = '734296851268517394591843627915734286682159743347682519853471962476925138129368475';

/** A row of the variant corpus by name: its ISS text and its one solution. */
function corpusRow(name) {
  const rows = readFileSync(join(root, 'testdata/variant/corpus.tsv'), 'utf8').split('\n')
    .filter((l) => l && !l.startsWith('#')).map((l) => l.split('\t'));
  const row = rows.find((f) => f[1] === name && f[3] === '1');
  if (!row) throw new Error(`no corpus row ${name}`);
  return { text: row[2], solution: row[4] };
}

// a 6×6 killer: four cages, two of them with a total
const KILLER = corpusRow('cage-1-6x6');

let server;
let base;
let context;
let page;
let userDataDir;
const problems = [];

function watch(p, expected = () => false) {
  p.on('console', (msg) => {
    if (msg.type() === 'error' && !expected(msg)) problems.push(`console error: ${msg.text()}`);
  });
  p.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  p.on('request', (req) => {
    if (!req.url().startsWith(base) && !req.url().startsWith('data:')) problems.push(`request elsewhere: ${req.url()}`);
  });
}

before(async () => {
  server = spawn(findBinary(), ['serve', '--addr', '127.0.0.1:0'], { stdio: ['ignore', 'ignore', 'pipe'] });
  base = await new Promise((ok, fail) => {
    let err = '';
    const timer = setTimeout(() => fail(new Error(`sudoku serve did not start: ${err}`)), 15000);
    server.stderr.on('data', (d) => {
      err += d;
      const m = /listening on (http:\/\/[0-9.:]+\/)/.exec(err);
      if (m) { clearTimeout(timer); ok(m[1]); }
    });
    server.on('exit', (code) => fail(new Error(`sudoku serve exited (${code}): ${err}`)));
  });
  userDataDir = mkdtempSync(join(tmpdir(), 'sudoku-e2e-'));
  context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
    viewport: { width: 1200, height: 900 },
    timeout: 30000,
  });
  context.setDefaultTimeout(15000);
  page = context.pages()[0] || await context.newPage();
  watch(page);
});

after(async () => {
  await context?.close();
  server?.kill();
  if (userDataDir) rmSync(userDataDir, { recursive: true, force: true });
});

let cell = (r, c) => page.getByRole('gridcell', { name: `r${r}c${c}`, exact: true });
let button = (name) => page.getByRole('button', { name, exact: true });
let shot = (name) => page.screenshot({ path: join(artifacts, `${name}.png`), fullPage: true });

/** Point the helpers at another page. */
function use(p) {
  page = p;
  cell = (r, c) => p.getByRole('gridcell', { name: `r${r}c${c}`, exact: true });
  button = (name) => p.getByRole('button', { name, exact: true });
  shot = (name) => p.screenshot({ path: join(artifacts, `${name}.png`), fullPage: true });
}

async function boardLine(n = 9) {
  let s = '';
  for (let r = 1; r <= n; r++) for (let c = 1; c <= n; c++) s += (await cell(r, c).textContent()) || '.';
  return s;
}

test('play, hint, solve, compare, explain, generate, restore', { timeout: 120000 }, async () => {
  await page.goto(base);
  assert.equal(await page.getByRole('grid').count(), 1);
  assert.equal(await page.getByRole('gridcell').count(), 81);

  // type a puzzle
  await page.getByRole('textbox', { name: 'Puzzle', exact: true }).fill(PUZZLE);
  await button('Load').click();
  assert.equal(await boardLine(), PUZZLE);
  await shot('loaded');

  // play a move, undo it, redo it, undo again
  await cell(1, 1).click();
  await page.keyboard.press('7');
  assert.equal(await cell(1, 1).textContent(), '7');
  await button('Undo').click();
  assert.equal(await cell(1, 1).textContent(), '');
  await button('Redo').click();
  assert.equal(await cell(1, 1).textContent(), '7');
  await button('Undo').click();
  assert.equal(await cell(1, 1).textContent(), '');

  // a conflict is highlighted
  await cell(1, 1).click();
  await page.keyboard.press('3');
  assert.match(await cell(1, 1).getAttribute('class'), /conflict/);
  await button('Undo').click();

  // every hint level, the last one drawn on the grid
  for (const level of [1, 2, 3]) {
    await button('Hint').click();
    await page.locator('#hint-text', { hasText: `Hint level ${level}:` }).waitFor();
  }
  assert.ok(await page.locator('#overlay .place-mark, #overlay .elim-mark').count() > 0, 'level 3 draws the step');
  await shot('hint-level-3');

  // solve with two methods
  for (const method of ['dlx', 'mrv-hidden']) {
    await page.getByLabel('Method', { exact: true }).selectOption(method);
    await button('Solve').click();
    await page.locator('#result', { hasText: `${method}: unique` }).waitFor();
    assert.equal(await boardLine(), SOLUTION);
    await button('Undo').click();
    assert.equal(await boardLine(), PUZZLE);
  }

  // every method side by side
  // one row per method of the Method list (all but `auto`)
  const methods = (await page.getByLabel('Method', { exact: true }).locator('option').count()) - 1;
  assert.equal(methods, 9);
  await button('Compare methods').click();
  await page.locator('#stats tbody tr').nth(methods - 1).waitFor();
  assert.equal(await page.locator('#stats tbody tr').count(), methods);
  await button('Count').click();
  await page.locator('#result', { hasText: 'unique: 1 solution' }).waitFor();
  await button('Rate').click();
  await page.locator('#result', { hasText: 'Rating 3.2 (hard)' }).waitFor();
  await shot('compare');

  // the explained path, one step drawn
  await button('Explain').click();
  await page.locator('#steps li').first().waitFor();
  await page.locator('#steps button').nth(3).click();
  assert.ok(await page.locator('#overlay .cand').count() > 20, 'a step shows the candidates');
  await shot('explain');
  await button('Clear drawing').click();

  // a trace, replayed
  await page.getByLabel('Method', { exact: true }).selectOption('dlx');
  await button('Trace').click();
  await page.locator('#trace-text', { hasText: '1 of' }).waitFor();
  // at the step that reaches the solution, every empty cell holds a digit
  const traced = await (await fetch(`${base}api/solve`, {
    method: 'POST', body: JSON.stringify({ puzzle: PUZZLE, method: 'dlx', trace: true }),
  })).json();
  const solved = traced.trace.findIndex((step) => step.kind === 'solution');
  await page.getByLabel('Trace step').fill(String(solved));
  await page.locator('#trace-text', { hasText: `${solved + 1} of ${traced.trace.length}: a solution` }).waitFor();
  assert.equal(await page.locator('#overlay .placed.trace').count(), 81 - 24);
  await page.getByLabel('Trace step').fill(String(Math.floor(solved / 2)));
  await shot('trace');

  // generate by difficulty
  await page.getByLabel('Difficulty', { exact: true }).selectOption('easy');
  await button('New puzzle').click();
  await page.locator('#message', { hasText: 'New 9×9 puzzle' }).waitFor();
  const generated = await boardLine();
  assert.notEqual(generated, PUZZLE);
  const givens = [...generated].filter((ch) => ch !== '.').length;
  assert.ok(givens >= 17 && givens < 81, `${givens} givens`);

  // a right move, a corner mark and a centre mark, then reload
  const answer = await (await fetch(`${base}api/solve`, {
    method: 'POST', body: JSON.stringify({ puzzle: generated }),
  })).json();
  const empties = [...generated].map((ch, i) => (ch === '.' ? i : -1)).filter((i) => i >= 0);
  const [a, b, c] = empties;
  const at = (i) => cell(Math.floor(i / 9) + 1, (i % 9) + 1);
  await at(a).click();
  await page.keyboard.press(answer.solution[a]);
  await at(b).click();
  await page.keyboard.press('Shift+1');
  await button('Centre').click();
  await at(c).click();
  await page.keyboard.press('2');
  await page.keyboard.press('5');
  assert.equal(await at(b).getAttribute('data-corner'), '1');
  assert.equal(await at(c).getAttribute('data-centre'), '25');
  await at(a).click();
  await button('Colour 4').click();
  assert.match(await at(a).getAttribute('class'), /colour-4/);
  const played = await boardLine();
  await page.reload();
  await page.locator('#message', { hasText: 'restored' }).waitFor();
  assert.equal(await boardLine(), played);
  assert.equal(await at(b).getAttribute('data-corner'), '1');
  assert.equal(await at(c).getAttribute('data-centre'), '25');
  assert.match(await at(a).getAttribute('class'), /colour-4/);
  await button('Check').click();
  await page.locator('#message', { hasText: 'All correct so far' }).waitFor();
  await shot('restored');

  // the share link opens the same game in another tab
  await button('Share link').click();
  const url = await page.getByRole('textbox', { name: 'Link to this game' }).inputValue();
  assert.match(url, /#p=/);
  const other = await context.newPage();
  watch(other);
  await other.goto(url);
  await other.locator('#message', { hasText: 'loaded from the link' }).waitFor();
  assert.equal(await other.getByRole('gridcell', { name: 'r1c1', exact: true }).textContent(),
    await cell(1, 1).textContent());
  await other.close();

  // a phone-sized screen
  await page.setViewportSize({ width: 390, height: 844 });
  await shot('phone');

  assert.deepEqual(problems, []);
});

/**
 * A variant: drawn (cages, totals, the rules in words), played with its
 * cages' conflicts, checked, solved, rated, explained, restored after a
 * reload and opened from a share link.
 */
async function playVariant(name) {
  await page.getByRole('textbox', { name: 'Puzzle', exact: true }).fill(KILLER.text);
  await button('Load').click();
  await page.locator('#message', { hasText: 'Loaded a 6×6 variant (cage) with 8 givens.' }).waitFor();
  assert.equal(await page.getByRole('gridcell').count(), 36);
  assert.equal(await page.locator('#decor path.v-cage').count(), 4);
  assert.deepEqual(await page.locator('#decor text.v-sum').allTextContents(), ['10', '7']);
  await page.locator('#rules li', { hasText: 'Killer cage' }).waitFor();
  // the cages are told to assistive technology too
  assert.equal(await cell(1, 4).getAttribute('aria-description'), 'killer cage of 2 cells, total 10');
  for (const off of ['Hint', 'Compare methods', 'Trace']) assert.ok(await button(off).isDisabled(), `${off} is off for a variant`);
  const start = await boardLine(6);
  assert.equal(start.replace(/[^.]/g, '').length, 36 - 8);
  // a digit repeated in a cage (r2c3 and r2c4 share one) is a conflict
  await cell(2, 3).click();
  await page.keyboard.press('4');
  await cell(2, 4).click();
  await page.keyboard.press('4');
  assert.match(await cell(2, 4).getAttribute('class'), /conflict/);
  await button('Undo').click();
  await button('Undo').click();
  // a wrong digit is found by Check
  const empty = [...start].indexOf('.');
  const at = (i) => cell(Math.floor(i / 6) + 1, (i % 6) + 1);
  const wrongDigit = KILLER.solution[empty] === '1' ? '2' : '1';
  await at(empty).click();
  await page.keyboard.press(wrongDigit);
  await button('Check').click();
  await page.locator('#message', { hasText: '1 digit is wrong' }).waitFor();
  await button('Undo').click();
  // solved by the variant solver
  await button('Solve').click();
  await page.locator('#result', { hasText: 'variant: unique' }).waitFor();
  assert.equal(await boardLine(6), KILLER.solution);
  await button('Undo').click();
  assert.equal(await boardLine(6), start);
  await button('Count').click();
  await page.locator('#result', { hasText: 'unique: 1 solution' }).waitFor();
  await button('Rate').click();
  await page.locator('#result', { hasText: 'Variant rating' }).waitFor();
  await button('Explain').click();
  await page.locator('#steps li').first().waitFor();
  await page.locator('#steps button').first().click();
  assert.ok(await page.locator('#overlay .place-mark, #overlay .elim-mark').count() > 0, 'a step is drawn');
  await shot(`${name}-explain`);
  await button('Clear drawing').click();
  // a move, then a reload: the variant and the move come back
  await at(empty).click();
  await page.keyboard.press(KILLER.solution[empty]);
  const played = await boardLine(6);
  await page.reload();
  await page.locator('#message', { hasText: 'restored' }).waitFor();
  assert.equal(await boardLine(6), played);
  assert.equal(await page.locator('#decor path.v-cage').count(), 4);
  await button('Check').click();
  await page.locator('#message', { hasText: 'All correct so far' }).waitFor();
  // the share link carries the variant
  await button('Share link').click();
  const url = await page.getByRole('textbox', { name: 'Link to this game' }).inputValue();
  const other = await context.newPage();
  watch(other);
  const offline = name.includes('offline');
  if (offline) await other.route('**/api/**', (route) => route.abort());
  await other.goto(offline ? url.replace('#', '?offline#') : url);
  await other.locator('#message', { hasText: 'loaded from the link' }).waitFor();
  assert.equal(await other.locator('#decor path.v-cage').count(), 4);
  assert.equal(await other.getByRole('gridcell', { name: `r${Math.floor(empty / 6) + 1}c${(empty % 6) + 1}`, exact: true }).textContent(),
    KILLER.solution[empty]);
  await other.close();
  await shot(name);
  // a new variant puzzle: a 6×6 killer, drawn and solved
  await page.getByLabel('Kind', { exact: true }).selectOption('killer');
  await page.getByLabel('Size', { exact: true }).selectOption('6');
  assert.ok(await page.getByLabel('Difficulty', { exact: true }).isDisabled());
  await button('New puzzle').click();
  await page.locator('#message', { hasText: 'New 6×6 killer puzzle' }).waitFor();
  assert.equal(await page.getByRole('gridcell').count(), 36);
  assert.ok(await page.locator('#decor path.v-cage').count() > 3, 'the cages are drawn');
  await button('Solve').click();
  await page.locator('#result', { hasText: 'variant: unique' }).waitFor();
  assert.ok(!(await boardLine(6)).includes('.'));
  await shot(`${name}-generated`);
  await page.getByLabel('Kind', { exact: true }).selectOption('classic');
}

test('a variant: drawn, played, checked, solved, explained, restored, shared', { timeout: 120000 }, async () => {
  const p = await context.newPage();
  watch(p);
  use(p);
  await p.goto(base);
  await playVariant('variant');
  await p.close();
  // a variant with a mistake in it: the engine's error with its place, and
  // the game on the board stays (the 400 answer is the one console error)
  const bad = await context.newPage();
  watch(bad, (msg) => /status of 400/.test(msg.text()));
  use(bad);
  await bad.goto(base);
  await bad.getByRole('gridcell', { name: 'r6c6', exact: true }).waitFor();
  await bad.getByRole('textbox', { name: 'Puzzle', exact: true }).fill('.Cage~10~R1C1~R1Z2');
  await button('Load').click();
  await bad.locator('#message', { hasText: 'column 15' }).waitFor();
  assert.equal(await bad.getByRole('gridcell').count(), 36);
  await bad.close();
  assert.deepEqual(problems, []);
});

/** The main views once more, with no API: the WebAssembly engine answers. */
async function playOffline(name) {
  await page.getByRole('textbox', { name: 'Puzzle', exact: true }).fill(PUZZLE);
  await button('Load').click();
  assert.equal(await boardLine(), PUZZLE);
  await cell(1, 1).click();
  await page.keyboard.press('7');
  await button('Undo').click();
  assert.equal(await cell(1, 1).textContent(), '');
  for (const level of [1, 2, 3]) {
    await button('Hint').click();
    await page.locator('#hint-text', { hasText: `Hint level ${level}:` }).waitFor();
  }
  assert.ok(await page.locator('#overlay .place-mark, #overlay .elim-mark').count() > 0);
  for (const method of ['dlx-pruned', 'mrv']) {
    await page.getByLabel('Method', { exact: true }).selectOption(method);
    await button('Solve').click();
    await page.locator('#result', { hasText: `${method}: unique` }).waitFor();
    assert.equal(await boardLine(), SOLUTION);
    await button('Undo').click();
  }
  await button('Compare methods').click();
  await page.locator('#stats tbody tr').nth(7).waitFor();
  await page.getByLabel('Difficulty', { exact: true }).selectOption('medium');
  await button('New puzzle').click();
  await page.locator('#message', { hasText: 'New 9×9 puzzle' }).waitFor();
  const generated = await boardLine();
  assert.notEqual(generated, PUZZLE);
  const empty = [...generated].indexOf('.');
  await cell(Math.floor(empty / 9) + 1, (empty % 9) + 1).click();
  await page.keyboard.press('Shift+4');
  await page.reload();
  await page.locator('#message', { hasText: 'restored' }).waitFor();
  assert.equal(await boardLine(), generated);
  assert.equal(await cell(Math.floor(empty / 9) + 1, (empty % 9) + 1).getAttribute('data-corner'), '4');
  assert.match(await page.locator('#engine').textContent(), /WebAssembly/);
  await shot(name);
}

test('the same with the API switched off: the WebAssembly engine', { timeout: 120000 }, async () => {
  // ?offline: the page never asks the server (an API request would fail
  // the test: it is aborted, and the console error counts)
  const p = await context.newPage();
  watch(p);
  await p.route('**/api/**', (route) => route.abort());
  use(p);
  await p.goto(`${base}?offline`);
  await playOffline('offline');
  await playVariant('offline-variant');
  await p.close();
  assert.deepEqual(problems, []);
});

test('with no API answering, the page falls back to WebAssembly by itself', { timeout: 60000 }, async () => {
  const p = await context.newPage();
  // the one failed request that tells the page there is no API
  watch(p, (msg) => /Failed to load resource/.test(msg.text()) && msg.location().url.includes('/api/'));
  await p.route('**/api/**', (route) => route.abort());
  use(p);
  await p.goto(base);
  await p.getByRole('textbox', { name: 'Puzzle', exact: true }).fill(PUZZLE);
  await button('Load').click();
  await page.getByLabel('Method', { exact: true }).selectOption('auto');
  await button('Solve').click();
  await p.locator('#result', { hasText: 'fast: unique' }).waitFor();
  assert.equal(await boardLine(), SOLUTION);
  assert.match(await p.locator('#engine').textContent(), /WebAssembly/);
  await p.close();
  assert.deepEqual(problems, []);
});

test('the first load is under 500 KB and fetches the WebAssembly engine only when needed', { timeout: 60000 }, async () => {
  const p = await context.newPage();
  watch(p);
  const bodies = [];
  p.on('response', (res) => bodies.push(res.body().then((b) => [res.url(), b.length], () => [res.url(), 0])));
  await p.goto(base);
  await p.getByRole('gridcell', { name: 'r9c9', exact: true }).waitFor();
  await p.waitForLoadState('networkidle');
  const first = await Promise.all(bodies);
  const total = first.reduce((s, [, n]) => s + n, 0);
  console.log(`first load: ${first.length} files, ${total} bytes`);
  assert.ok(total < 500_000, `first load ${total} bytes: ${JSON.stringify(first)}`);
  assert.ok(!first.some(([url]) => url.includes('/engine/')), 'the engine was fetched on first load');
  // the engine's files, when the page goes offline
  bodies.length = 0;
  await p.goto(`${base}?offline`);
  await p.getByRole('textbox', { name: 'Puzzle', exact: true }).fill(PUZZLE);
  await p.getByRole('button', { name: 'Load', exact: true }).click();
  await p.getByRole('button', { name: 'Solve', exact: true }).click();
  await p.locator('#result', { hasText: ': unique' }).waitFor();
  const engine = (await Promise.all(bodies)).filter(([url]) => url.includes('/engine/'));
  console.log(`offline engine: ${JSON.stringify(engine.map(([url, n]) => [new URL(url).pathname, n]))}`);
  assert.equal(engine.length, 2);
  await p.close();
  assert.deepEqual(problems, []);
});
