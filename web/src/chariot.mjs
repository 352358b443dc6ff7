// Chariot, the xiangqi engine, as WebAssembly: `const engine = await Chariot.start();
// engine.onLine(l => …); engine.send('uci')` speaks the same UCI/UCCI/CECP text as the native
// binary. The engine runs in a worker (a Web Worker, or worker_threads under Node).
//
// Run as a program (`node chariot.mjs`), it reads the protocol on stdin and writes to
// stdout; `node chariot.mjs bench [depth]` and `node chariot.mjs perft <depth> [--fen FEN]
// [--divide]` work as the native binary's subcommands.
const isNode = typeof process !== 'undefined' && !!(process.versions && process.versions.node) && typeof window === 'undefined';
const here = new URL('.', import.meta.url);
let modulePromise = null;

/** Compiles chariot.wasm from a URL (fetch) or a path (Node). */
export async function loadModule(url) {
  if (isNode) {
    const fs = await import('node:fs/promises');
    return WebAssembly.compile(await fs.readFile(url));
  }
  const res = await fetch(url);
  if (!res.ok) throw new Error(`cannot load ${url}: ${res.status}`);
  return WebAssembly.compile(await res.arrayBuffer());
}

async function makeWorker(url) {
  if (isNode) {
    const { Worker } = await import('node:worker_threads');
    const w = new Worker(url);
    return {
      post: (m) => w.postMessage(m),
      on: (f) => w.on('message', f),
      onError: (f) => w.on('error', f),
      terminate: () => w.terminate(),
      unref: () => w.unref(),
    };
  }
  const w = new Worker(url, { type: 'module' });
  return {
    post: (m) => w.postMessage(m),
    on: (f) => (w.onmessage = (e) => f(e.data)),
    onError: (f) => (w.onerror = (e) => f(e)),
    terminate: () => w.terminate(),
    unref: () => {},
  };
}

const RING = 1 << 20;
/** Past src/protocol/command.rs's MAX_LINE: any longer line is refused. */
const LONGEST = 64 * 1024 + 1;

/** One engine: a worker running the WebAssembly module. */
export class Chariot {
  /**
   * Starts an engine. Options: `wasm` (URL of chariot.wasm), `worker` (URL of worker.mjs).
   * Resolves once the engine reads commands.
   */
  static async start(options = {}) {
    const wasmUrl = options.wasm || new URL('chariot.wasm', here);
    const workerUrl = options.worker || new URL('worker.mjs', here);
    if (!modulePromise || options.wasm) modulePromise = loadModule(wasmUrl);
    const e = new Chariot(await modulePromise, workerUrl);
    await e._boot();
    return e;
  }

  constructor(module, workerUrl) {
    this.module = module;
    this.workerUrl = workerUrl;
    this.listeners = [];
    this.quitListeners = [];
    /** Whether `stop`/`isready` reach a running search (SharedArrayBuffer present). */
    this.shared = typeof SharedArrayBuffer !== 'undefined' && (isNode || globalThis.crossOriginIsolated === true);
    this.searching = false;
    this.lastPv = null;
    this.replay = []; // without SharedArrayBuffer: the lines that rebuild the state
    this.backlog = [];
    this.reviews = [];
    this.closed = false;
  }

  async _boot() {
    this.worker = await makeWorker(this.workerUrl);
    if (this.shared) {
      this.sab = new SharedArrayBuffer(8 + RING);
      this.head = new Int32Array(this.sab, 0, 2);
      this.data = new Uint8Array(this.sab, 8);
    }
    const ready = new Promise((resolve) => (this._ready = resolve));
    this.worker.on((m) => this._message(m));
    this.worker.onError((err) => this._emit(`info string error: the engine stopped: ${err && err.message ? err.message : err}`));
    this.worker.post({ init: true, module: this.module, sab: this.sab });
    await ready;
  }

  _message(m) {
    if (m.ready) return this._ready();
    if (m.lines) for (const l of m.lines) this._line(l);
    if (m.quit) {
      this.closed = true;
      this.worker.terminate();
      for (const f of this.quitListeners) f();
    }
    if (m.crash) {
      this._emit(`info string error: the engine crashed (${m.crash}); restarting it`);
      this._restart();
    }
  }

  _line(l) {
    if (l.startsWith('review ')) {
      const r = this.reviews.shift();
      if (r) r(JSON.parse(l.slice(7)));
      return;
    }
    if (l.startsWith('info ') && l.includes(' pv ')) this.lastPv = l.split(' pv ')[1].split(' ')[0];
    if (l.startsWith('bestmove') || l.startsWith('nobestmove')) this.searching = false;
    this._emit(l);
  }

  _emit(l) {
    for (const f of this.listeners) f(l);
  }

  /** Calls `f(line)` for every output line. */
  onLine(f) {
    this.listeners.push(f);
  }

  /** Calls `f()` once the engine has quit. */
  onQuit(f) {
    this.quitListeners.push(f);
  }

  /** Sends one or more lines of the protocol. */
  send(text) {
    if (this.closed) return;
    for (const line of String(text).split('\n')) this._send(line.replace(/\r$/, ''));
  }

