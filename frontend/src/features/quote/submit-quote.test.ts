import { afterEach, describe, expect, it, vi } from 'vitest';
import { HONEYPOT_FIELD, QUOTE_ENDPOINT, QuoteSubmissionError, submitQuote } from './submit-quote';

const values = { product: 'family', email: 'ana@example.com' };

function answer(status: number, body: string, statusText = '') {
  vi.stubGlobal('fetch', vi.fn(async () => new Response(body, { status, statusText })));
}

describe('submitQuote', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('posts JSON with credentials and resolves on 201', async () => {
    answer(201, '{"id":"x"}');
    await submitQuote(values);
    expect(fetch).toHaveBeenCalledWith(QUOTE_ENDPOINT, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      credentials: 'include',
      body: JSON.stringify(values),
    });
  });

  it('sends the honeypot field only when something filled it', async () => {
    answer(201, '{"id":"x"}');
    await submitQuote(values, 'http://spam.example');
    const init = vi.mocked(fetch).mock.calls[0][1] as RequestInit;
    expect(JSON.parse(init.body as string)).toEqual({ ...values, [HONEYPOT_FIELD]: 'http://spam.example' });
  });

  it('reports status and the server message', async () => {
    answer(500, '{"code":"storage_failed","message":"We could not save your request. Please try again."}');
    await expect(submitQuote(values)).rejects.toThrow('500: We could not save your request. Please try again.');
  });

  it('keeps the per-field messages of a 422', async () => {
    answer(422, '{"code":"validation_failed","message":"x","fields":{"email":"Please enter a valid email address"}}');
    const error = await submitQuote(values).catch((e: QuoteSubmissionError) => e);
    expect(error).toBeInstanceOf(QuoteSubmissionError);
    expect((error as QuoteSubmissionError).fields).toEqual({ email: 'Please enter a valid email address' });
  });

  it('falls back to plain text, then to the status text', async () => {
    answer(502, 'Bad gateway from proxy');
    await expect(submitQuote(values)).rejects.toThrow('502: Bad gateway from proxy');
    answer(503, '', 'Service Unavailable');
    await expect(submitQuote(values)).rejects.toThrow('503: Service Unavailable');
  });

  it('turns a network failure into an error without a message', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))));
    await expect(submitQuote(values)).rejects.toMatchObject({ message: '' });
  });
});
