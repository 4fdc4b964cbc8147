import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
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

/** A lead from a call with the assistant. */
const voiceLead: Lead = {
  ...lead,
  email: 'voice.lead@example.com',
  source: 'voice',
  call_id: 'call-e2e',
  call_ended_reason: 'customer-ended-call',
  call_transcript: 'AI: Hello.',
  call_recording_url: 'https://storage.vapi.ai/call-e2e.wav',
};

/** The server is the one part out of reach here: it answers the lead as the admin API does. */
function answering(body: Lead) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response(JSON.stringify(body), { status: 200 })),
  );
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe("a lead's page", () => {
  it('answers by e-mail to exactly the stored address, with no header but the subject', async () => {
    answering(lead);
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
    answering(lead);
    render(<LeadPage id={lead.id} onError={() => null} />);
    const label = await screen.findByText('Language');
    expect(label.nextElementSibling).toHaveTextContent('Spanish');
  });

  it('shows the notice the visitor was shown, how and where they sent the lead', async () => {
    answering(lead);
    render(<LeadPage id={lead.id} onError={() => null} />);
    const label = await screen.findByText('Notice shown');
    const shown = label.nextElementSibling;
    expect(shown).toHaveTextContent(`“${lead.consent?.text}”`);
    expect(shown).toHaveTextContent('The quote form (without JavaScript) on /es/');
    expect(shown).toHaveTextContent(`SHA-256 ${lead.consent?.sha256}`);
  });

  it("downloads the lead's records for an auditor as a ZIP, saying what they hold", async () => {
    answering(lead);
    render(<LeadPage id={lead.id} onError={() => null} />);
    const link = await screen.findByRole('link', { name: 'Download records (ZIP)' });
    expect(link).toHaveAttribute('href', `/api/admin/quote-requests/${lead.id}/records`);
    expect(link).toHaveAttribute('download');
    const records = screen.getByRole('region', { name: 'Records for an auditor' });
    expect(records).toHaveTextContent(/copy to hand an auditor/);
    expect(records).toHaveTextContent(/consent record and the notice it was shown/);
    expect(records).toHaveTextContent(/transcript and recording/);
    expect(records).toHaveTextContent(/manifest of each file's SHA-256/);
  });

  it('says before deleting that the call, its transcript and recording, stay on a legal hold', async () => {
    answering(voiceLead);
    render(<LeadPage id={voiceLead.id} onError={() => null} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Delete lead' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete this lead?' });
    const said = within(dialog).getByText(/will be deleted for good/);
    expect(said).toHaveTextContent(
      'The call it came from, with its transcript and recording, is kept: a legal hold',
    );
    expect(said).toHaveTextContent(/removed only once older than CONVERSATION_RETENTION_DAYS\./);
    expect(said).toHaveTextContent(/Its consent record is kept too\./);
  });

  it('says before deleting a web lead that its consent record is kept', async () => {
    answering(lead);
    render(<LeadPage id={lead.id} onError={() => null} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Delete lead' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete this lead?' });
    const said = within(dialog).getByText(/will be deleted for good/);
    expect(said).toHaveTextContent(/Its consent record is kept\.$/);
    expect(said).not.toHaveTextContent(/transcript/);
  });
});
