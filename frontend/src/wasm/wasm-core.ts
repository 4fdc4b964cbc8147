// The page's one loader of wasm-core (quote rules, speaking detector, the particle animation's
// main-thread host), loaded once and only when first needed; the particle worker, which exists
// for wasm-core alone, imports it itself. The binding convention of its exports is at the top of
// wasm-core/src/lib.rs.
export type WasmCore = typeof import('../wasm-pkg/wasm_core.js');

let core: Promise<WasmCore> | undefined;

export function loadWasmCore(): Promise<WasmCore> {
  core ??= import('../wasm-pkg/wasm_core.js');
  return core;
}
