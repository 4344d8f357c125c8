// tfgraph's engine worker (src/app/engine.rs starts it; src/page/engine.rs is what it does).
// The page sends one message first: the URL of its own wasm-bindgen glue and its compiled
// WebAssembly module. The worker imports that glue and instantiates the same module, so the
// engine is neither downloaded nor compiled a second time. The module's `main` finds no window
// here and installs the engine's own message handler, which answers every later message and
// first says it is ready. A failure to load surfaces as the worker's error event: the page then
// does the work itself.
self.addEventListener(
  "message",
  async (event) => {
    try {
      const { glue, module } = event.data;
      const bindings = await import(glue);
      await bindings.default({ module_or_path: module });
    } catch (e) {
      // Thrown from a task of its own, so that the page's worker gets an error event (a
      // rejected promise would only be reported inside the worker).
      setTimeout(() => {
        throw e;
      });
    }
  },
  { once: true },
);
