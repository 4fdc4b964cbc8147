// A stand-in of the voice provider's web chat (`POST {apiBaseUrl}/chat/web`) on loopback, for
// the browser tests that type to the assistant: VAPI_API_BASE_URL points the real site at it, so
// the page's CSP and client configuration are the real ones.
import { createServer } from 'node:http';

/** The session every reply names (the chat's id, as its conversation is kept: chat:sess-e2e). */
export const SESSION_ID = 'sess-e2e';
export const REPLY = '¡Hola! Con gusto te ayudo a cotizar un plan de Medicare. ¿Cuál es tu correo?';
/** Between the reply's pieces, so the page shows it growing (ms). */
const CHUNK_GAP_MS = 60;

/**
 * The provider's web chat as its widget sees it: CORS for the page's origin, one reply streamed
 * as server-sent events in pieces cut anywhere (inside a character too), then `[DONE]`.
 */
export async function startChatStandIn() {
  const received = [];
  const server = createServer((request, response) => {
    response.setHeader('access-control-allow-origin', request.headers.origin ?? '*');
    response.setHeader('access-control-allow-headers', 'authorization, content-type');
    response.setHeader('access-control-allow-methods', 'POST');
    if (request.method === 'OPTIONS') return response.writeHead(204).end();
    if (request.method !== 'POST' || request.url !== '/chat/web')
      return response.writeHead(404).end();
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', async () => {
      received.push({ authorization: request.headers.authorization, body: JSON.parse(body) });
      response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      const events = [REPLY.slice(0, 7), REPLY.slice(7, 40), REPLY.slice(40)]
        .map(
          (delta) =>
            `data: ${JSON.stringify({ id: 'chat-1', sessionId: SESSION_ID, path: 'chat.output[0].content', delta })}\n\n`,
        )
        .join('');
      const bytes = Buffer.from(`${events}data: [DONE]\n\n`);
      // '¡' is two bytes: the first cut falls inside it.
      const cuts = [bytes.indexOf(Buffer.from('¡')) + 1, 90, 170, bytes.length];
      let start = 0;
      for (const end of cuts) {
        response.write(bytes.subarray(start, end));
        start = end;
        await new Promise((resolve) => setTimeout(resolve, CHUNK_GAP_MS));
      }
      response.end();
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    received,
    stop: () => new Promise((resolve) => server.close(resolve)),
  };
}
