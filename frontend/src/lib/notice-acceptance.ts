// The visitor's acceptance of the notice before a conversation, recorded on the server once the
// conversation's id is known (`POST /api/notice-acceptance`, docs/voice-assistant.md): the notice
// before a call, under the id the provider's SDK gave the call, and the chat's, under the session
// the provider's first reply named. The page sends the id and its language, never the text: the
// server keeps its own text for that language. Lazily loaded with the voice session and the
// chat's panel, never in the page's first load.
import { language } from '../language';

/** The conversation whose notice was accepted: a call, or a chat by its session. */
export type AcceptedConversation = { call_id: string } | { chat_id: string };

/**
 * Waits before the second and third attempts (ms). The server keeps a conversation's first
 * acceptance and answers a repeat the same, so trying again after a lost answer is safe, and the
 * record is worth it; a refusal (4xx but 429) is not tried again.
 */
const RETRY_DELAYS_MS = [1000, 3000];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Posts the acceptance; whether the server recorded it (never throws). */
export async function recordNoticeAcceptance(
  conversation: AcceptedConversation,
  { fetchImpl = fetch, wait = sleep }: { fetchImpl?: typeof fetch; wait?: typeof sleep } = {},
): Promise<boolean> {
  const body = JSON.stringify({ ...conversation, lang: language });
  for (let attempt = 0; ; attempt++) {
    let retryable = true;
    try {
      const response = await fetchImpl('/api/notice-acceptance', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      if (response.ok) return true;
      retryable = response.status === 429 || response.status >= 500;
    } catch {
      // The network failed: tried again below.
    }
    const delay = RETRY_DELAYS_MS[attempt];
    if (!retryable || delay === undefined) {
      console.warn('No se pudo registrar la aceptación del aviso', conversation);
      return false;
    }
    await wait(delay);
  }
}
