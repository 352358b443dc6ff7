// Chariot's rules on the page's main thread: a second instance of chariot.wasm (the search
// runs in the worker) answers quick synchronous questions with the engine's own board and
// rules code (src/engine/rules_json.rs): the legal moves, check, the game's end (mate,
// stalemate, perpetual check or chase, the 60-move rule), moves and lines in WXF and Chinese.
//
//   const rules = await Rules.load();
//   rules.position('position startpos moves h2e2', [['h9g7', 'b0c2']])
//   // → {ok, fen, side, inCheck, checkers, legal, outcome, result, reason, history, lines}
import { loadModule } from './chariot.mjs';

export class Rules {
  /** Loads the rules from chariot.wasm (a URL, or an already compiled WebAssembly.Module). */
  static async load(wasm = new URL('chariot.wasm', import.meta.url)) {
    const module = wasm instanceof WebAssembly.Module ? wasm : await loadModule(wasm);
    const r = new Rules();
    const dec = new TextDecoder();
    const imports = {
      env: {
        chariot_now: () => performance.now(),
        chariot_read: () => -1,
        chariot_write: (ptr, len) => {
          r.out += dec.decode(new Uint8Array(r.exports.memory.buffer, ptr, len));
        },
      },
    };
    // Imports only dead code needs (see worker.mjs): each throws if ever called.
    for (const imp of WebAssembly.Module.imports(module)) {
      if (imp.kind !== 'function') continue;
      imports[imp.module] = imports[imp.module] || {};
      if (!imports[imp.module][imp.name]) {
        imports[imp.module][imp.name] = () => {
          throw new Error(`${imp.name} is not available in the WebAssembly build`);
        };
      }
    }
    r.exports = (await WebAssembly.instantiate(module, imports)).exports;
    return r;
  }

  constructor() {
    this.out = '';
    this.exports = null;
  }

  /**
   * The position a `position …` command describes, and optional lines of ICCS moves from it
   * (arrays of moves) written in the three notations. Never throws on bad input: returns
   * `{ok: false, error}`.
   */
  position(command, lines = []) {
    const text = [command, ...lines.map((l) => 'line ' + l.join(' '))].join('\n');
    const bytes = new TextEncoder().encode(text);
    const x = this.exports;
    const p = x.chariot_alloc(bytes.length);
    new Uint8Array(x.memory.buffer, p, bytes.length).set(bytes);
    this.out = '';
    try {
      x.chariot_rules(p, bytes.length);
    } catch (e) {
      return { ok: false, error: `the rules failed: ${e && e.message ? e.message : e}` };
    } finally {
      x.chariot_free(p, bytes.length);
    }
    const line = this.out.trim();
    if (!line.startsWith('rules ')) return { ok: false, error: 'the rules gave no answer' };
    return JSON.parse(line.slice(6));
  }
}

export default Rules;
