// The same wasm-core module the quote rules use (lib/quote-rules.ts): one module, loaded once,
// and only when first needed, so it is not part of the first-load JavaScript.
export type WasmCore = typeof import('../wasm-pkg/wasm_core.js');

export function loadWasmCore(): Promise<WasmCore> {
  return import('../wasm-pkg/wasm_core.js');
}
