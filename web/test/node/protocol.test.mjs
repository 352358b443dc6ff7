// The protocol contract of the WebAssembly build, as tests/protocol.rs and tests/cecp.rs
// check it for the native binary: `node web/dist/chariot.mjs` as a child process (UCI, UCCI,
// CECP; bad input; `isready`/`stop`/`quit` mid-search), the JavaScript API (`Chariot.start`,
// `onLine`, `send`), and the `bench` and `perft` commands. Every search is bounded by depth
// or nodes, or ended by `stop`; clock bounds allow five times a quiet machine's need.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { Proc, CHARIOT, DIST, TIMEOUT, allowed, errors, assertLegalBestmove, requireDist } from './engine.mjs';

/** The native binary's bench signature, which the wasm build's must equal. */
function nativeBench() {
  const target = process.env.CARGO_TARGET_DIR || new URL('../../../target', import.meta.url).pathname;
  const native = `${target}/release/chariot`;
  const r = spawnSync(native, ['bench'], { encoding: 'utf8', timeout: 5 * TIMEOUT });
  assert.ok(!r.error, `cannot run ${native} (build it with cargo build --release): ${r.error}`);
  const m = /Bench: (\d+) nodes/.exec(r.stdout);
  assert.ok(m, r.stdout + r.stderr);
  return Number(m[1]);
}
const MATED = '3k5/9/9/9/3R5/9/9/9/9/4K4 b - - 0 1';
const START_FEN = 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1';

