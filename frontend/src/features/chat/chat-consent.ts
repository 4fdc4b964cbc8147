// The chat's question on the consent to be called: when to ask it, and the click sent to the
// site (`POST /api/chat-consent`), which records the site's own text for the page's language,
// never one the page sends (docs/voice-assistant.md, "Consent to be called in a chat").
import { language } from '../../language';

/**
 * Whether the visitor's line holds what reads as a US phone number: ten digits (an area code
 * and a number, in any of the usual groupings), or eleven after a leading 1. The assistant takes
 * the number from the conversation; the page only needs to know it was typed, so the question
 * comes whichever turn it was typed in, and never for a ZIP code or a date.
 */
export function looksLikePhone(text: string): boolean {
  const candidates = text.match(/\+?[\d(][\d\s().-]{8,}\d/g) ?? [];
  return candidates.some((candidate) => {
    const digits = candidate.replace(/\D/g, '');
    return digits.length === 10 || (digits.length === 11 && digits.startsWith('1'));
  });
}

export type ConsentAnswer = 'yes' | 'no';

/** Posts the visitor's answer for chat `chatId` (the session the provider's replies name). */
export async function sendConsent(
  chatId: string,
  answer: ConsentAnswer,
  fetchImpl: typeof fetch = fetch,
): Promise<void> {
  const response = await fetchImpl('/api/chat-consent', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ chat_id: chatId, answer, lang: language }),
  });
  if (!response.ok) throw new Error(`chat-consent answered ${response.status}`);
}
