// The Node tests' driver for the built WebAssembly package (web/dist/): `node chariot.mjs` as
// a child process, its output read line by line. The counterpart of tests/common/mod.rs.
//
// Timing bounds follow the native tests' `allowed`: five times what a quiet machine needs plus
// a second, since the machines that run them are loaded.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const DIST = fileURLToPath(new URL('../../dist/', import.meta.url));
export const CHARIOT = DIST + 'chariot.mjs';

/** The most any one expected line may take before a test fails (ms). */
export const TIMEOUT = 60_000;

/** The bound for something a quiet machine does in `ms`. */
export const allowed = (ms) => ms * 5 + 1000;

/** Throws, saying how to build it, unless web/dist/ holds the built package. */
export function requireDist() {
  const missing = ['chariot.mjs', 'worker.mjs', 'chariot.wasm'].filter((f) => !existsSync(DIST + f));
  if (missing.length) {
    throw new Error(
      `web/dist/ lacks ${missing.join(', ')}: build the WebAssembly package first ` +
        '(cargo rustc --release --lib --crate-type cdylib --target wasm32-unknown-unknown; ' +
        'mkdir -p web/dist; cp web/src/*.mjs web/dist/; ' +
        'cp target/wasm32-unknown-unknown/release/chariot.wasm web/dist/)',
    );
  }
}

/** `node web/dist/chariot.mjs [args]`, its stdout as lines. */
export class Proc {
  constructor(args = []) {
    requireDist();
    this.child = spawn(process.execPath, [CHARIOT, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    this.lines = []; // unread lines
    this.partial = '';
    this.stderr = '';
    this.wake = null;
    this.code = undefined;
    this.exit = new Promise((resolve) =>
      this.child.on('exit', (code, signal) => {
        this.code = code ?? signal;
        this._wake();
        resolve(this.code);
      }),
    );
    this.child.stdout.setEncoding('utf8');
    this.child.stdout.on('data', (d) => {
      const parts = (this.partial + d).split('\n');
      this.partial = parts.pop();
      this.lines.push(...parts);
      this._wake();
    });
    this.child.stderr.setEncoding('utf8');
    this.child.stderr.on('data', (d) => (this.stderr += d));
    this.child.stdin.on('error', () => {}); // writes after an exit
  }

  _wake() {
    const w = this.wake;
    this.wake = null;
    if (w) w();
  }

  _next(deadline) {
    return new Promise((resolve) => {
      const t = setTimeout(resolve, Math.max(0, deadline - Date.now()));
      this.wake = () => {
        clearTimeout(t);
        resolve();
      };
    });
  }

  /** Sends one line. */
  send(line) {
    this.child.stdin.write(line + '\n');
  }

  /** Sends bytes as they are. */
  sendRaw(bytes) {
    this.child.stdin.write(bytes);
  }

  /** Reads lines up to the first that `pred` accepts; returns them, that one last. */
  async until(pred, timeout = TIMEOUT, what = String(pred)) {
    const deadline = Date.now() + timeout;
    const seen = [];
    for (;;) {
      while (this.lines.length) {
        const l = this.lines.shift();
        seen.push(l);
        if (pred(l)) return seen;
      }
      if (this.code !== undefined) {
        throw new Error(`engine exited (${this.code}) waiting for ${what}; got ${JSON.stringify(seen.slice(-20))}; stderr ${this.stderr}`);
      }
      if (Date.now() >= deadline) {
        throw new Error(`no ${what} within ${timeout} ms; got ${JSON.stringify(seen.slice(-20))}`);
      }
      await this._next(deadline);
    }
  }

  /** Sends `line`, then `until(pred)`; with the time (ms) the matching line took. */
  async timed(line, pred, timeout = TIMEOUT, what) {
    const t = performance.now();
    this.send(line);
    const lines = await this.until(pred, timeout, what);
    return { lines, took: performance.now() - t };
  }

  /** Every line that comes in `ms`. */
  async quiet(ms) {
    const deadline = Date.now() + ms;
    while (Date.now() < deadline && this.code === undefined) await this._next(deadline);
    return this.lines.splice(0);
  }

  /** Sends `isready`; returns what came before `readyok`. */
  async sync(timeout = TIMEOUT) {
    this.send('isready');
    const lines = await this.until((l) => l === 'readyok', timeout, 'readyok');
    return lines.slice(0, -1);
  }

  /** The next `bestmove` line. */
  async bestmove(timeout = TIMEOUT) {
    const lines = await this.until((l) => l.startsWith('bestmove'), timeout, 'bestmove');
    return lines[lines.length - 1];
  }

  /** Waits for the process to end; its exit code. */
  async waitExit(timeout = TIMEOUT) {
    const t = setTimeout(() => this.child.kill(), timeout);
    const code = await this.exit;
    clearTimeout(t);
    return code;
  }

  /** Ends the process if it still runs. */
  kill() {
    if (this.code === undefined) this.child.kill();
  }
}

/** The `info string error:` lines among `lines`. */
export const errors = (lines) => lines.filter((l) => l.startsWith('info string error:'));

/**
 * Checks that `line` is `bestmove M [ponder P]` with M legal after the `position` command
 * `position` (the engine itself judges: the position with M played must give no error), and
 * leaves the engine at `position` again. Returns M.
 */
export async function assertLegalBestmove(e, line, position = 'position startpos') {
  const w = (line || '').split(/\s+/);
  if (w[0] !== 'bestmove' || !w[1]) throw new Error(`not a bestmove line: ${line}`);
  const withMoves = (moves) => (/\bmoves\b/.test(position) ? `${position} ${moves}` : `${position} moves ${moves}`);
  e.send(withMoves(w[2] === 'ponder' && w[3] ? `${w[1]} ${w[3]}` : w[1]));
  const out = await e.sync();
  e.send(position);
  if (out.length) throw new Error(`bestmove '${line}' is not legal after '${position}': ${JSON.stringify(out)}`);
  return w[1];
}
