import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Lead } from './api';
import { LeadPage } from './LeadPage';

// An address the server accepts (every character of its local part is RFC 5322 atext) that,
// written into a `mailto:` link as it is, adds a hidden Bcc in the broker's mail client.
const CRAFTED = 'ana%40victim.example?bcc=spy%40evil.example&x=@example.com';

const lead: Lead = {
  id: '0190d7a0-0000-7000-8000-000000000001',
  product: 'individual',
  email: CRAFTED,
  source: 'web',
  user_agent: null,
  created_at: '2026-11-26T10:00:00Z',
  call_id: null,
  call_ended_reason: null,
  call_summary: null,
  call_transcript: null,
  delivery: null,
  status: 'new',
  status_changed_at: null,
  spam_reason: null,
  note: null,
  language: 'es',
  call_ended: null,
  call_recording_url: null,
};

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe("a lead's page", () => {
  it('answers by e-mail to exactly the stored address, with no header but the subject', async () => {
    // The server is the one part out of reach here: it answers the lead as the admin API does.
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify(lead), { status: 200 })),
    );
    render(<LeadPage id={lead.id} onError={() => null} />);
    const link = await screen.findByRole('link', { name: 'Answer by e-mail' });
    const href = new URL(link.getAttribute('href') ?? '');
    expect(href.protocol).toBe('mailto:');
    expect([...new URLSearchParams(href.search)]).toEqual([
      ['subject', expect.stringMatching(/^Your Individual Health quote from /)],
    ]);
    expect(href.hash).toBe('');
    expect(decodeURIComponent(href.pathname)).toBe(CRAFTED);
  });

  it("shows the language of the lead's page, the one to answer in", async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify(lead), { status: 200 })),
    );
    render(<LeadPage id={lead.id} onError={() => null} />);
    const label = await screen.findByText('Language');
    expect(label.nextElementSibling).toHaveTextContent('Spanish');
  });
});
