// The quote rules come from wasm-core, the same code the server runs. The module is loaded on
// first use (or prefetched when the visitor reaches the form), so it costs nothing to first paint.

export interface QuoteValues {
  product: string;
  email: string;
}

export type QuoteErrors = Partial<Record<keyof QuoteValues, string>>;

type QuoteCore = typeof import('../../wasm-pkg/wasm_core.js');

let core: Promise<QuoteCore> | undefined;

export function loadQuoteRules(): Promise<QuoteCore> {
  core ??= import('../../wasm-pkg/wasm_core.js');
  return core;
}

/** `null` when valid; otherwise a message per wrong field. */
export async function validateQuote({ product, email }: QuoteValues): Promise<QuoteErrors | null> {
  const rules = await loadQuoteRules();
  return rules.validateQuote(product, email) as QuoteErrors | null;
}
