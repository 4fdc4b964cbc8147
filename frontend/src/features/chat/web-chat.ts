// The provider's web chat (`POST /chat/web`), the way its own widget talks to it
// (VapiAI/client-sdk-react, src/utils/vapiChatClient.ts): the public key as bearer, the reply
// streamed as server-sent events, each carrying a piece of the assistant's text.
import { EventSourceParserStream } from 'eventsource-parser/stream';
import type { VoiceConfig } from '../../lib/client-config';
import { language } from '../../language';

/** The provider's API when the server names none (VAPI_API_BASE_URL unset). */
export const DEFAULT_API_BASE_URL = 'https://api.vapi.ai';

/** The only event path that carries the assistant's words; others (tool calls...) are not shown. */
const REPLY_PATH = 'chat.output[0].content';
const DONE = '[DONE]';

/** Why a message got no (full) reply, for the words the visitor reads. */
export type ChatFailureKind = 'rateLimited' | 'rejected' | 'network' | 'unavailable';

export class ChatError extends Error {
  constructor(
    readonly kind: ChatFailureKind,
    message: string,
  ) {
    super(message);
    this.name = 'ChatError';
  }
}

interface ReplyChunk {
  sessionId?: unknown;
  path?: unknown;
  delta?: unknown;
}

export interface SendOptions {
  config: Pick<VoiceConfig, 'publicKey' | 'assistantId' | 'apiBaseUrl'>;
  input: string;
  /** The session the previous reply named; absent for the first message. */
  sessionId?: string;
  /** Each piece of the reply, as it arrives. */
  onDelta: (text: string) => void;
  signal?: AbortSignal;
  fetchImpl?: typeof fetch;
}

/**
 * Sends one message and streams the reply. Resolves to the session id the reply named (the next
 * message must carry it); fails with a {@link ChatError}.
 */
export async function sendChatMessage({
  config,
  input,
  sessionId,
  onDelta,
  signal,
  fetchImpl = fetch,
}: SendOptions): Promise<string | undefined> {
  const base = (config.apiBaseUrl ?? DEFAULT_API_BASE_URL).replace(/\/+$/, '');
  let response: Response;
  try {
    response = await fetchImpl(`${base}/chat/web`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${config.publicKey}`,
        'content-type': 'application/json',
        accept: 'text/event-stream',
      },
      body: JSON.stringify({
        assistantId: config.assistantId,
        input,
        sessionId,
        stream: true,
        // The assistant speaks the page's language, as in a call (features/voice/sdk/page-language).
        assistantOverrides: { variableValues: { language } },
      }),
      signal,
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ChatError('network', `chat/web could not be reached: ${String(error)}`);
  }
  if (!response.ok) throw await failureOf(response);
  if (!response.body) throw new ChatError('unavailable', 'chat/web answered without a body');

  let session = sessionId;
  let done = false;
  const events = response.body
    // Decodes across chunk boundaries: a character split between two chunks comes out whole.
    .pipeThrough(new TextDecoderStream())
    .pipeThrough(new EventSourceParserStream())
    .getReader();
  try {
    while (!done) {
      const { value: event, done: ended } = await events.read();
      if (ended) break;
      if (event.data === DONE) {
        done = true;
        break;
      }
      const chunk = parseChunk(event.data);
      if (!chunk) continue;
      if (typeof chunk.sessionId === 'string' && chunk.sessionId) session = chunk.sessionId;
      if (chunk.path === REPLY_PATH && typeof chunk.delta === 'string' && chunk.delta)
        onDelta(chunk.delta);
    }
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ChatError('network', `the reply broke off: ${String(error)}`);
  } finally {
    if (done) void events.cancel().catch(() => undefined);
    events.releaseLock();
  }
  if (!done) throw new ChatError('network', 'the reply ended before [DONE]');
  return session;
}

function parseChunk(data: string): ReplyChunk | null {
  try {
    const parsed: unknown = JSON.parse(data);
    return parsed && typeof parsed === 'object' ? (parsed as ReplyChunk) : null;
  } catch {
    return null; // a keep-alive or a line this reader does not know: not the reply
  }
}

/** The provider answers errors as `{ message: string | string[], error, statusCode }`. */
async function failureOf(response: Response): Promise<ChatError> {
  const body: unknown = await response.json().catch(() => null);
  const message = (body as { message?: unknown } | null)?.message;
  const detail = Array.isArray(message)
    ? message.join('; ')
    : String(message ?? response.statusText);
  const kind: ChatFailureKind =
    response.status === 429
      ? 'rateLimited'
      : response.status >= 400 && response.status < 500
        ? 'rejected'
        : 'unavailable';
  return new ChatError(kind, `chat/web answered ${response.status}: ${detail}`);
}
