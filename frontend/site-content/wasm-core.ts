// wasm-core in Node, for the build: the module the page loads (src/wasm-pkg, built by
// scripts/build-wasm.sh before the front end), instantiated synchronously so that reading the
// content stays synchronous. The Medicare disclaimer's words are written once, in
// wasm-core/src/disclaimer, and the build takes them from here, as the server takes them natively.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
// @ts-expect-error -- wasm-bindgen writes no types for its glue; wasm_core.d.ts types its exports.
import * as bindings from '../src/wasm-pkg/wasm_core_bg.js';

type WasmCore = typeof import('../src/wasm-pkg/wasm_core.js');
interface Glue {
  __wbg_set_wasm(exports: WebAssembly.Exports): void;
}

const WASM = fileURLToPath(new URL('../src/wasm-pkg/wasm_core_bg.wasm', import.meta.url));
/** The module name wasm-bindgen's output imports its glue under. */
const GLUE = './wasm_core_bg.js';

let core: WasmCore | undefined;

/** wasm-core's exports, instantiated on first use. */
export function wasmCore(): WasmCore {
  if (core) return core;
  const glue = bindings as Glue & WasmCore;
  const module = new WebAssembly.Module(readFileSync(WASM));
  const instance = new WebAssembly.Instance(module, {
    [GLUE]: glue as unknown as WebAssembly.ModuleImports,
  });
  glue.__wbg_set_wasm(instance.exports);
  (instance.exports.__wbindgen_start as (() => void) | undefined)?.();
  core = glue;
  return core;
}
