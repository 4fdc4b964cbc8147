import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Conversation } from '../api/api';
import { read, sent } from '../api/requests.test-support';
import { ConversationList, ConversationPage, conversationHref } from './Conversations';
import { formatTime } from '../shared/format';

const SHA256 = '9b2cf5358a1e8e3c0d52a1f4bb0c6e1f3a7d9e2b4c6f8a0b1c3d5e7f9a1b3c5d';

const kept: Conversation[] = [
  {
    call_id: 'call/7 b',
    channel: 'voice',
    started_at: '2026-11-26T09:52:00.000Z',
    reported_at: '2026-11-26T10:00:00.000Z',
    ended_reason: 'customer-ended-call',
    lead_id: null,
    summary: 'Asked about Medicare prices.',
    transcript_lines_dropped: 0,
    recording_url: 'https://storage.vapi.ai/call-7.wav',
    recording: null,
    legal_hold_at: null,
    notice_accepted: null,
  },
  {
    call_id: 'call-6',
    channel: 'chat',
    started_at: null,
    reported_at: '2026-11-25T10:00:00.000Z',
    ended_reason: null,
    lead_id: '0190d7a0-0000-7000-8000-000000000001',
    summary: null,
    transcript_lines_dropped: 0,
    recording_url: null,
    recording: null,
    legal_hold_at: null,
    notice_accepted: null,
  },
];

