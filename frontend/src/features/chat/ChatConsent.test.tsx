import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { chatConsent, phoneConsent } from '../../content';
import ChatConsent from './ChatConsent';
import { looksLikePhone, sendConsent } from './chat-consent';

describe('ChatConsent', () => {
  it("shows the site's exact text in a named group whose Yes takes focus and is sent", async () => {
    const send = vi.fn().mockResolvedValue(undefined);
    const onAnswered = vi.fn();
    render(<ChatConsent chatId="session-1" onAnswered={onAnswered} send={send} />);
    const group = screen.getByRole('group', { name: chatConsent.label });
    expect(group).toHaveAccessibleDescription(phoneConsent);
    const yes = screen.getByRole('button', { name: chatConsent.yes });
    expect(yes).toHaveFocus();
    await userEvent.click(yes);
    expect(send).toHaveBeenCalledWith('session-1', 'yes');
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent(chatConsent.given));
    expect(screen.queryByRole('group')).toBeNull();
    expect(onAnswered).toHaveBeenCalledOnce();
  });

  it('sends a No, and keeps the buttons with an alert when the answer is not recorded', async () => {
    const send = vi.fn().mockRejectedValueOnce(new Error('503')).mockResolvedValue(undefined);
    const panel = within(
      render(<ChatConsent chatId="s" onAnswered={() => {}} send={send} />).container,
    );
    await userEvent.click(panel.getByRole('button', { name: chatConsent.no }));
    expect(await panel.findByRole('alert')).toHaveTextContent(chatConsent.failed);
    await userEvent.click(panel.getByRole('button', { name: chatConsent.no }));
    await waitFor(() => expect(panel.getByRole('status')).toHaveTextContent(chatConsent.declined));
    expect(send).toHaveBeenLastCalledWith('s', 'no');
  });
});

describe('looksLikePhone', () => {
  it('finds a US number in the usual groupings, and not a ZIP code, a date or a short number', () => {
    for (const text of [
      'my number is (555) 555-0123',
      '555.555.0123',
      'call +1 555 555 0123 please',
      '5555550123',
      '1-555-555-0123',
    ])
      expect(looksLikePhone(text), text).toBe(true);
    for (const text of ['60601', 'born 1950-01-02', '555-0123', 'ana@example.com', '123456789012'])
      expect(looksLikePhone(text), text).toBe(false);
  });
});

describe('sendConsent', () => {
  it("posts the chat's id, the answer and the page's language, never a text", async () => {
    const fetchImpl = vi.fn().mockResolvedValue(new Response(null, { status: 204 }));
    await sendConsent('session-1', 'yes', fetchImpl);
    const [url, init] = fetchImpl.mock.calls[0] as [string, RequestInit];
    expect(url).toBe('/api/chat-consent');
    expect(JSON.parse(init.body as string)).toEqual({
      chat_id: 'session-1',
      answer: 'yes',
      lang: 'en',
    });
    fetchImpl.mockResolvedValue(new Response(null, { status: 429 }));
    await expect(sendConsent('s', 'no', fetchImpl)).rejects.toThrow('429');
  });
});
