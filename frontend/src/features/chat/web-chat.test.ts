import { describe, expect, it, vi } from 'vitest';
import { ChatError, sendChatMessage } from './web-chat';
import { language } from '../../language';

const config = { publicKey: 'pk_test', assistantId: 'asst_1', apiBaseUrl: 'http://127.0.0.1:9/' };

const event = (delta: string, sessionId = 'sess_1') =>
  `data: ${JSON.stringify({ id: 'c1', sessionId, path: 'chat.output[0].content', delta })}\n\n`;

/** A streamed body cut into pieces at the given byte offsets. */
function streamedResponse(text: string, cuts: number[]): Response {
  const bytes = new TextEncoder().encode(text);
  const bounds = [0, ...cuts, bytes.length];
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (let i = 0; i + 1 < bounds.length; i++)
        controller.enqueue(bytes.slice(bounds[i], bounds[i + 1]));
      controller.close();
    },
  });
  return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
}

async function collect(response: Response, sessionId?: string) {
  const fetchImpl = vi.fn(async () => response);
  const deltas: string[] = [];
  const session = await sendChatMessage({
    config,
    input: 'Hola',
    sessionId,
    onDelta: (d) => deltas.push(d),
    fetchImpl,
  });
  return { session, text: deltas.join(''), fetchImpl };
}

const reply = event('¿En qué ') + event('puedo ayudarte? 🙂 Ñandú') + 'data: [DONE]\n\n';

describe('sendChatMessage', () => {
  it('posts the message with the public key and stream: true', async () => {
    const { fetchImpl } = await collect(streamedResponse(reply, []), 'sess_0');
    const [url, init] = fetchImpl.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('http://127.0.0.1:9/chat/web');
    expect(init.method).toBe('POST');
    expect((init.headers as Record<string, string>).authorization).toBe('Bearer pk_test');
    expect(JSON.parse(init.body as string)).toEqual({
      assistantId: 'asst_1',
      input: 'Hola',
      sessionId: 'sess_0',
      stream: true,
      assistantOverrides: { variableValues: { language } },
    });
  });

  it('reads the same reply and session whatever the chunks, even inside a character', async () => {
    const length = new TextEncoder().encode(reply).length;
    for (let cut = 1; cut < length; cut++) {
      for (const second of [cut + 1, cut + 3, length - 1]) {
        const cuts = second > cut && second < length ? [cut, second] : [cut];
        const { session, text } = await collect(streamedResponse(reply, cuts));
        expect(text).toBe('¿En qué puedo ayudarte? 🙂 Ñandú');
        expect(session).toBe('sess_1');
      }
    }
  });

  it('reads a body split into single bytes', async () => {
    const length = new TextEncoder().encode(reply).length;
    const cuts = Array.from({ length: length - 1 }, (_, i) => i + 1);
    expect((await collect(streamedResponse(reply, cuts))).text).toBe(
      '¿En qué puedo ayudarte? 🙂 Ñandú',
    );
  });

  it('ignores other paths and lines that are not JSON', async () => {
    const body =
      ': keep-alive\n\n' +
      `data: ${JSON.stringify({ sessionId: 's2', path: 'chat.output[0].toolCalls', delta: 'x' })}\n\n` +
      'data: not json\n\n' +
      event('Hola', 's2') +
      'data: [DONE]\n\n';
    expect(await collect(streamedResponse(body, [7]))).toMatchObject({
      text: 'Hola',
      session: 's2',
    });
  });

  it('fails when the stream ends before [DONE]', async () => {
    await expect(collect(streamedResponse(event('Ho'), []))).rejects.toMatchObject({
      kind: 'network',
    });
  });

  it('names the provider’s message on a rejection', async () => {
    const response = Response.json(
      { message: ['assistantId must be a UUID'], error: 'Bad Request', statusCode: 400 },
      { status: 400 },
    );
    const error = (await collect(response).catch((e: unknown) => e)) as ChatError;
    expect(error).toBeInstanceOf(ChatError);
    expect(error.kind).toBe('rejected');
    expect(error.message).toContain('assistantId must be a UUID');
  });

  it('tells 429 apart', async () => {
    const response = Response.json({ message: 'Too Many Requests' }, { status: 429 });
    await expect(collect(response)).rejects.toMatchObject({ kind: 'rateLimited' });
  });

  it('reports a server error as unavailable and a network failure as network', async () => {
    await expect(collect(new Response('oops', { status: 502 }))).rejects.toMatchObject({
      kind: 'unavailable',
    });
    const fetchImpl = vi.fn(async () => {
      throw new TypeError('Failed to fetch');
    });
    await expect(
      sendChatMessage({ config, input: 'x', onDelta: () => {}, fetchImpl }),
    ).rejects.toMatchObject({ kind: 'network' });
  });
});
