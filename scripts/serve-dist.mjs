// Serves dist/ on 127.0.0.1 the way a production static host does: each file with its content
// type, compressed (brotli, else gzip) when the browser accepts it, and cached by hash name.
// Used by scripts/lighthouse (Node's own http and zlib: nothing to install).
//   node scripts/serve-dist.mjs [DIR] [PORT]      prints the URL, serves until killed
import http from "node:http";
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";

const dir = path.resolve(process.argv[2] ?? "dist");
const port = Number(process.argv[3] ?? 0);
const types = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript",
  ".mjs": "text/javascript",
  ".css": "text/css",
  ".wasm": "application/wasm",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".json": "application/json",
  ".webmanifest": "application/manifest+json",
  ".ico": "image/x-icon",
};
const compressible = new Set([".html", ".js", ".mjs", ".css", ".wasm", ".svg", ".json", ".webmanifest"]);
// Compressed once per file: a static host compresses at deploy time, at its highest levels.
const cache = new Map();

function compressed(file, encoding) {
  const key = `${file}|${encoding}`;
  if (!cache.has(key)) {
    const body = fs.readFileSync(file);
    cache.set(
      key,
      encoding === "br"
        ? zlib.brotliCompressSync(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } })
        : zlib.gzipSync(body, { level: 9 }),
    );
  }
  return cache.get(key);
}

const server = http.createServer((req, res) => {
  const url = new URL(req.url, "http://localhost");
  let rel = decodeURIComponent(url.pathname);
  if (rel.endsWith("/")) rel += "index.html";
  const file = path.join(dir, path.normalize(rel));
  if (!file.startsWith(dir + path.sep) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
    res.writeHead(404, { "Content-Type": "text/plain" });
    res.end("not found");
    return;
  }
  const ext = path.extname(file);
  const headers = { "Content-Type": types[ext] ?? "application/octet-stream", Vary: "Accept-Encoding" };
  // Hashed names never change; index.html is checked every time.
  headers["Cache-Control"] = /-[0-9a-f]{16}/.test(path.basename(file))
    ? "public, max-age=31536000, immutable"
    : "no-cache";
  const accept = String(req.headers["accept-encoding"] ?? "");
  let body;
  if (compressible.has(ext) && /\bbr\b/.test(accept)) {
    headers["Content-Encoding"] = "br";
    body = compressed(file, "br");
  } else if (compressible.has(ext) && /\bgzip\b/.test(accept)) {
    headers["Content-Encoding"] = "gzip";
    body = compressed(file, "gzip");
  } else {
    body = fs.readFileSync(file);
  }
  headers["Content-Length"] = body.length;
  res.writeHead(200, headers);
  res.end(req.method === "HEAD" ? undefined : body);
});
server.listen(port, "127.0.0.1", () => {
  console.log(`http://127.0.0.1:${server.address().port}/`);
});
