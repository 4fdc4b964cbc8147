// The speaking detectors from wasm-core, loaded with the SDK on the first call.
import { loadWasmCore, type WasmCore } from '../../../wasm/wasm-core';

export type SpeakingDetector = InstanceType<WasmCore['SpeakingDetector']>;

export async function createSpeakingDetector(): Promise<SpeakingDetector> {
  return new (await loadWasmCore()).SpeakingDetector();
}
