import { describe, expect, it } from 'vitest';
import corpus from '../../../../wasm-core/tests/fixtures/quote_corpus.json';
import { productOptions } from '../../content';
import { loadQuoteRules, validateQuote } from './quote-rules';

describe('quote rules from wasm-core', () => {
  it('gives the shared corpus verdicts through the JavaScript glue', async () => {
    for (const c of corpus) {
      expect(
        await validateQuote({ product: c.product, email: c.email }),
        JSON.stringify(c),
      ).toEqual(c.errors);
    }
  });

  it('agrees with the content module on the dropdown options', async () => {
    const rules = await loadQuoteRules();
    expect(rules.productOptions()).toEqual(productOptions);
  });
});
