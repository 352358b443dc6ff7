// A small static file server for the page (`scripts/web.sh serve [PORT]`, or
// `node web/serve.mjs [DIR] [PORT]`, or `node serve.mjs` in web/dist/ or the release zip).
// It sends the cross-origin isolation headers (COOP same-origin, COEP require-corp) so the
// page gets SharedArrayBuffer and `stop`, `isready` reach a running search. Serves only files under DIR; no dependencies.
import http from 'node:http';
import fs from 'node:fs/promises';
import fs0 from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const types = {
  '.html': 'text/html; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.pgn': 'text/plain; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * Starts serving `dir` on `port` (0: any free port); resolves to the http.Server. With
 * `isolate: false` the COOP/COEP headers are left out (to try the page without isolation).
 */
export function serve(dir, port = 8000, host = '127.0.0.1', { isolate = true } = {}) {
  const root = path.resolve(dir);
  const server = http.createServer(async (req, res) => {
    const headers = isolate
      ? {
          'Cross-Origin-Opener-Policy': 'same-origin',
          'Cross-Origin-Embedder-Policy': 'require-corp',
          'Cross-Origin-Resource-Policy': 'same-origin',
          'Cache-Control': 'no-cache',
        }
      : { 'Cache-Control': 'no-cache' };
    try {
      let p = decodeURIComponent(new URL(req.url, 'http://x').pathname);
      if (p.endsWith('/')) p += 'index.html';
      const file = path.join(root, path.normalize(p));
      if (file !== root && !file.startsWith(root + path.sep)) throw Object.assign(new Error('outside'), { code: 'ENOENT' });
      const body = await fs.readFile(file);
      res.writeHead(200, { ...headers, 'Content-Type': types[path.extname(file)] || 'application/octet-stream' });
      res.end(req.method === 'HEAD' ? undefined : body);
    } catch (e) {
      const code = e.code === 'ENOENT' || e.code === 'EISDIR' ? 404 : 400;
      res.writeHead(code, { ...headers, 'Content-Type': 'text/plain' });
      res.end(code === 404 ? 'not found\n' : 'bad request\n');
    }
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const here = path.dirname(fileURLToPath(import.meta.url));
  // web/serve.mjs serves web/dist/; the copy in dist/ (or in the release zip) its own folder.
  const dir = process.argv[2] || (fs0.existsSync(path.join(here, 'dist', 'index.html')) ? path.join(here, 'dist') : here);
  const port = Number(process.argv[3] || 8000);
  const server = await serve(dir, port);
  console.log(`Serving ${dir} at http://127.0.0.1:${server.address().port}/ (cross-origin isolated; Ctrl-C stops)`);
}