  _send(line) {
    // The engine refuses a line over MAX_LINE (64 KiB) as too long; a longer one is cut to
    // just over that (still refused), so it always fits the ring and never stalls input.
    if (line.length > LONGEST) line = line.slice(0, LONGEST);
    const word = line.trim().split(/\s+/)[0];
    if (this.restarting) {
      // A fresh worker is starting (after a stop without SharedArrayBuffer): its turn comes.
      this.held.push(line);
      return;
    }
    if (!this.shared) {
      // No SharedArrayBuffer: the running search cannot read input. `stop` ends it by
      // ending the worker: the answer is the last reported PV move, and a fresh worker
      // gets the options and position back. `isready` is answered here.
      if (this.searching && word === 'stop') return this._hardStop();
      if (this.searching && word === 'isready') return this._emit('readyok');
      if (word === 'setoption' || word === 'uci' || word === 'ucci') this.replay.push(line);
      if (word === 'position' || word === 'startpos' || word === 'fen') {
        this.replay = this.replay.filter((l) => !/^\s*(position|startpos|fen)\b/.test(l));
        this.replay.push(line);
      }
      if (word === 'go' && !/\bperft\b/.test(line)) {
        this.searching = true;
        this.lastPv = null;
      }
      this.worker.post({ line });
      return;
    }
    if (word === 'go' && !/\bperft\b/.test(line)) this.searching = true;
    this.backlog.push(line + '\n');
    this._flush();
  }

  _flush() {
    while (this.backlog.length) {
      const bytes = new TextEncoder().encode(this.backlog[0]);
      const w = Atomics.load(this.head, 0);
      const r = Atomics.load(this.head, 1);
      if (bytes.length > RING - ((w - r) | 0)) {
        setTimeout(() => this._flush(), 5);
        return;
      }
      for (let i = 0; i < bytes.length; i++) this.data[((((w + i) | 0) % RING) + RING) % RING] = bytes[i];
      Atomics.store(this.head, 0, (w + bytes.length) | 0);
      this.backlog.shift();
    }
    this.worker.post({ wake: true });
  }

  async _hardStop() {
    const pv = this.lastPv;
    this.worker.terminate();
    this.searching = false;
    this.restarting = true;
    this.held = [];
    let done;
    this.restarted = new Promise((r) => (done = r));
    await this._boot();
    for (const l of this.replay) this.worker.post({ line: l });
    if (pv) this._emit(`bestmove ${pv}`);
    else {
      this.searching = true;
      this.worker.post({ line: 'go depth 1' });
    }
    this.restarting = false;
    // Lines sent meanwhile, in order (a `stop` among them acts on the `go depth 1`).
    for (const l of this.held.splice(0)) this._send(l);
    done();
  }

  async _restart() {
    this.worker.terminate();
    this.searching = false;
    await this._boot();
    for (const l of this.replay) this.worker.post({ line: l });
  }

  /**
   * Reviews the first game of a game file (PGN, XQF or CBF bytes) as `chariot analyse` does,
   * at `nodes` a position; resolves to `{ok, moves: [{ply, move, wxf, mark, better, eval}],
   * summary, pgn, svg, …}` or `{ok: false, error}`. Runs between searches.
   */
  review(bytes, nodes = 20000) {
    return new Promise((resolve) => {
      this.reviews.push(resolve);
      const copy = new Uint8Array(bytes).slice().buffer;
      const post = () => this.worker.post({ review: copy, nodes });
      if (this.restarting) this.restarted.then(post);
      else post();
    });
  }

  /** Ends the worker at once. */
  terminate() {
    this.closed = true;
    this.worker.terminate();
  }
}

export default Chariot;

// ---- `node chariot.mjs …`: the command -------------------------------------------------
async function main(args) {
  const engine = await Chariot.start();
  const out = (l) => process.stdout.write(l + '\n');
  engine.onQuit(() => process.stdout.write('', () => process.exit(0)));
  if (args[0] === 'bench') {
    engine.onLine(out);
    engine.send(`bench${args[1] ? ' ' + args[1] : ''}`);
    engine.send('quit');
    return;
  }
  if (args[0] === 'perft') {
    const depth = Number(args[1]);
    if (!Number.isInteger(depth) || depth < 1) {
      process.stderr.write('Error: perft needs a depth of at least 1\n');
      process.exit(1);
    }
    const fi = args.indexOf('--fen');
    const divide = args.includes('--divide');
    engine.onLine((l) => {
      if (l.startsWith('info string error')) {
        process.stderr.write(`Error: ${l.slice(18)}\n`);
        process.exit(1);
      }
      if (l.startsWith('Nodes searched')) {
        if (divide) out('');
        out(l);
      } else if (divide && /^[a-i]\d[a-i]\d: /.test(l)) out(l);
    });
    if (fi >= 0) engine.send(`position fen ${args[fi + 1] || ''}`);
    engine.send(`go perft ${depth}`);
    engine.send('quit');
    return;
  }
  if (args.length) {
    process.stderr.write(`Error: unknown argument '${args[0]}' (use: bench [depth] | perft <depth> [--fen FEN] [--divide])\n`);
    process.exit(2);
  }
  engine.onLine(out);
  const rl = (await import('node:readline')).createInterface({ input: process.stdin, crlfDelay: Infinity });
  rl.on('line', (l) => engine.send(l));
  rl.on('close', () => engine.send('quit'));
}

if (isNode && process.argv[1]) {
  const { pathToFileURL } = await import('node:url');
  const { realpathSync } = await import('node:fs');
  let me = process.argv[1];
  try {
    me = realpathSync(me);
  } catch {}
  if (import.meta.url === pathToFileURL(me).href) await main(process.argv.slice(2));
}
