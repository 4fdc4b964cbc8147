// The speaking detectors from wasm-core, loaded with the SDK on the first call.
type Core = typeof import('../wasm-pkg/wasm_core.js');
export type SpeakingDetector = InstanceType<Core['SpeakingDetector']>;

let core: Promise<Core> | undefined;

export async function createSpeakingDetector(): Promise<SpeakingDetector> {
  core ??= import('../wasm-pkg/wasm_core.js');
  return new (await core).SpeakingDetector();
}
