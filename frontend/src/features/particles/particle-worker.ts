// The particle animation's worker: wasm-core takes the canvas and every message from here on, and
// runs the frame loop itself (wasm-core/src/particles/bindings.rs). The worker exists for this
// alone, so wasm-core is imported statically rather than through wasm/wasm-core.ts: the worker
// and wasm-core's bindings are then one file, without the exports the worker never calls.
import { startParticleWorker } from '../../wasm-pkg/wasm_core.js';

startParticleWorker();
