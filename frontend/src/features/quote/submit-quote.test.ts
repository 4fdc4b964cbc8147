import { afterEach, describe, expect, it, vi } from 'vitest';
import { quotePost, QuoteSubmissionError, submitQuote } from './submit-quote';

const values = { product: 'family', email: 'ana@example.com' };

function answer(status: number, body: string, statusText = '') {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response(body, { status, statusText })),
  );
}

describe('submitQuote', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('gives the booking page the server links the lead to, and only a path on this site', async () => {
    answer(201, '{"id":"x","booking_path":"/es/book?lead=x.1.ab"}');
    expect(await submitQuote(values)).toEqual({ bookingPath: '/es/book?lead=x.1.ab' });
    answer(201, '{"id":"x","booking_path":"https://elsewhere.example/book?lead=x"}');
    expect(await submitQuote({ ...values, email: 'b@example.com' })).toEqual({
      bookingPath: undefined,
    });
  });

  it('posts JSON with credentials and resolves on 201', async () => {
    answer(201, '{"id":"x"}');
    expect(await submitQuote(values)).toEqual({ bookingPath: undefined });
    expect(fetch).toHaveBeenCalledWith('/api/quote-requests', {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'Idempotency-Key': expect.stringMatching(/^[0-9a-f]{32}$/),
      },
      credentials: 'include',
      body: JSON.stringify({ ...values, lang: 'en' }),
    });
  });

  it('sends the honeypot field only when something filled it', async () => {
    answer(201, '{"id":"x"}');
    await submitQuote(values, 'http://spam.example');
    const init = vi.mocked(fetch).mock.calls[0][1] as RequestInit;
    expect(JSON.parse(init.body as string)).toEqual({
      ...values,
      lang: 'en',
      website: 'http://spam.example',
    });
  });

  it('reports status and the server message', async () => {
    answer(
      500,
      '{"code":"storage_failed","message":"We could not save your request. Please try again."}',
    );
    await expect(submitQuote(values)).rejects.toThrow(
      '500: We could not save your request. Please try again.',
    );
  });

  it('keeps the per-field messages of a 422', async () => {
    answer(
      422,
      '{"code":"validation_failed","message":"x","fields":{"email":"Please enter a valid email address"}}',
    );
    const error = await submitQuote(values).catch((e: QuoteSubmissionError) => e);
    expect(error).toBeInstanceOf(QuoteSubmissionError);
    expect((error as QuoteSubmissionError).fields).toEqual({
      email: 'Please enter a valid email address',
    });
  });

  it('falls back to plain text, then to the status text', async () => {
    answer(502, 'Bad gateway from proxy');
    await expect(submitQuote(values)).rejects.toThrow('502: Bad gateway from proxy');
    answer(503, '', 'Service Unavailable');
    await expect(submitQuote(values)).rejects.toThrow('503: Service Unavailable');
  });

  it('keeps the key for the same values until they are confirmed, a new one otherwise', async () => {
    const keys: string[] = [];
    const send = (status: number) =>
      vi.stubGlobal(
        'fetch',
        vi.fn(async (_url: string, init: RequestInit) => {
          keys.push((init.headers as Record<string, string>)['Idempotency-Key']);
          return status
            ? new Response('{}', { status })
            : Promise.reject(new TypeError('Failed to fetch'));
        }),
      );
    const other = { product: 'medicare', email: 'bo@example.com' };
    send(0);
    await submitQuote(other).catch(() => {});
    await submitQuote(other).catch(() => {});
    send(201);
    await Promise.all([submitQuote(other), submitQuote(other)]);
    await submitQuote(other);
    await submitQuote({ ...other, email: 'cy@example.com' });
    expect(new Set(keys.slice(0, 4)).size).toBe(1);
    expect(keys[4]).not.toBe(keys[0]);
    expect(keys[5]).not.toBe(keys[4]);
  });

  it('turns a network failure into an error without a message', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
    );
    await expect(submitQuote(values)).rejects.toMatchObject({ message: '' });
  });
});

describe('quotePost', () => {
  const typed = { ...values, phone: '555 555 0123', zip: '60614', mayCall: true };

  it('is the spec’s two fields while the extra ones are off', () => {
    expect(quotePost(typed, { phone: 'off', zip: 'off' })).toEqual(values);
  });

  it('adds the phone with its consent box, and the ZIP code, each only when on', () => {
    expect(quotePost(typed, { phone: 'optional', zip: 'required' })).toEqual({
      ...values,
      phone: '555 555 0123',
      may_call: true,
      zip: '60614',
    });
    expect(quotePost({ ...typed, mayCall: false }, { phone: 'required', zip: 'off' })).toEqual({
      ...values,
      phone: '555 555 0123',
      may_call: false,
    });
    expect(quotePost(typed, { phone: 'off', zip: 'optional' })).toEqual({
      ...values,
      zip: '60614',
    });
  });
});
