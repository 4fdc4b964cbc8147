// The quote rules come from wasm-core, the same code the server runs. The module is loaded on
// first use (or prefetched when the visitor reaches the form), so it costs nothing to first paint.

import { quoteSection } from '../../content';
import { loadWasmCore, type WasmCore } from '../../wasm/wasm-core';

export interface QuoteValues {
  product: string;
  email: string;
}

export type QuoteErrors = Partial<Record<keyof QuoteValues, string>>;

export function loadQuoteRules(): Promise<WasmCore> {
  return loadWasmCore();
}

/** The content's message for each field the rules (or the server) found wrong. */
export function inContentWords(found: QuoteErrors): QuoteErrors {
  const { errors } = quoteSection;
  return {
    ...(found.product && { product: errors.product }),
    ...(found.email && { email: errors.email }),
  };
}

/** `null` when valid; otherwise a message per wrong field. */
export async function validateQuote({ product, email }: QuoteValues): Promise<QuoteErrors | null> {
  const rules = await loadQuoteRules();
  const found = rules.validateQuote(product, email) as QuoteErrors | null;
  return found && inContentWords(found);
}
