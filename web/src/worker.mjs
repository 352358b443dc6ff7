// Chariot's engine thread: a Web Worker (browser) or a worker_threads Worker (Node) that runs
// the WebAssembly engine on its one thread. Input lines arrive through a SharedArrayBuffer
// ring (read by the engine itself, also while it searches) when the page has one, else by
// messages (read only between searches). Output lines go back as messages.
const isNode = typeof process !== 'undefined' && process.versions && process.versions.node && typeof self === 'undefined';
let port;
if (isNode) {
  const wt = await import('node:worker_threads');
  port = wt.parentPort;
} else {
  port = self;
}
const post = (m) => port.postMessage(m);
const on = (f) => (isNode ? port.on('message', f) : (self.onmessage = (e) => f(e.data)));

let wasm = null;
let mem8 = null;
let ring = null; // { head: Int32Array, data: Uint8Array }
const pending = []; // lines by message (no SharedArrayBuffer)
const enc = new TextEncoder();
const dec = new TextDecoder();
let outBuf = '';
const view = () => (mem8 && mem8.buffer === wasm.memory.buffer ? mem8 : (mem8 = new Uint8Array(wasm.memory.buffer)));

function ringLine() {
  // head[0]: bytes written in all, head[1]: bytes read in all; data: the ring.
  const cap = ring.data.length;
  const w = Atomics.load(ring.head, 0);
  let r = Atomics.load(ring.head, 1);
  if (w === r) return null;
  const bytes = [];
  for (let i = r; i !== w; i = (i + 1) | 0) {
    const b = ring.data[((i % cap) + cap) % cap];
    if (b === 10) {
      Atomics.store(ring.head, 1, (i + 1) | 0);
      return Uint8Array.from(bytes);
    }
    bytes.push(b);
  }
  return null; // a line not yet complete
}

const imports = {
  env: {
    chariot_now: () => performance.now(),
    chariot_write: (ptr, len) => {
      outBuf += dec.decode(view().slice(ptr, ptr + len));
      const lines = outBuf.split('\n');
      outBuf = lines.pop();
      if (lines.length) post({ lines });
    },
    chariot_read: (ptr, cap) => {
      let bytes = ring ? ringLine() : null;
      if (!bytes && pending.length) bytes = enc.encode(pending.shift());
      if (!bytes) return -1;
      view().set(bytes.subarray(0, cap), ptr);
      return bytes.length;
    },
  },
};

function run() {
  try {
    if (wasm.chariot_run() === 0) post({ quit: true });
  } catch (e) {
    post({ crash: String(e && e.message ? e.message : e) });
  }
}

on(async (m) => {
  if (m.init) {
    // Imports that only dead code needs (plotters' DOM text measuring pulls in wasm-bindgen
    // placeholders; the graph is drawn by the page): each throws if ever called.
    for (const imp of WebAssembly.Module.imports(m.module)) {
      if (imp.kind !== 'function') continue;
      imports[imp.module] = imports[imp.module] || {};
      if (!imports[imp.module][imp.name]) {
        imports[imp.module][imp.name] = () => {
          throw new Error(`${imp.name} is not available in the WebAssembly build`);
        };
      }
    }
    const instance = await WebAssembly.instantiate(m.module, imports);
    wasm = instance.exports;
    if (m.sab) ring = { head: new Int32Array(m.sab, 0, 2), data: new Uint8Array(m.sab, 8) };
    wasm.chariot_start();
    post({ ready: true });
    run();
  } else if (m.line !== undefined) {
    pending.push(m.line);
    run();
  } else if (m.wake) {
    run();
  } else if (m.review) {
    try {
      const bytes = new Uint8Array(m.review);
      const p = wasm.chariot_alloc(bytes.length);
      view().set(bytes, p);
      wasm.chariot_review(p, bytes.length, m.nodes >>> 0);
      wasm.chariot_free(p, bytes.length);
    } catch (e) {
      post({ crash: String(e && e.message ? e.message : e) });
    }
  }
});