/** Runs `node chariot.mjs args` to its end; its stdout. */
function run(args) {
  requireDist();
  const r = spawnSync(process.execPath, [CHARIOT, ...args], { encoding: 'utf8', timeout: 5 * TIMEOUT });
  assert.equal(r.status, 0, `node chariot.mjs ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

test('uci handshake, options accepted and bad ones refused with one error each', async () => {
  const e = new Proc();
  try {
    e.send('uci');
    const lines = await e.until((l) => l === 'uciok');
    assert.ok(lines[0].startsWith('id name Chariot'), lines[0]);
    assert.ok(lines.some((l) => l.startsWith('id author ')));
    for (const name of ['Hash', 'Threads', 'MultiPV', 'Ponder', 'Move Overhead', 'UCI_ShowWDL']) {
      assert.ok(lines.some((l) => l.startsWith(`option name ${name} type `)), `no option ${name}: ${lines}`);
    }
    assert.deepEqual(await e.sync(), []);
    for (const ok of [
      'setoption name Hash value 32',
      'setoption name clear hash',
      'setoption name Ponder value true',
      'setoption name MultiPV value 2',
      'setoption name Move Overhead value 50',
      'setoption name UCI_ShowWDL value true',
    ]) {
      e.send(ok);
      assert.deepEqual(await e.sync(), [], ok);
    }
    for (const bad of [
      'setoption name Hash value 0',
      'setoption name MultiPV value x',
      'setoption name Ponder value maybe',
      'setoption name Move Overhead value 5001',
      'setoption name NoSuchOption value 1',
    ]) {
      e.send(bad);
      const out = await e.sync();
      assert.equal(out.length, 1, `${bad}: ${out}`);
      assert.equal(errors(out).length, 1, `${bad}: ${out}`);
    }
    // A hash past what 32-bit memory holds is capped with a note, not a crash.
    e.send('setoption name Hash value 65536');
    const capped = await e.sync();
    assert.ok(capped.length === 1 && /using 1024 MB/.test(capped[0]), String(capped));
    // UCI_ShowWDL is still on: the info lines carry wdl.
    e.send('go depth 2');
    const out = await e.until((l) => l.startsWith('bestmove'));
    const infos = out.filter((l) => l.startsWith('info depth'));
    assert.ok(infos.length && infos.every((l) => l.includes(' wdl ')), String(infos));
    await assertLegalBestmove(e, out.at(-1));
    e.send('quit');
    assert.equal(await e.waitExit(), 0);
  } finally {
    e.kill();
  }
});

test('malformed lines get one error each and the engine keeps its position', async () => {
  const e = new Proc();
  try {
    const pos = 'position startpos moves h2e2';
    e.send(pos);
    const corpus = [
      ['frobnicate', 'unknown command'],
      ['go depth abc', 'abc'],
      ['go movetime', 'movetime'],
      ['go searchmoves zzzz', 'zzzz'],
      ['go sideways', 'sideways'],
      ['position', 'startpos'],
      ['position fen', 'FEN'],
      ['position middlegame', 'middlegame'],
      ['position startpos moves h2e2 zzzz', 'zzzz'],
      ['position startpos moves a0a5', 'a0a5'],
      ['setoption name Hash value 999999999999', '999999999999'],
      ['setoption name Threads value 0', 'Threads'],
      ['setoption', 'name'],
      ['banmoves a0a5', 'a0a5'],
      ['isready now please', 'unknown command'],
      ['position fen rnbakabnr/8/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w', 'rank 8'],
      ['position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNX w', 'letter'],
      ['position fen 3k5/9/9/9/9/9/9/RRR6/9/4K4 w', 'at most'],
      ['position fen 3k5/9/9/9/3R5/9/9/9/9/4K4 w', 'in check'],
      ['position fen 3k5/9/9/9/9/9/9/9/9/4K4 x', 'side'],
      ['position fen 4k4/9/9/9/9/9/9/9/9/4K4 w', 'face'],
      // Longer than the engine takes (64 KiB), and longer than the wrapper's input ring.
      [`position startpos moves ${'h2e2 '.repeat(1 << 18)}`, 'longer than'],
    ];
    for (const [line, what] of corpus) {
      e.send(line);
      const out = await e.sync();
      const shown = line.slice(0, 60);
      assert.equal(out.length, 1, `'${shown}' gave ${out}`);
      assert.equal(errors(out).length, 1, `'${shown}' gave ${out}`);
      assert.ok(out[0].includes(what), `'${shown}': the error does not name '${what}': ${out[0]}`);
      e.send('go depth 1');
      await assertLegalBestmove(e, await e.bestmove(), pos);
    }
    // Bytes that are not UTF-8 (the wrapper's line reader makes them U+FFFD): one error.
    e.sendRaw(Buffer.from([0x67, 0x6f, 0x20, 0xff, 0xfe, 0x0a]));
    assert.equal(errors(await e.sync()).length, 1);
    // Blank lines are ignored; CRLF endings work.
    e.sendRaw('\n   \n\t\r\n \r\n');
    assert.deepEqual(await e.sync(), []);
    e.sendRaw('position startpos moves h2e2 h9g7\r\ngo depth 1\r\n');
    await assertLegalBestmove(e, await e.bestmove(), 'position startpos moves h2e2 h9g7');
    e.send('quit');
    assert.equal(await e.waitExit(), 0);
  } finally {
    e.kill();
  }
});

test('one legal bestmove per go: depth, nodes, movetime, mate, no legal move', async () => {
  const e = new Proc();
  try {
    for (const go of ['go depth 1', 'go depth 4', 'go nodes 1', 'go nodes 5000', 'go depth 3 nodes 3000', 'go wtime 2000 btime 2000 winc 10 binc 10 depth 3']) {
      e.send(go);
      const out = await e.until((l) => l.startsWith('bestmove'));
      assert.equal(out.filter((l) => l.startsWith('bestmove')).length, 1);
      await assertLegalBestmove(e, out.at(-1));
      assert.deepEqual(errors(await e.sync()), [], go);
    }
    // movetime is kept: not much less, not much more.
    const { lines, took } = await e.timed('go movetime 300', (l) => l.startsWith('bestmove'));
    await assertLegalBestmove(e, lines.at(-1));
    assert.ok(took >= 250 && took < allowed(300), `go movetime 300 took ${took} ms`);
    // Mate in one is found; a mated side answers bestmove (none).
    e.send('position fen 3k5/9/9/9/9/9/9/9/R8/4K4 w - - 0 1');
    e.send('go depth 3');
    const mate = await e.until((l) => l.startsWith('bestmove'));
    assert.ok(mate.some((l) => / score mate 1 /.test(l)), String(mate));
    await assertLegalBestmove(e, mate.at(-1), 'position fen 3k5/9/9/9/9/9/9/9/R8/4K4 w - - 0 1');
    e.send(`position fen ${MATED}`);
    e.send('go depth 2');
    const none = await e.bestmove();
    assert.ok(/^bestmove (\(none\)|0000)/.test(none), none);
    e.send('quit');
    assert.equal(await e.waitExit(), 0);
  } finally {
    e.kill();
  }
});

test('isready is answered during go infinite; stop gives exactly one bestmove; ponderhit', async () => {
  const e = new Proc();
  try {
    await e.sync();
    e.send('go infinite');
    const early = await e.quiet(300);
    assert.ok(!early.some((l) => l.startsWith('bestmove')), String(early));
    let worst = 0;
    for (let i = 0; i < 5; i++) {
      const { lines, took } = await e.timed('isready', (l) => l === 'readyok');
      assert.ok(!lines.some((l) => l.startsWith('bestmove')), String(lines));
      worst = Math.max(worst, took);
      await e.quiet(30);
    }
    e.send('uci');
    await e.until((l) => l === 'uciok');
    const { lines, took: stopTook } = await e.timed('stop', (l) => l.startsWith('bestmove'));
    await assertLegalBestmove(e, lines.at(-1));
    console.log(`mid-search latency: isready worst ${worst.toFixed(1)} ms, stop ${stopTook.toFixed(1)} ms`);
    assert.ok(worst < allowed(10), `isready took ${worst} ms`);
    assert.ok(stopTook < allowed(10), `stop took ${stopTook} ms`);
    // No second bestmove; stop and ponderhit with no search are ignored.
    e.send('stop');
    e.send('ponderhit');
    assert.deepEqual(await e.sync(), []);
    // A search that ends by itself holds its bestmove under infinite.
    e.send('go infinite depth 1');
    assert.ok(!(await e.quiet(300)).some((l) => l.startsWith('bestmove')));
    e.send('stop');
    await assertLegalBestmove(e, await e.bestmove());
    // Ponder, then ponderhit: the clock counts from the ponderhit.
    e.send('position startpos moves h2e2');
    e.send('go ponder wtime 400 btime 400');
    assert.ok(!(await e.quiet(500)).some((l) => l.startsWith('bestmove')));
    const hit = await e.timed('ponderhit', (l) => l.startsWith('bestmove'));
    await assertLegalBestmove(e, hit.lines.at(-1), 'position startpos moves h2e2');
    assert.ok(hit.took < allowed(100), `ponderhit with 400 ms left: ${hit.took} ms`);
    // A new go mid-search ends the old search first: one bestmove each.
    e.send('go infinite');
    await e.quiet(100);
    e.send('go depth 1');
    const two = await e.until((l) => l.startsWith('bestmove'));
    const second = await e.bestmove();
    assert.equal(two.filter((l) => l.startsWith('bestmove')).length, 1);
    await assertLegalBestmove(e, second, 'position startpos moves h2e2');
    assert.ok(!(await e.sync()).some((l) => l.startsWith('bestmove')));
    // quit mid-search ends the process.
    e.send('go infinite');
    await e.quiet(200);
    const t = performance.now();
    e.send('quit');
    assert.equal(await e.waitExit(), 0);
    assert.ok(performance.now() - t < allowed(100), `quit took ${performance.now() - t} ms`);
  } finally {
    e.kill();
  }
});

test('end of input means quit, also mid-search', async () => {
  const e = new Proc();
  try {
    e.send('go infinite');
    await e.quiet(200);
    e.child.stdin.end();
    assert.equal(await e.waitExit(), 0);
  } finally {
    e.kill();
  }
});

test('UCCI: ucciok, options, banmoves, nobestmove, bye', async () => {
  const e = new Proc();
  try {
    e.send('ucci');
    const lines = await e.until((l) => l === 'ucciok');
    assert.ok(lines[0].startsWith('id name Chariot'));
    assert.ok(lines.includes('option hashsize type spin min 0 max 65536 default 16'), String(lines));
    for (const ok of ['setoption hashsize 32', 'setoption ponder false', 'setoption newgame']) {
      e.send(ok);
      assert.deepEqual(await e.sync(), [], ok);
    }
    e.send('setoption nosuch 1');
    assert.equal(errors(await e.sync()).length, 1);
    e.send('position startpos');
    e.send('go depth 2');
    const out = await e.until((l) => l.startsWith('bestmove'));
    for (const l of out.filter((l) => l.startsWith('info depth'))) {
      const w = l.split(' ');
      assert.deepEqual([w[3], w[5]], ['score', 'pv'], l);
    }
    await assertLegalBestmove(e, out.at(-1));
    // Every move but one banned: that one is played.
    e.send('position startpos');
    e.send('go perft 1');
    const divide = await e.until((l) => l.startsWith('Nodes searched'));
    const legal = divide.filter((l) => /^[a-i]\d[a-i]\d: /.test(l)).map((l) => l.slice(0, 4));
    assert.equal(legal.length, 44, String(divide));
    e.send(`banmoves ${legal.filter((m) => m !== 'c3c4').join(' ')}`);
    e.send('go depth 2');
    assert.equal((await e.bestmove()).split(' ')[1], 'c3c4');
    e.send(`position fen ${MATED}`);
    e.send('go depth 2');
    await e.until((l) => l === 'nobestmove');
    e.send('quit');
    await e.until((l) => l === 'bye');
    assert.equal(await e.waitExit(), 0);
  } finally {
    e.kill();
  }
});

test('CECP: features, ping, a reply move, one clear answer to bad input', async () => {
  const e = new Proc();
  const ping = async (n) => {
    e.send(`ping ${n}`);
    return e.until((l) => l === `pong ${n}`);
  };
  try {
    e.send('xboard');
    e.send('protover 2');
    const features = (await e.until((l) => l === 'feature done=1')).join('\n');
    for (const f of ['variants="xiangqi"', 'setboard=1', 'usermove=1', 'ping=1', 'myname="Chariot']) {
      assert.ok(features.includes(f), `${f} missing in ${features}`);
    }
    e.send('new');
    e.send('variant xiangqi');
    e.send('sd 2');
    assert.deepEqual(await ping(1), ['pong 1']);
    e.send('usermove h2e2');
    const out = await e.until((l) => l.startsWith('move '));
    const reply = out.at(-1).slice(5);
    e.send('force');
    for (const [line, answer] of [
      ['usermove e0e2', 'Illegal move: e0e2'],
      ['frobnicate 3', 'Error (unknown command): frobnicate 3'],
      ['sd 0', 'Error (depth must be at least 1): sd 0'],
      ['variant shogi', 'Error (unsupported variant, only xiangqi): variant shogi'],
    ]) {
      e.send(line);
      assert.deepEqual(await ping(9), [answer, 'pong 9'], line);
    }
    // The board holds the game: h2e2 and the engine's reply.
    e.send('quit');
    assert.equal(await e.waitExit(), 0);
    const check = new Proc();
    try {
      await assertLegalBestmove(check, `bestmove ${reply}`, 'position startpos moves h2e2');
      check.send('quit');
      await check.waitExit();
    } finally {
      check.kill();
    }
  } finally {
    e.kill();
  }
});

test('bench signature and perft counts equal the native ones', () => {
  const bench = run(['bench']);
  const m = /Bench: (\d+) nodes/.exec(bench);
  assert.ok(m, bench);
  assert.equal(Number(m[1]), nativeBench(), bench);
  // tests/data/perft.txt: the start position and CPW-2.
  assert.match(run(['perft', '3']), /Nodes searched: 79666\b/);
  assert.match(
    run(['perft', '3', '--fen', 'r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1']),
    /Nodes searched: 43929\b/,
  );
  const divide = run(['perft', '2', '--divide']);
  assert.equal(divide.split('\n').filter((l) => /^[a-i]\d[a-i]\d: \d+$/.test(l)).length, 44);
  assert.match(divide, /Nodes searched: 1920\b/);
  // The kernels are the build's vector ones.
  const e = spawnSync(process.execPath, [CHARIOT], { input: `position fen ${START_FEN}\nd\nquit\n`, encoding: 'utf8', timeout: TIMEOUT });
  assert.match(e.stdout, /^Kernels: SIMD128$/m, e.stdout);
});

test('the JavaScript API: Chariot.start, onLine, send', async () => {
  requireDist();
  const { Chariot } = await import(DIST + 'chariot.mjs');
  const engine = await Chariot.start();
  try {
    const lines = [];
    let wake = null;
    engine.onLine((l) => {
      lines.push(l);
      if (wake) wake();
    });
    const until = async (pred) => {
      const deadline = Date.now() + TIMEOUT;
      for (;;) {
        const i = lines.findIndex(pred);
        if (i >= 0) return lines.splice(0, i + 1);
        assert.ok(Date.now() < deadline, `timed out; got ${lines.slice(-10)}`);
        await new Promise((r) => {
          wake = r;
          setTimeout(r, 100);
        });
      }
    };
    engine.send('uci');
    assert.ok((await until((l) => l === 'uciok'))[0].startsWith('id name Chariot'));
    engine.send('position startpos moves h2e2\ngo depth 3');
    const out = await until((l) => l.startsWith('bestmove'));
    assert.ok(out.some((l) => l.startsWith('info depth 3 ')), String(out));
    engine.send('go infinite');
    engine.send('isready');
    await until((l) => l === 'readyok');
    engine.send('stop');
    const best = (await until((l) => l.startsWith('bestmove'))).at(-1).split(' ')[1];
    engine.send(`position startpos moves h2e2 ${best}`);
    engine.send('isready');
    assert.deepEqual(errors(await until((l) => l === 'readyok')), []);
    const quit = new Promise((r) => engine.onQuit(r));
    engine.send('quit');
    await quit;
  } finally {
    engine.terminate();
  }
});
