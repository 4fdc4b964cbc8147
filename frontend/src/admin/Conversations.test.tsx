import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Conversation } from './api';
import { ConversationList, ConversationPage, conversationHref } from './Conversations';

const kept: Conversation[] = [
  {
    call_id: 'call/7 b',
    channel: 'voice',
    reported_at: '2026-11-26T10:00:00.000Z',
    ended_reason: 'customer-ended-call',
    lead_id: null,
    summary: 'Asked about Medicare prices.',
    recording_url: 'https://storage.vapi.ai/call-7.wav',
  },
  {
    call_id: 'call-6',
    channel: 'chat',
    reported_at: '2026-11-25T10:00:00.000Z',
    ended_reason: null,
    lead_id: '0190d7a0-0000-7000-8000-000000000001',
    summary: null,
    recording_url: null,
  },
];

/** The server is the one part out of reach here: it answers as the admin API does. */
function answering(body: unknown) {
  const fetch = vi.fn(async () => new Response(JSON.stringify(body), { status: 200 }));
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the conversations', () => {
  it('lists each kept conversation with its lead, or none, newest first', async () => {
    answering({ conversations: kept });
    render(<ConversationList onError={() => null} />);
    const first = await screen.findByRole('link', { name: /^Voice call, / });
    expect(first).toHaveAttribute('href', '#conversation/call%2F7%20b');
    expect(screen.getByText('Asked about Medicare prices.')).toBeInTheDocument();
    expect(screen.getByText(/No lead/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Its lead' })).toHaveAttribute(
      'href',
      `#lead/${kept[1].lead_id}`,
    );
  });

  it("reads one with its whole transcript, by its call id's own link", async () => {
    const fetch = answering({ ...kept[0], transcript: 'AI: Hola.\nUser: Medicare, please.' });
    render(<ConversationPage callId="call/7 b" onError={() => null} />);
    expect(await screen.findByText(/User: Medicare, please\./)).toBeInTheDocument();
    expect(fetch).toHaveBeenCalledWith('/api/admin/conversations/call%2F7%20b', expect.anything());
    expect(screen.getByRole('link', { name: 'At the voice provider' })).toHaveAttribute(
      'href',
      kept[0].recording_url,
    );
    expect(conversationHref('call/7 b')).toBe('#conversation/call%2F7%20b');
  });
});
