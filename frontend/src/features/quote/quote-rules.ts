// The quote rules come from wasm-core, the same code the server runs. The module is loaded on
// first use (or prefetched when the visitor reaches the form), so it costs nothing to first paint.

import { loadWasmCore, type WasmCore } from '../../wasm/wasm-core';

export interface QuoteValues {
  product: string;
  email: string;
}

export type QuoteErrors = Partial<Record<keyof QuoteValues, string>>;

export function loadQuoteRules(): Promise<WasmCore> {
  return loadWasmCore();
}

/** `null` when valid; otherwise a message per wrong field. */
export async function validateQuote({ product, email }: QuoteValues): Promise<QuoteErrors | null> {
  const rules = await loadQuoteRules();
  return rules.validateQuote(product, email) as QuoteErrors | null;
}
