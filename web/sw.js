// Takhte's service worker: keeps the current build, so that after one visit the app opens and
// plays with the network off. scripts/build-web.sh writes the build's name in place of BUILD;
// a new build is a new worker, which the browser finds at the next visit: it fetches the new
// build beside the old one and waits. The page offers it between games (index.html): a tap
// takes it at once, otherwise it runs at the next start. The old build's files are then
// deleted.
const BUILD = "BUILD";
const CACHE = "takhte-" + BUILD;
const FILES = [
  "/",
  "/app/BUILD/takhte.js",
  "/app/BUILD/takhte_bg.wasm",
  "/app/BUILD/worker.js",
  "/app/BUILD/takhte_worker.js",
  "/app/BUILD/takhte_worker_bg.wasm",
  "/manifest.en.webmanifest",
  "/manifest.fa.webmanifest",
  "/icons/icon-192.png",
  "/icons/icon-512.png",
  "/icons/maskable-512.png",
];

self.addEventListener("install", (e) => {
  // A build's files from the browser's own HTTP cache when the page has just loaded them (they
  // never change under their name: no second download on a first visit); the page and the
  // manifests asked of the server again, so the page kept is the one naming BUILD.
  const asked = (f) => new Request(f, { cache: f.startsWith("/app/") ? "default" : "no-cache" });
  e.waitUntil(caches.open(CACHE).then((c) => c.addAll(FILES.map(asked))));
});

self.addEventListener("activate", (e) => {
  e.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith("takhte-") && name !== CACHE) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

// The page asks for the waiting build when no game is on screen.
self.addEventListener("message", (e) => {
  if (e.data === "take-update") self.skipWaiting();
});

// The app's pages (/, /join/CODE, /watch/CODE) are the kept page: the app reads the link
// itself. The kept files from the cache; everything else (the game server's WebSocket, other
// paths) from the network as usual.
self.addEventListener("fetch", (e) => {
  const url = new URL(e.request.url);
  if (e.request.method !== "GET" || url.origin !== self.location.origin) return;
  const page = e.request.mode === "navigate" &&
    (url.pathname === "/" || /^\/(join|watch)\/[^/]+\/?$/.test(url.pathname));
  const key = page ? "/" : url.pathname;
  if (!page && !FILES.includes(key)) return;
  e.respondWith((async () => {
    const kept = await caches.open(CACHE).then((c) => c.match(key));
    return kept || fetch(e.request);
  })());
});
