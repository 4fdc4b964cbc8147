import { describe, expect, it } from 'vitest';
import { loadVapiClass, resolveVapiClass } from './vapi';

class Vapi {}

describe('resolving the SDK class from a CommonJS module', () => {
  it.each([
    ['the class itself', Vapi],
    ['an ES default export', { default: Vapi }],
    [
      'the exports object as default (CommonJS interop)',
      { default: { default: Vapi, __esModule: true } },
    ],
  ])('finds it in %s', (_, module) => {
    expect(resolveVapiClass(module)).toBe(Vapi);
  });

  it.each([
    [null],
    [{}],
    [{ default: {} }],
    [{ default: { default: { default: { default: Vapi } } } }],
  ])('refuses %o with a clear error', (module) => {
    expect(() => resolveVapiClass(module)).toThrow('The @vapi-ai/web module has no Vapi class');
  });

  it('loads the real @vapi-ai/web once and yields its class', async () => {
    const first = loadVapiClass();
    expect(loadVapiClass()).toBe(first);
    const RealVapi = await first;
    expect(typeof RealVapi).toBe('function');
    for (const method of ['start', 'stop', 'setMuted', 'isMuted', 'on', 'removeListener']) {
      expect(typeof (RealVapi.prototype as unknown as Record<string, unknown>)[method]).toBe(
        'function',
      );
    }
  });
});
