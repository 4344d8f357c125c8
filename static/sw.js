// tfgraph's service worker: after one visit the app opens without a network.
// - install: caches the page and every file it names (the hashed CSS, JS, wasm, the loader, the
//   icon), read from the page itself, so nothing here lists the bundle's file names;
// - a page load asks the network first (a new bundle is picked up as soon as there is one) and
//   falls back to the cached page; every other same-origin file comes from the cache first.
// - activate: drops the caches of older bundles and takes the open pages over.
// Nothing leaves the origin: the worker only ever fetches its own origin's files.
const CACHE = "tfgraph-v1";
// Files of ours the page does not name: the engine's worker, started by the app (its name has no
// hash, so each page load fetches it again when online).
const OURS = ["static/worker.js"];

async function bundleFiles() {
  const page = await fetch("./", { cache: "no-store" });
  const html = await page.clone().text();
  const files = new Set(["./", ...OURS.map((f) => new URL(f, self.registration.scope).pathname)]);
  for (const m of html.matchAll(/(?:href|src)="([^"]+)"/g)) {
    const url = new URL(m[1], self.registration.scope);
    if (url.origin === self.location.origin) files.add(url.pathname);
  }
  return { page, files: [...files] };
}

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      const { page, files } = await bundleFiles();
      await cache.put("./", page);
      await cache.addAll(files.filter((f) => f !== "./"));
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const key of await caches.keys()) {
        if (key !== CACHE) await caches.delete(key);
      }
      await self.clients.claim();
    })(),
  );
});

self.addEventListener("fetch", (event) => {
  const req = event.request;
  const url = new URL(req.url);
  if (req.method !== "GET" || url.origin !== self.location.origin) return;
  if (req.mode === "navigate") {
    event.respondWith(
      (async () => {
        try {
          const fresh = await fetch(req);
          // A host that fails (5xx) is no better than none: the kept page instead.
          if (fresh.status >= 500) {
            const kept = await caches.match("./");
            if (kept) return kept;
          }
          if (fresh.ok) {
            const cache = await caches.open(CACHE);
            await cache.put("./", fresh.clone());
            for (const f of OURS) cache.add(new URL(f, self.registration.scope).pathname).catch(() => {});
            // The page names its files: keep those of a new bundle too.
            const html = await fresh.clone().text();
            for (const m of html.matchAll(/(?:href|src)="([^"]+)"/g)) {
              const u = new URL(m[1], self.registration.scope);
              if (u.origin === self.location.origin && !(await cache.match(u.pathname))) {
                cache.add(u.pathname).catch(() => {});
              }
            }
          }
          return fresh;
        } catch {
          return (await caches.match("./")) ?? Response.error();
        }
      })(),
    );
    return;
  }
  event.respondWith(
    (async () => {
      const hit = await caches.match(url.pathname);
      if (hit) return hit;
      const fresh = await fetch(req);
      if (fresh.ok && /-[0-9a-f]{16}/.test(url.pathname)) {
        const cache = await caches.open(CACHE);
        cache.put(url.pathname, fresh.clone()).catch(() => {});
      }
      return fresh;
    })(),
  );
});
