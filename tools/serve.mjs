// A dependency-free static server for web/ (npm start). PORT overrides 8080.
// /corpus/ maps to ../shared/corpus when it exists, so the page can open real models during development;
// /node_modules/fflate/ to the npm package the viewer inflates .pk3 archives with; /node_modules/three/
// to three.js (a devDependency) for web/examples/three.html.
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(fileURLToPath(new URL('../web/', import.meta.url)));
const corpus = resolve(fileURLToPath(new URL('../../shared/corpus/', import.meta.url)));
// The viewer opens .pk3 files with the fflate package: served where a deployed page would find it.
const fflate = resolve(fileURLToPath(new URL('../node_modules/fflate/', import.meta.url)));
const three = resolve(fileURLToPath(new URL('../node_modules/three/', import.meta.url)));
const types = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8', '.json': 'application/json', '.wasm': 'application/wasm', '.png': 'image/png',
  '.svg': 'image/svg+xml', '.ts': 'text/plain; charset=utf-8',
};

// Resolves a URL path inside base, refusing anything that climbs out of it.
function inside(base, urlPath) {
  const path = resolve(join(base, normalize(decodeURIComponent(urlPath))));
  return path === base || path.startsWith(base + sep) ? path : null;
}

/**
 * Serves web/ (with /corpus/, /node_modules/fflate/ and /node_modules/three/) on port (0: a free one); with options.root,
 * that folder alone (the package tests serve each bundler's output this way).
 */
export function startServer(port = Number(process.env.PORT) || 8080, host = '127.0.0.1', options = {}) {
  const only = options.root ? resolve(options.root) : null;
  const server = createServer(async (req, res) => {
    const url = new URL(req.url, 'http://localhost');
    let path = only ? inside(only, url.pathname)
      : url.pathname.startsWith('/corpus/') ? inside(corpus, url.pathname.slice(8))
        : url.pathname.startsWith('/node_modules/fflate/') ? inside(fflate, url.pathname.slice(21))
          : url.pathname.startsWith('/node_modules/three/') ? inside(three, url.pathname.slice(20))
          : inside(root, url.pathname);
    try {
      if (!path) throw new Error('outside');
      if ((await stat(path)).isDirectory()) path = join(path, 'index.html');
      const body = await readFile(path);
      res.writeHead(200, { 'content-type': types[extname(path)] || 'application/octet-stream', 'cache-control': 'no-cache' });
      res.end(body);
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
    }
  });
  return new Promise((done) => server.listen(port, host, () => done(server)));
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const server = await startServer();
  const { port } = server.address();
  console.log(`interquake viewer: http://localhost:${port}/`);
}