/** The server is the one part out of reach here: it answers as the admin API does. */
function answering(body: unknown) {
  const fetch = vi.fn(
    async (_request: Request) => new Response(JSON.stringify(body), { status: 200 }),
  );
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
    const first = await screen.findByRole('link', { name: /^Call, / });
    expect(first).toHaveAttribute('href', '#conversation/call%2F7%20b');
    expect(screen.getByText('Asked about Medicare prices.')).toBeInTheDocument();
    expect(screen.getByText(/No lead/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Its lead' })).toHaveAttribute(
      'href',
      `#lead/${kept[1].lead_id}`,
    );
  });

  it('shows when each started, or was reported when the provider did not say, and its channel', async () => {
    answering({ conversations: kept });
    render(<ConversationList onError={() => null} />);
    expect(
      await screen.findByRole('link', { name: `Call, ${formatTime(kept[0].started_at)}` }),
    ).toBeInTheDocument();
    expect(
      screen.getByRole('link', { name: `Chat, ${formatTime(kept[1].reported_at)}` }),
    ).toHaveAttribute('href', '#conversation/call-6');
    // A chat has no end-of-call report: its latest message instead.
    expect(screen.getByText(/Customer ended call/)).toBeInTheDocument();
    expect(
      screen.getByText(new RegExp(`Latest message ${formatTime(kept[1].reported_at)}`)),
    ).toBeInTheDocument();
  });

  it("reads one with its whole transcript, by its call id's own link", async () => {
    const fetch = answering({ ...kept[0], transcript: 'AI: Hola.\nUser: Medicare, please.' });
    render(<ConversationPage callId="call/7 b" onError={() => null} />);
    expect(await screen.findByText(/User: Medicare, please\./)).toBeInTheDocument();
    expect((await sent(fetch)).map(({ path }) => path)).toContain(
      '/api/admin/conversations/call%2F7%20b',
    );
    expect(screen.getByRole('link', { name: 'At the voice provider' })).toHaveAttribute(
      'href',
      kept[0].recording_url,
    );
    expect(conversationHref('call/7 b')).toBe('#conversation/call%2F7%20b');
  });

  it("says when the visitor accepted the notice before it, in which language, and the text's hash", async () => {
    const text = 'You are about to talk to an artificial intelligence assistant, not a person.';
    const at = '2026-11-26T09:51:58.000Z';
    answering({
      ...kept[0],
      transcript: 'AI: Hola.',
      notice_accepted: { at, text, sha256: SHA256, language: 'es' },
    });
    render(<ConversationPage callId="call/7 b" onError={() => null} />);
    const notice = (await screen.findByText('Notice')).nextElementSibling;
    expect(notice).toHaveTextContent(`Accepted ${formatTime(at)}, Spanish, SHA-256 9b2cf5358a1e…`);
    expect(screen.getByText('9b2cf5358a1e…')).toHaveAttribute('title', text);
  });

  it('says when no acceptance of its notice was recorded', async () => {
    answering({ ...kept[0], transcript: null });
    render(<ConversationPage callId="call/7 b" onError={() => null} />);
    expect((await screen.findByText('Notice')).nextElementSibling).toHaveTextContent(
      'Not recorded',
    );
  });

  it("plays and downloads the site's own copy of the recording once it is stored", async () => {
    answering({
      ...kept[0],
      transcript: 'AI: Hola.',
      recording: { status: 'stored', sha256: SHA256, bytes: 1_234_567, error: null },
    });
    render(<ConversationPage callId="call/7 b" onError={() => null} />);
    const player = await screen.findByLabelText('Call recording');
    const href = '/api/admin/conversations/call%2F7%20b/recording';
    expect(player.tagName).toBe('AUDIO');
    expect(player).toHaveAttribute('src', href);
    expect(player).toHaveAttribute('controls');
    expect(player).toHaveAttribute('preload', 'none');
    const download = screen.getByRole('link', { name: 'Download the recording' });
    expect(download).toHaveAttribute('href', href);
    expect(download).toHaveAttribute('download');
    expect(screen.getByText(/Kept on this site, 1\.2 MB, SHA-256/)).toBeInTheDocument();
    expect(screen.getByText('9b2cf5358a1e…')).toHaveAttribute('title', SHA256);
    expect(screen.getByText('Channel').nextElementSibling).toHaveTextContent('Call');
    expect(screen.getByText('Started').nextElementSibling).toHaveTextContent(
      formatTime(kept[0].started_at),
    );
    // The site's copy is the one to keep: the provider's link is no longer offered.
    expect(screen.queryByRole('link', { name: 'At the voice provider' })).toBeNull();
  });

  it('says the recording is being copied, with the last error, and keeps the provider link', async () => {
    answering({
      ...kept[0],
      transcript: null,
      recording: { status: 'pending', sha256: null, bytes: null, error: 'HTTP 503' },
    });
    render(<ConversationPage callId="call/7 b" onError={() => null} />);
    expect(await screen.findByText(/is being copied from the voice provider/)).toBeInTheDocument();
    expect(screen.getByText('Last error: HTTP 503')).toBeInTheDocument();
    expect(screen.queryByLabelText('Call recording')).toBeNull();
    expect(screen.getByRole('link', { name: 'At the voice provider' })).toHaveAttribute(
      'href',
      kept[0].recording_url,
    );
  });

  it('says when the recording could not be copied, why, and keeps the provider link', async () => {
    const error = 'the provider answered HTTP 404';
    answering({
      ...kept[0],
      transcript: null,
      recording: { status: 'failed', sha256: null, bytes: null, error },
    });
    render(<ConversationPage callId="call/7 b" onError={() => null} />);
    expect(
      await screen.findByText('It could not be copied from the voice provider.'),
    ).toBeInTheDocument();
    expect(screen.getByText(`Last error: ${error}`)).toBeInTheDocument();
    expect(screen.queryByLabelText('Call recording')).toBeNull();
    expect(screen.getByRole('link', { name: 'At the voice provider' })).toHaveAttribute(
      'href',
      kept[0].recording_url,
    );
  });

  it('links no provider address but an absolute https one', async () => {
    for (const url of [
      '/api/admin/quote-requests',
      'javascript:fetch("/api/admin/quote-requests")',
      'http://storage.vapi.ai/call-7.wav',
    ]) {
      answering({
        ...kept[0],
        recording_url: url,
        transcript: null,
        recording: { status: 'failed', sha256: null, bytes: null, error: 'not listed' },
      });
      render(<ConversationPage callId="call/7 b" onError={() => null} />);
      expect(await screen.findByText('Last error: not listed')).toBeInTheDocument();
      expect(screen.queryByRole('link', { name: 'At the voice provider' }), url).toBeNull();
      expect(document.querySelector('a[href^="javascript"], a[href^="/api"]')).toBeNull();
      cleanup();
    }
  });

  it('shows a chat by its latest message, without a recording', async () => {
    answering({ ...kept[1], transcript: 'User: Hola.' });
    render(<ConversationPage callId="call-6" onError={() => null} />);
    expect(await screen.findByText('Latest message')).toBeInTheDocument();
    expect(screen.getByText('Channel').nextElementSibling).toHaveTextContent('Chat');
    expect(screen.getByText('Started').nextElementSibling).toHaveTextContent('Not reported');
    expect(screen.queryByText('Recording')).toBeNull();
    expect(screen.queryByText('Ended')).toBeNull();
    expect(screen.queryByText(/not kept/)).toBeNull();
  });

  it('puts a conversation on legal hold and lets it go, saying which it is', async () => {
    const heldAt = '2026-11-27T08:00:00.000Z';
    const fetch = vi.fn(async (request: Request) => {
      const { method, body: change } = await read(request);
      const held = method === 'PATCH' && (change as { legal_hold: boolean }).legal_hold;
      const body = { ...kept[0], transcript: 'AI: Hi', legal_hold_at: held ? heldAt : null };
      return new Response(JSON.stringify(body), { status: 200 });
    });
    vi.stubGlobal('fetch', fetch);
    render(<ConversationPage callId={kept[0].call_id} onError={() => null} />);
    expect(await screen.findByText(/Not held: deleted once older than/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Put on legal hold' }));
    expect(
      await screen.findByText(
        `On legal hold since ${formatTime(heldAt)}: kept, with its recording, until let go.`,
      ),
    ).toBeInTheDocument();
    expect((await sent(fetch))[1]).toEqual({
      path: '/api/admin/conversations/call%2F7%20b',
      method: 'PATCH',
      body: { legal_hold: true },
    });
    await userEvent.click(screen.getByRole('button', { name: 'Let go of the legal hold' }));
    expect(await screen.findByText(/Not held/)).toBeInTheDocument();
  });

  it('says how many lines of a transcript over its bound were not kept', async () => {
    answering({ ...kept[1], transcript: 'User: Hola.', transcript_lines_dropped: 12 });
    render(<ConversationPage callId="call-6" onError={() => null} />);
    expect(
      await screen.findByText('12 later lines were not kept: the transcript is kept to 256 KiB.'),
    ).toBeInTheDocument();
  });
});
