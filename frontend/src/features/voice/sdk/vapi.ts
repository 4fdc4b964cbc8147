// The slice of the `@vapi-ai/web` SDK the widget uses, and its on-demand loader.
import type { AssistantOverrides } from './page-language';

/** Event names exactly as the SDK emits them. */
export type VapiEvent =
  | 'call-start'
  | 'call-end'
  | 'call-start-failed'
  | 'volume-level'
  | 'local-volume-level'
  | 'speech-start'
  | 'speech-end'
  | 'message'
  | 'error'
  | 'camera-error';

export interface VapiLike {
  on(event: VapiEvent, listener: (...args: never[]) => void): unknown;
  removeListener(event: VapiEvent, listener: (...args: never[]) => void): unknown;
  /** Resolves to `null` (not a rejection) on most failures. */
  start(assistantId: string, overrides?: AssistantOverrides): Promise<unknown>;
  stop(): Promise<void> | void;
  setMuted(muted: boolean): void;
  isMuted(): boolean;
}

/** daily-js loads its call machine with a script tag instead of eval(), so the page's CSP
 * needs no 'unsafe-eval' (script-src must allow daily's origin instead). */
export const DAILY_CALL_CONFIG = { avoidEval: true } as const;

export type VapiClass = new (
  publicKey: string,
  apiBaseUrl?: string,
  dailyCallConfig?: typeof DAILY_CALL_CONFIG,
) => VapiLike;

/**
 * The SDK is CommonJS, so what `import()` gives depends on the bundler's interop: the class
 * itself, `{ default: Class }`, or `{ default: { default: Class } }` (the exports object).
 */
export function resolveVapiClass(module: unknown): VapiClass {
  let candidate: unknown = module;
  for (let depth = 0; depth < 3; depth++) {
    if (typeof candidate === 'function') return candidate as VapiClass;
    candidate = (candidate as { default?: unknown } | null)?.default;
  }
  throw new TypeError('The @vapi-ai/web module has no Vapi class (default export)');
}

let sdk: Promise<VapiClass> | undefined;

/** Imports the SDK (with daily-js, the build's largest chunk) once, on first use. */
export function loadVapiClass(): Promise<VapiClass> {
  sdk ??= import('@vapi-ai/web').then(resolveVapiClass).catch((error) => {
    sdk = undefined; // a failed chunk download may succeed on the next click
    throw error;
  });
  return sdk;
}
