import { describe, expect, it } from 'vitest';
import corpus from '../../../../wasm-core/tests/fixtures/quote_corpus.json';
import { productOptions } from '../../content';
import { inContentWords, loadQuoteRules, validateQuote } from './quote-rules';

const OFF = { phone: 'off', zip: 'off' } as const;

describe('quote rules from wasm-core', () => {
  it('gives the shared corpus verdicts through the JavaScript glue', async () => {
    for (const c of corpus) {
      expect(
        await validateQuote(
          { product: c.product, email: c.email, phone: '', zip: '', mayCall: false },
          OFF,
        ),
        JSON.stringify(c),
      ).toEqual(c.errors);
    }
  });

  it('ignores a phone and ZIP code whose fields are off', async () => {
    const values = { product: 'family', email: 'ana@example.com', mayCall: true };
    expect(await validateQuote({ ...values, phone: 'not a number', zip: 'nope' }, OFF)).toBeNull();
  });

  it("checks a phone and ZIP code by the server's rules when their fields are on", async () => {
    const values = { product: 'family', email: 'ana@example.com', mayCall: true };
    const on = { phone: 'optional', zip: 'optional' } as const;
    const messages = {
      phone: 'Please enter a valid US phone number',
      zip: 'Please enter a valid 5-digit ZIP code',
    };
    // An area code starting with 1 is no US number; 000 is no ZIP prefix USPS assigned.
    expect(await validateQuote({ ...values, phone: '123-456-7890', zip: '00012' }, on)).toEqual(
      messages,
    );
    expect(
      await validateQuote({ ...values, phone: '(555) 555-0123', zip: '60614' }, on),
    ).toBeNull();
    expect(await validateQuote({ ...values, phone: '', zip: '' }, on)).toBeNull();
    expect(
      await validateQuote(
        { ...values, phone: '', zip: '' },
        { phone: 'required', zip: 'required' },
      ),
    ).toEqual(messages);
  });

  it("words each wrong field, the extra ones too, in the content's own words", () => {
    expect(
      inContentWords({ phone: 'Please enter a valid US phone number', zip: 'bad', email: 'x' }),
    ).toEqual({
      email: 'Please enter a valid email address',
      phone: 'Please enter a valid US phone number',
      zip: 'Please enter a valid 5-digit ZIP code',
    });
    expect(inContentWords({})).toEqual({});
  });

  it('agrees with the content module on the dropdown options', async () => {
    const rules = await loadQuoteRules();
    expect(rules.productOptions()).toEqual(productOptions);
  });
});
