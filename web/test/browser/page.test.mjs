// The page in a real browser (Debian's chromium, headless, driven by puppeteer-core): plays a
// game by clicks and one drag against the engine at a small node budget, checks every engine
// move is legal and the drawn board agrees with a separate engine's `d` (the Node command,
// `node web/dist/chariot.mjs`), starts and stops an infinite analysis, reviews a game file
// (marks, graph, the game end announced), refuses an unreadable file keeping the game, saves
// the game as PGN and reviews the saved file, and looks at a phone-sized screen.
// Screenshots go to web/test-output/. Run: node web/test/browser/page.test.mjs
// (CHROMIUM=/path/to/chromium to pick another browser; HEADFUL=1 to watch).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import puppeteer from 'puppeteer-core';
import { serve } from '../../serve.mjs';

const web = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dist = path.join(web, 'dist');
const outDir = path.join(web, 'test-output');
const data = path.join(web, 'test', 'data');
const PLIES = Number(process.env.PLIES || 24);
const NODES = 1500;
fs.mkdirSync(outDir, { recursive: true });
const t0 = Date.now();
const log = (...a) => console.log(`[${((Date.now() - t0) / 1000).toFixed(1)}s]`, ...a);

// ---- a separate engine: the Node command --------------------------------------------------
function referee() {
  const p = spawn(process.execPath, [path.join(dist, 'chariot.mjs')], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = [];
  let waiter = null;
  readline.createInterface({ input: p.stdout }).on('line', (l) => {
    lines.push(l);
    if (waiter && waiter.until(l)) {
      const w = waiter;
      waiter = null;
      w.resolve(lines.splice(0));
    }
  });
  const ask = (text, until, ms = 20000) =>
    new Promise((resolve, reject) => {
      lines.length = 0;
      const timer = setTimeout(() => reject(new Error(`the referee engine did not answer '${text}'`)), ms);
      waiter = { until, resolve: (x) => (clearTimeout(timer), resolve(x)) };
      p.stdin.write(text + '\n');
    });
  return { ask, quit: () => p.stdin.end() };
}

const FILES = 'abcdefghi';
function boardField(pieces) {
  // pieces: [[square, letter]] as drawn on the page → the FEN's board field.
  const at = new Map(pieces);
  const ranks = [];
  for (let r = 9; r >= 0; r--) {
    let s = '';
    let empty = 0;
    for (let f = 0; f < 9; f++) {
      const p = at.get(FILES[f] + r);
      if (!p) empty++;
      else {
        if (empty) s += empty;
        empty = 0;
        s += p;
      }
    }
    if (empty) s += empty;
    ranks.push(s);
  }
  return ranks.join('/');
}

async function main() {
  const server = await serve(dist, 0);
  const base = `http://127.0.0.1:${server.address().port}/`;
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'chariot-chromium-'));
  const downloads = fs.mkdtempSync(path.join(os.tmpdir(), 'chariot-downloads-'));
  const browser = await puppeteer.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: !process.env.HEADFUL,
    userDataDir,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'].filter((a) => a !== '--headless' || !process.env.HEADFUL),
  });
  const ref = referee();
  const errors = [];
  try {
    const page = await browser.newPage();
    page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
    page.on('console', (m) => m.type() === 'error' && errors.push(`console: ${m.text()}`));
    await page.setViewport({ width: 1200, height: 900 });
    await page.goto(`${base}?nodes=${NODES}&reviewNodes=${NODES}&side=red`);
    await page.waitForSelector('body[data-ready="true"]', { timeout: 30000 });
    assert.equal(await page.evaluate(() => crossOriginIsolated), true, 'the page is cross-origin isolated (COOP/COEP)');
    assert.equal(await page.evaluate(() => window.chariotPage.engine.shared), true, 'the engine reads input through a SharedArrayBuffer');
    log('page ready at', base);

    const pageMoves = () => page.evaluate(() => window.chariotPage.state.moves.slice());
    const drawn = () => page.$$eval('#pieces .piece', (g) => g.map((e) => [e.dataset.sq, e.dataset.piece]));
    const side = () => page.$eval('#board', (s) => s.dataset.side);
    const center = async (sel) => {
      const b = await (await page.$(sel)).boundingBox();
      return [b.x + b.width / 2, b.y + b.height / 2];
    };
    const clickSquare = async (sq) => {
      const [x, y] = await center(`#squares .sq[data-sq="${sq}"]`);
      await page.mouse.click(x, y);
    };
    const legalOf = async (moves) => {
      const out = await ref.ask(`position startpos${moves.length ? ' moves ' + moves.join(' ') : ''}\ngo perft 1`, (l) => l.startsWith('Nodes searched'));
      const err = out.find((l) => l.startsWith('info string error'));
      assert.ok(!err, `the referee refused the page's moves: ${err}`);
      return out.filter((l) => /^[a-i]\d[a-i]\d: /.test(l)).map((l) => l.slice(0, 4));
    };
    const refFen = async (moves) => {
      const out = await ref.ask(`position startpos${moves.length ? ' moves ' + moves.join(' ') : ''}\nd`, (l) => l.startsWith('Outcome:'));
      return { fen: out.find((l) => l.startsWith('Fen: ')).slice(5), outcome: out.find((l) => l.startsWith('Outcome: ')).slice(9) };
    };
    const checkBoard = async (moves, what) => {
      const { fen, outcome } = await refFen(moves);
      const board = boardField(await drawn());
      assert.equal(board, fen.split(' ')[0], `${what}: the drawn board agrees with the engine's d`);
      assert.equal(await side(), fen.split(' ')[1] === 'w' ? 'red' : 'black', `${what}: the side to move`);
      return outcome;
    };

    // ---- a game of PLIES plies by clicks (one by drag) ------------------------------------
    let moves = [];
    let legalBefore = await legalOf(moves);
    let ended = null;
    let refused = false;
    while (moves.length < PLIES) {
      await checkBoard(moves, `ply ${moves.length}`);
      const { mv } = { mv: (await ref.ask(`position startpos${moves.length ? ' moves ' + moves.join(' ') : ''}\ngo nodes 300`, (l) => l.startsWith('bestmove'))).pop().split(' ')[1] };
      assert.ok(legalBefore.includes(mv));
      const from = mv.slice(0, 2);
      const to = mv.slice(2, 4);
      if (moves.length === 2 && !refused) {
        // An illegal move is refused and changes nothing.
        await clickSquare(from);
        const targets = new Set(legalBefore.filter((m) => m.startsWith(from)).map((m) => m.slice(2)));
        const own = new Set((await drawn()).filter(([, p]) => p === p.toUpperCase()).map(([s]) => s));
        const bad = [...'abcdefghi'].flatMap((f) => [...'0123456789'].map((r) => f + r)).find((s) => !targets.has(s) && !own.has(s));
        await clickSquare(bad);
        const msg = await page.$eval('#message', (m) => (m.hidden ? '' : m.textContent));
        assert.match(msg, /not a legal move/, 'an illegal move gets a message');
        assert.deepEqual(await pageMoves(), moves, 'an illegal move is refused');
        refused = true;
      }
      if (moves.length === 4) {
        // By drag.
        const [fx, fy] = await center(`#squares .sq[data-sq="${from}"]`);
        const [tx, ty] = await center(`#squares .sq[data-sq="${to}"]`);
        await page.mouse.move(fx, fy);
        await page.mouse.down();
        await page.mouse.move((fx + tx) / 2, (fy + ty) / 2, { steps: 4 });
        await page.mouse.move(tx, ty, { steps: 4 });
        await page.mouse.up();
      } else {
        await clickSquare(from);
        const hints = await page.$$eval('#hints .hint', (h) => h.map((e) => e.dataset.to).sort());
        const expected = legalBefore.filter((m) => m.startsWith(from)).map((m) => m.slice(2)).sort();
        assert.deepEqual(hints, expected, `the legal moves of ${from} are shown`);
        await clickSquare(to);
      }
      moves.push(mv);
      const pm = await pageMoves();
      assert.deepEqual(pm.slice(0, moves.length), moves, `the page played ${mv}`);
      const afterUser = await legalOf(moves);
      // (The engine may have answered already: the board is compared after its reply.)
      const o = (await refFen(moves)).outcome;
      if (o !== 'ongoing') {
        await checkBoard(moves, `after ${mv}`);
        ended = o;
        break;
      }
      // The engine's answer.
      await page.waitForFunction((n) => window.chariotPage.state.moves.length > n, { timeout: 30000 }, moves.length);
      const reply = (await pageMoves())[moves.length];
      assert.ok(afterUser.includes(reply), `the engine's move ${reply} is legal`);
      moves.push(reply);
      await page.waitForFunction((n) => !window.chariotPage.searching() && window.chariotPage.state.moves.length === n, { timeout: 10000 }, moves.length);
      const last = await page.$$eval('#marks-layer .hl-last', (r) => r.map((e) => e.dataset.last).join(''));
      assert.equal(last, reply, 'the last move is marked');
      legalBefore = await legalOf(moves);
      const o2 = await checkBoard(moves, `after the engine's ${reply}`);
      log(`ply ${moves.length}: ${mv} ${reply}`);
      if (o2 !== 'ongoing') {
        ended = o2;
        break;
      }
    }
    assert.ok(moves.length >= 20 || ended, `a game of at least 20 plies (${moves.length})`);
    const status = await page.$eval('#status', (s) => s.textContent);
    if (ended) assert.match(status, /Game over/, 'the game end is announced');
    log(`played ${moves.length} plies through the page${ended ? `, ended: ${ended}` : ''}`);

    // ---- take back, flip --------------------------------------------------------------------
    await page.click('#takeback');
    await page.waitForFunction((n) => window.chariotPage.state.moves.length === n - 2 && !window.chariotPage.searching(), { timeout: 10000 }, moves.length);
    await checkBoard(moves.slice(0, -2), 'after take back');
    await page.click('#flip');
    await checkBoard(moves.slice(0, -2), 'flipped');
    const e0 = await center('#squares .sq[data-sq="e0"]');
    const e9 = await center('#squares .sq[data-sq="e9"]');
    assert.ok(e0[1] < e9[1], 'the flipped board shows Red at the top');
    await page.click('#flip');
    // Play the two plies again so the game is whole.
    await clickSquare(moves[moves.length - 2].slice(0, 2));
    await clickSquare(moves[moves.length - 2].slice(2, 4));
    await page.waitForFunction((n) => window.chariotPage.state.moves.length >= n && !window.chariotPage.searching(), { timeout: 30000 }, moves.length);
    moves = await pageMoves();
    await checkBoard(moves, 'replayed');

    // ---- infinite analysis: start, lines and eval bar, stop --------------------------------
    await page.select('#multipv', '2');
    await page.click('#analyse');
    await page.waitForFunction(() => document.querySelectorAll('#lines li').length >= 2 && /d([6-9]|\d\d)/.test(document.querySelector('#lines li .depth').textContent), { timeout: 60000 });
    const lines = await page.$$eval('#lines li', (l) => l.map((e) => e.textContent));
    const score = await page.$eval('#evalbar', (e) => e.dataset.score);
    assert.ok(score && /^[+#-]/.test(score), `the evaluation bar shows a score (${score})`);
    const pvs = await page.$$eval('#lines li', (l) => l.map((e) => e.dataset.pv.split(' ')));
    const legalNow = await legalOf(moves);
    for (const pv of pvs) assert.ok(legalNow.includes(pv[0]), `the analysis line starts with a legal move (${pv[0]})`);
    log('analysis:', lines.join(' | '), 'eval bar', score);
    await page.screenshot({ path: path.join(outDir, 'game.png') });
    const t = Date.now();
    await page.click('#analyse');
    await page.waitForFunction(() => !window.chariotPage.searching(), { timeout: 5000 });
    const stopMs = Date.now() - t;
    assert.ok(!(await page.evaluate(() => window.chariotPage.state.analysing)), 'the analysis stopped');
    log(`analysis stopped in ${stopMs} ms (click to bestmove)`);
    await page.select('#multipv', '1');

    // ---- save the game as PGN -------------------------------------------------------------
    const cdp = await page.createCDPSession();
    await cdp.send('Browser.setDownloadBehavior', { behavior: 'allow', downloadPath: downloads });
    await page.click('#save');
    let saved = null;
    for (let i = 0; i < 100 && !saved; i++) {
      await new Promise((r) => setTimeout(r, 100));
      saved = fs.readdirSync(downloads).find((f) => f.endsWith('.pgn'));
    }
    assert.ok(saved, 'the game is saved as a PGN download');
    const pgn = fs.readFileSync(path.join(downloads, saved), 'utf8');
    fs.copyFileSync(path.join(downloads, saved), path.join(outDir, 'saved.pgn'));
    assert.match(pgn, /\[Format "WXF"\]/);
    log(`saved ${saved} (${pgn.length} bytes)`);

    // ---- an unreadable file: one message, the game kept -----------------------------------
    const fenBefore = await page.$eval('#board', (s) => s.dataset.fen);
    await (await page.$('#open')).uploadFile(path.join(data, 'broken.pgn'));
    await page.waitForFunction(() => /Cannot open/.test(document.getElementById('message').textContent) && !document.getElementById('message').hidden, { timeout: 30000 });
    const msg = await page.$eval('#message', (m) => m.textContent);
    assert.match(msg, /broken\.pgn/);
    assert.match(msg, /game in progress is kept/);
    assert.deepEqual(await pageMoves(), moves, 'the game in progress is kept');
    assert.equal(await page.$eval('#board', (s) => s.dataset.fen), fenBefore);
    await checkBoard(moves, 'after the unreadable file');
    log('unreadable file:', msg);

    // ---- the saved PGN reviews to the same game -------------------------------------------
    await (await page.$('#open')).uploadFile(path.join(downloads, saved));
    await page.waitForFunction(() => !document.getElementById('review').hidden, { timeout: 60000 });
    assert.deepEqual(await pageMoves(), moves, 'the saved PGN holds the game played');

    // ---- review a game file: marks, better lines, graph, game end ----------------------------
    const reviewed = fs.readFileSync(path.join(data, 'review.pgn'), 'utf8');
    const fileMoves = reviewed.split('\n\n')[1].trim().split(/\s+/).slice(0, -1);
    const rt = Date.now();
    await page.evaluate(() => (window.chariotPage.state.review = null));
    await (await page.$('#open')).uploadFile(path.join(data, 'review.pgn'));
    await page.waitForFunction((n) => window.chariotPage.state.review && window.chariotPage.state.moves.length === n, { timeout: 120000 }, fileMoves.length);
    log(`reviewed ${fileMoves.length} plies in ${Date.now() - rt} ms`);
    const marks = await page.$$eval('#marks tbody tr', (r) => r.map((e) => [...e.children].map((c) => c.textContent)));
    assert.ok(marks.length > 0, 'the review marks moves');
    for (const m of marks) {
      assert.match(m[2], /^(\?!|\?|\?\?)$/, `a mark (${m.join(' ')})`);
      assert.ok(m[3].length > 0, 'a better line');
    }
    const graph = await page.$eval('#graph-line', (p) => p.getAttribute('points').trim().split(/\s+/).length);
    assert.equal(graph, fileMoves.length + 1, 'the graph has a point for every ply');
    assert.equal(await page.$$eval('#graph .graph-mark', (c) => c.length), marks.length, 'the graph shows the marks');
    const reviewStatus = await page.$eval('#status', (s) => s.textContent);
    assert.match(reviewStatus, /Game over: Red wins \(checkmate\)/, 'the game end is announced by the rules');
    log(`marks: ${marks.length} (${marks.slice(0, 3).map((m) => m.join(' ')).join('; ')} …)`);
    // Jump to a marked move: the board shows the position before it.
    const row = `#marks tbody tr:nth-child(${Math.min(marks.length, 8)})`;
    await page.click(row);
    const ply = Number(await page.$eval(row, (r) => r.dataset.ply)) - 1;
    const tags = reviewed.match(/\[FEN "([^"]+)"\]/)[1];
    const { fen } = await (async () => {
      const out = await ref.ask(`position fen ${tags} moves ${fileMoves.slice(0, ply).join(' ')}\nd`, (l) => l.startsWith('Outcome:'));
      return { fen: out.find((l) => l.startsWith('Fen: ')).slice(5) };
    })();
    assert.equal(boardField(await drawn()), fen.split(' ')[0], 'the reviewed position agrees with the engine');
    await page.screenshot({ path: path.join(outDir, 'review.png'), fullPage: true });

    // ---- a phone-sized screen -------------------------------------------------------------
    // (isMobile or hasTouch would reload the page; the width is what the layout sees.)
    await page.setViewport({ width: 390, height: 844, deviceScaleFactor: 2 });
    await new Promise((r) => setTimeout(r, 300));
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `no sideways scrolling on a phone (${overflow} px too wide)`);
    const bw = await page.$eval('#board', (b) => b.getBoundingClientRect().width);
    assert.ok(bw > 250, `the board fills the phone's width (${bw} px)`);
    await page.screenshot({ path: path.join(outDir, 'phone.png') });

    // ---- without cross-origin isolation: stop restarts the worker, the page goes on ---------
    const plain = await serve(dist, 0, '127.0.0.1', { isolate: false });
    try {
      const p2 = await browser.newPage();
      p2.on('pageerror', (e) => errors.push(`page error (not isolated): ${e.message}`));
      await p2.setViewport({ width: 1200, height: 900 });
      await p2.goto(`http://127.0.0.1:${plain.address().port}/?nodes=${NODES}&side=red`);
      await p2.waitForSelector('body[data-ready="true"]', { timeout: 30000 });
      assert.equal(await p2.evaluate(() => crossOriginIsolated), false);
      assert.equal(await p2.evaluate(() => window.chariotPage.engine.shared), false, 'no SharedArrayBuffer without isolation');
      await p2.click('#analyse');
      await p2.waitForFunction(() => document.querySelectorAll('#lines li').length >= 1, { timeout: 30000 });
      const ts = Date.now();
      await p2.click('#analyse');
      await p2.waitForFunction(() => !window.chariotPage.searching(), { timeout: 10000 });
      const stop2 = Date.now() - ts;
      // A move right after the stop: the restarted engine answers it.
      const sq = async (s2) => {
        const b = await (await p2.$(`#squares .sq[data-sq="${s2}"]`)).boundingBox();
        await p2.mouse.click(b.x + b.width / 2, b.y + b.height / 2);
      };
      await sq('h2');
      await sq('e2');
      await p2.waitForFunction(() => window.chariotPage.state.moves.length === 2 && !window.chariotPage.searching(), { timeout: 30000 });
      const m2 = await p2.evaluate(() => window.chariotPage.state.moves.slice());
      assert.ok((await legalOf(['h2e2'])).includes(m2[1]), 'the restarted engine answers with a legal move');
      // Analysis, then a review at once: the review waits for the restarted worker.
      await p2.click('#analyse');
      await p2.waitForFunction(() => document.querySelectorAll('#lines li').length >= 1, { timeout: 30000 });
      await (await p2.$('#open')).uploadFile(path.join(data, 'review.pgn'));
      await p2.waitForFunction(() => window.chariotPage.state.review, { timeout: 120000 });
      log(`not isolated: analysis stopped in ${stop2} ms by restarting the worker; then ${m2.join(' ')}; a review after an analysis works`);
      await p2.close();
    } finally {
      plain.close();
    }

    assert.deepEqual(errors, [], 'no errors on the page');
    log('ok: screenshots in', outDir);
  } finally {
    ref.quit();
    await browser.close();
    server.close();
    fs.rmSync(userDataDir, { recursive: true, force: true });
    fs.rmSync(downloads, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error('FAIL', e && e.stack ? e.stack : e);
    process.exit(1);
  },
);
