// The particle island's worker: wasm-core takes the canvas and every message from here on, and
// runs the frame loop itself (wasm-core/src/particles/bindings.rs).
import { loadWasmCore } from '../wasm/wasm-core';

(await loadWasmCore()).startParticleWorker();
