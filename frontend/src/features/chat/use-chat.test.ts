import { act, renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { disclaimerText } from '../../components/broker/MedicareDisclaimer';
import { leadNotice } from '../../content';
import { openingLines, useChat } from './use-chat';
import type { SendOptions } from './web-chat';

vi.mock('./web-chat', async (original) => ({
  ...(await original<typeof import('./web-chat')>()),
  sendChatMessage: vi.fn(async ({ onDelta }: SendOptions) => {
    onDelta('How can I help?');
    return 'session-1';
  }),
}));

const config = { publicKey: 'pk', assistantId: 'asst', apiBaseUrl: null, consentText: null };

describe('the chat opens with the Medicare disclaimer and the lead-generation notice', () => {
  it("are the assistant's first lines, in the page's language, the disclaimer when the content shows it", () => {
    expect(openingLines('Disclaimer words.', 'Notice words.')).toEqual([
      { id: -2, role: 'assistant', text: 'Disclaimer words.', lang: 'en' },
      { id: -1, role: 'assistant', text: 'Notice words.', lang: 'en' },
    ]);
    expect(openingLines(undefined, 'Notice words.')).toEqual([
      { id: -1, role: 'assistant', text: 'Notice words.', lang: 'en' },
    ]);
  });

  it("opens the conversation with this page's disclaimer, before the visitor's first line", async () => {
    // The example content (this English build): variant `some`, with its numbers.
    const disclaimer = disclaimerText();
    expect(disclaimer).toMatch(
      /^We do not offer every plan available in your area\. .* 8 organizations which offer 24 products/,
    );
    const { result } = renderHook(() => useChat(config));
    expect(leadNotice).toBe(
      'A licensed insurance agent of Clearharbor Health will contact you about your quote.',
    );
    expect(result.current.lines).toEqual([
      { id: -2, role: 'assistant', text: disclaimer, lang: 'en' },
      { id: -1, role: 'assistant', text: leadNotice, lang: 'en' },
    ]);

    act(() => result.current.send('Hola'));
    await waitFor(() => expect(result.current.replying).toBe(false));
    expect(result.current.lines.map(({ role, text }) => [role, text])).toEqual([
      ['assistant', disclaimer],
      ['assistant', leadNotice],
      ['visitor', 'Hola'],
      ['assistant', 'How can I help?'],
    ]);
    const ids = result.current.lines.map(({ id }) => id);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
