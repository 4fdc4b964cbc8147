import { afterEach, describe, expect, it, vi } from 'vitest';
import { language } from '../language';
import { recordNoticeAcceptance } from './notice-acceptance';

/** A fetch answering each post with the next of `statuses` (a string: the network fails). */
function answering(...statuses: (number | string)[]) {
  return vi.fn(async (url: RequestInfo | URL, init?: RequestInit) => {
    void url;
    void init;
    const next = statuses.shift();
    if (typeof next === 'string') throw new TypeError(next);
    return new Response(null, { status: next });
  });
}

describe('recording the acceptance of a notice', () => {
  afterEach(() => vi.restoreAllMocks());

  it("posts the conversation's id and the page's language, never a text", async () => {
    const fetchImpl = answering(204);
    expect(await recordNoticeAcceptance({ call_id: 'call-1' }, { fetchImpl })).toBe(true);
    const [url, init] = fetchImpl.mock.calls[0];
    expect(url).toBe('/api/notice-acceptance');
    expect(init).toMatchObject({
      method: 'POST',
      headers: { 'content-type': 'application/json' },
    });
    expect(JSON.parse(init!.body as string)).toEqual({ call_id: 'call-1', lang: language });

    await recordNoticeAcceptance({ chat_id: 'sess-1' }, { fetchImpl: answering(204) });
  });

  it('tries again after a lost answer, a server error or the limit, 1 s and then 3 s later', async () => {
    const wait = vi.fn(async () => {});
    const fetchImpl = answering('Failed to fetch', 503, 204);
    expect(await recordNoticeAcceptance({ chat_id: 'sess-1' }, { fetchImpl, wait })).toBe(true);
    expect(fetchImpl).toHaveBeenCalledTimes(3);
    expect(wait.mock.calls).toEqual([[1000], [3000]]);

    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const limited = answering(429, 429, 429, 204);
    expect(await recordNoticeAcceptance({ call_id: 'c' }, { fetchImpl: limited, wait })).toBe(
      false,
    );
    expect(limited, 'three attempts at most').toHaveBeenCalledTimes(3);
    expect(warn).toHaveBeenCalledWith('No se pudo registrar la aceptación del aviso', {
      call_id: 'c',
    });
  });

  it('does not try again a post the server refused', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const wait = vi.fn(async () => {});
    const fetchImpl = answering(400);
    expect(await recordNoticeAcceptance({ call_id: '' }, { fetchImpl, wait })).toBe(false);
    expect(fetchImpl).toHaveBeenCalledTimes(1);
    expect(wait).not.toHaveBeenCalled();
    expect(warn).toHaveBeenCalledOnce();
  });
});
