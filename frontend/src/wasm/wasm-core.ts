// The one loader of wasm-core (quote rules, speaking detector, particle island): loaded once per
// thread, and only when first needed, so it is never part of the first-load JavaScript. The
// binding convention of its exports is at the top of wasm-core/src/lib.rs.
export type WasmCore = typeof import('../wasm-pkg/wasm_core.js');

let core: Promise<WasmCore> | undefined;

export function loadWasmCore(): Promise<WasmCore> {
  core ??= import('../wasm-pkg/wasm_core.js');
  return core;
}
