// The quote rules come from wasm-core, the same code the server runs. The module is loaded on
// first use (or prefetched when the visitor reaches the form), so it costs nothing to first paint.

import { quoteFields, quoteSection } from '../../content';
import { loadWasmCore, type WasmCore } from '../../wasm/wasm-core';

/**
 * What the form holds. `phone`, `zip` and `mayCall` (the consent box beside the phone field)
 * count only while the broker has their field on (`quote.fields`); otherwise they stay empty.
 */
export interface QuoteValues {
  product: string;
  email: string;
  phone: string;
  zip: string;
  mayCall: boolean;
}

/** The fields a message can be about, in the form's order (the first wrong one takes focus). */
export const QUOTE_FIELDS = ['product', 'email', 'phone', 'zip'] as const;
export type QuoteField = (typeof QUOTE_FIELDS)[number];
export type QuoteErrors = Partial<Record<QuoteField, string>>;

/** Each extra field as the broker set it: `off`, `optional` or `required`. */
export type QuoteFieldRules = typeof quoteFields;

export function loadQuoteRules(): Promise<WasmCore> {
  return loadWasmCore();
}

/** The content's message for each field the rules (or the server) found wrong. */
export function inContentWords(found: QuoteErrors): QuoteErrors {
  const { errors } = quoteSection;
  return Object.fromEntries(
    QUOTE_FIELDS.filter((field) => found[field]).map((field) => [field, errors[field]]),
  );
}

/** `null` when valid; otherwise a message per wrong field. A field that is off is not looked at. */
export async function validateQuote(
  { product, email, phone, zip }: QuoteValues,
  rules: QuoteFieldRules = quoteFields,
): Promise<QuoteErrors | null> {
  const core = await loadQuoteRules();
  const found = core.validateQuote(
    product,
    email,
    phone,
    zip,
    rules.phone,
    rules.zip,
  ) as QuoteErrors | null;
  return found && inContentWords(found);
}
