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
  consent: {
    text: 'Un agente de seguros con licencia de Clearharbor Health se pondrá en contacto con usted.',
    sha256: '5f0c2a9d8e7b6a5f4e3d2c1b0a9f8e7d6c5b4a3f2e1d0c9b8a7f6e5d4c3b2a19',
    page: '/es/',
    language: 'es',
    at: '2026-11-26T10:00:00.000Z',
    channel: 'form_without_script',
  },
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

  it('shows the notice the visitor was shown, how and where they sent the lead', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify(lead), { status: 200 })),
    );
    render(<LeadPage id={lead.id} onError={() => null} />);
    const label = await screen.findByText('Notice shown');
    const shown = label.nextElementSibling;
    expect(shown).toHaveTextContent(`“${lead.consent?.text}”`);
    expect(shown).toHaveTextContent('The quote form (without JavaScript) on /es/');
    expect(shown).toHaveTextContent(`SHA-256 ${lead.consent?.sha256}`);
  });
});
