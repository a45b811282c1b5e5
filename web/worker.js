// The computer's searches, off the page's thread: the page posts [id, request text], this
// worker answers [id, answer text] (takhte_worker, the searches without the UI).
import init, { think } from "./takhte_worker.js";
const ready = init({ module_or_path: new URL("./takhte_worker_bg.wasm", import.meta.url) });
self.onmessage = async (e) => {
  const [id, text] = e.data;
  try {
    await ready;
    self.postMessage([id, think(text)]);
  } catch (err) {
    // The page then searches itself (slower for the page, but the game goes on).
    self.postMessage([id, "fallback"]);
  }
};
