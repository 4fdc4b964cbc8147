// The one fake of the voice provider's SDK (src/features/voice/testing/fake-vapi.mjs), served in
// place of the SDK's chunk so a browser test drives the provider's side: the latest instance is
// the page's `globalThis.fakeVapi`.
import { readFileSync } from 'node:fs';

const FAKE_SDK = readFileSync(
  new URL('../../src/features/voice/testing/fake-vapi.mjs', import.meta.url),
  'utf8',
);

/** The SDK's chunk as the build names it. */
export const SDK_CHUNK = /\/assets\/vapi-[\w-]+\.js$/;

/** Every page of `context` gets the fake instead of the SDK. */
export function serveFakeSdk(context) {
  return context.route(SDK_CHUNK, (route) =>
    route.fulfill({ contentType: 'text/javascript', body: FAKE_SDK }),
  );
}
