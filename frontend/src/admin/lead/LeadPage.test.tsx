import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Lead } from '../api/api';
import { read, sent } from '../api/requests.test-support';
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
  phone: null,
  may_call: false,
  call_consent: null,
  written_later: null,
  zip: null,
  state: null,
  licensed: null,
  consent: {
    text: 'Un agente de seguros con licencia de Clearharbor Health se pondrá en contacto con usted.',
    sha256: '5f0c2a9d8e7b6a5f4e3d2c1b0a9f8e7d6c5b4a3f2e1d0c9b8a7f6e5d4c3b2a19',
    page: '/es/',
    language: 'es',
    at: '2026-11-26T10:00:00.000Z',
    channel: 'form_without_script',
    phone: null,
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

const PHONE_CONSENT =
  'I agree that Clearharbor Health may call or text me at this number about my quote, possibly ' +
  'using automated technology. Consent is not a condition of purchase.';

/** A lead from Austin, Texas, who gave a number and ticked the box; the broker is licensed there. */
const callableLead: Lead = {
  ...lead,
  email: 'call.me@example.com',
  language: 'en',
  phone: '+15555550123',
  may_call: true,
  call_consent: 'written',
  zip: '78701',
  state: 'TX',
  licensed: true,
  consent: {
    text: 'A licensed insurance agent of Clearharbor Health will contact you about your quote.',
    sha256: '5f0c2a9d8e7b6a5f4e3d2c1b0a9f8e7d6c5b4a3f2e1d0c9b8a7f6e5d4c3b2a19',
    page: '/',
    language: 'en',
    at: '2026-11-26T10:00:00.000Z',
    channel: 'form',
    phone: { text: PHONE_CONSENT, given: true },
  },
};

/** The same kind of number, the box left unticked: e-mail only. */
const emailOnlyLead: Lead = {
  ...callableLead,
  email: 'email.only@example.com',
  may_call: false,
  call_consent: null,
  written_later: null,
  zip: '60614',
  state: 'IL',
  licensed: true,
  consent: callableLead.consent && {
    ...callableLead.consent,
    phone: { text: PHONE_CONSENT, given: false },
  },
};

/** A caller who told the assistant yes: oral consent, the number dialled by hand only. */
const oralLead: Lead = {
  ...callableLead,
  email: 'said.yes@example.com',
  source: 'voice',
  call_id: 'call-oral',
  call_consent: 'oral',
  consent: callableLead.consent && { ...callableLead.consent, channel: 'voice' },
};

/** The server is the one part out of reach here: it answers the lead as the admin API does. */
function answering(body: Lead) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response(JSON.stringify(body), { status: 200 })),
  );
}

/** The admin API holding one lead: GET answers it, PATCH changes its status and answers it. */
function holding(stored: Lead) {
  let current = stored;
  const fetch = vi.fn(async (request: Request) => {
    const { method, body } = await read(request);
    if (method === 'PATCH') {
      const change = body as Pick<Lead, 'status'>;
      current = { ...current, ...change, status_changed_at: '2026-11-27T09:00:00Z' };
    }
    return new Response(JSON.stringify(current), { status: 200 });
  });
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

/** The links that would dial the lead. */
const telLinks = () =>
  screen.queryAllByRole('link').filter((link) => link.getAttribute('href')?.startsWith('tel:'));

/** A field's value on the page, by its label. */
async function fieldValue(label: string) {
  return (await screen.findByText(label, { selector: 'dt' })).nextElementSibling;
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

  it("links the call's recording at the provider only at an absolute https address", async () => {
    answering(voiceLead);
    render(<LeadPage id={voiceLead.id} onError={() => null} />);
    expect(await screen.findByRole('link', { name: 'Listen to the recording' })).toHaveAttribute(
      'href',
      voiceLead.call_recording_url,
    );
    for (const url of ['/api/admin/quote-requests', 'javascript:alert(1)', 'http://a.example/r']) {
      cleanup();
      answering({ ...voiceLead, call_recording_url: url });
      render(<LeadPage id={voiceLead.id} onError={() => null} />);
      expect(await screen.findByRole('heading', { name: voiceLead.email })).toBeInTheDocument();
      expect(screen.queryByRole('link', { name: 'Listen to the recording' }), url).toBeNull();
    }
  });

  it('says before deleting that the call, its transcript and recording, stay until their time or a legal hold', async () => {
    answering(voiceLead);
    render(<LeadPage id={voiceLead.id} onError={() => null} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Delete lead' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete this lead?' });
    const said = within(dialog).getByText(/will be deleted for good/);
    expect(said).toHaveTextContent(
      'The call it came from, with its transcript and recording, is kept with the records',
    );
    expect(said).toHaveTextContent(
      /removed once older than CONVERSATION_RETENTION_DAYS unless put on legal hold on its page\./,
    );
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

describe("a lead's phone number, ZIP code and state", () => {
  it('calls a number the visitor agreed to be called at: a Call button and the number', async () => {
    answering(callableLead);
    render(<LeadPage id={callableLead.id} onError={() => null} />);
    const call = await screen.findByRole('link', { name: 'Call (555) 555-0123' });
    expect(call).toHaveAttribute('href', 'tel:+15555550123');
    expect(call).toHaveTextContent(/^Call$/);
    // Wider than a phone the Call button is hidden and the number itself is the link.
    expect(call).toHaveClass('md:hidden');
    expect(screen.getByRole('link', { name: '(555) 555-0123' })).toHaveAttribute(
      'href',
      'tel:+15555550123',
    );
    expect(telLinks()).toHaveLength(2);
    expect(screen.queryByText(/no consent to call/)).not.toBeInTheDocument();
  });

  it('asks a number without written consent for it in writing: an e-mail to the visitor', async () => {
    const fetch = vi.fn(async (request: Request) =>
      request.method === 'POST'
        ? new Response(
            JSON.stringify({
              sent_to: oralLead.email,
              language: 'en',
              expires_at: '2026-12-27T09:00:00.000Z',
            }),
            { status: 200 },
          )
        : new Response(JSON.stringify(oralLead), { status: 200 }),
    );
    vi.stubGlobal('fetch', fetch);
    render(<LeadPage id={oralLead.id} onError={() => null} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Ask for written consent' }));
    expect(
      await screen.findByText(
        /^Asked for written consent: an e-mail went to said\.yes@example\.com/,
      ),
    ).toBeInTheDocument();
    expect((await sent(fetch)).at(-1)).toMatchObject({
      path: `/api/admin/quote-requests/${oralLead.id}/consent-request`,
      method: 'POST',
    });
  });

  it('says why when the e-mail could not go, and offers nothing where there is nothing to ask', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (request: Request) =>
        request.method === 'POST'
          ? new Response(
              JSON.stringify({
                code: 'email_not_sent',
                message: 'The e-mail could not be sent now',
              }),
              { status: 503 },
            )
          : new Response(JSON.stringify(emailOnlyLead), { status: 200 }),
      ),
    );
    render(
      <LeadPage
        id={emailOnlyLead.id}
        onError={(failure) => (failure instanceof Error ? failure.message : null)}
      />,
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Ask for written consent' }));
    expect(await screen.findByText('The e-mail could not be sent now')).toBeInTheDocument();
    cleanup();
    for (const shown of [
      callableLead,
      lead,
      { ...oralLead, status: 'spam' as const },
      { ...oralLead, status: 'do_not_contact' as const },
    ]) {
      answering(shown);
      render(<LeadPage id={shown.id} onError={() => null} />);
      await screen.findByRole('heading', { name: shown.email });
      expect(screen.queryByRole('button', { name: 'Ask for written consent' })).toBeNull();
      cleanup();
    }
  });

  it('shows a number given without consent as text, e-mail only', async () => {
    answering(emailOnlyLead);
    render(<LeadPage id={emailOnlyLead.id} onError={() => null} />);
    const phone = await fieldValue('Phone');
    expect(phone).toHaveTextContent('(555) 555-0123');
    expect(phone).toHaveTextContent('E-mail only: no consent to call');
    expect(telLinks()).toEqual([]);
    expect(screen.queryByRole('link', { name: /^Call/ })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Answer by e-mail' })).toBeInTheDocument();
  });

  it("names the ZIP code's state and warns where the broker is not licensed", async () => {
    answering({ ...callableLead, licensed: false });
    render(<LeadPage id={callableLead.id} onError={() => null} />);
    expect(await fieldValue('ZIP code')).toHaveTextContent(/^78701$/);
    expect(await fieldValue('State')).toHaveTextContent(/^Texas \(TX\)$/);
    expect(screen.getByText('Not licensed in Texas')).toBeInTheDocument();
  });

  it('offers no Call link for a lead in a state the broker is not licensed in, and says why', async () => {
    answering({ ...callableLead, licensed: false });
    render(<LeadPage id={callableLead.id} onError={() => null} />);
    expect(await fieldValue('Phone')).toHaveTextContent(
      /No Call link: you are not licensed in Texas/,
    );
    expect(telLinks()).toHaveLength(0);
    expect(screen.queryByRole('link', { name: /^Call/ })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Answer by e-mail' })).toBeInTheDocument();
  });

  it('shows no badge where the broker is licensed, or no licences are listed', async () => {
    answering(emailOnlyLead);
    render(<LeadPage id={emailOnlyLead.id} onError={() => null} />);
    expect(await fieldValue('State')).toHaveTextContent('Illinois (IL)');
    expect(screen.queryByText(/Not licensed/)).not.toBeInTheDocument();
    cleanup();
    answering({ ...callableLead, licensed: null });
    render(<LeadPage id={callableLead.id} onError={() => null} />);
    expect(await fieldValue('State')).toHaveTextContent('Texas (TX)');
    expect(screen.queryByText(/Not licensed/)).not.toBeInTheDocument();
  });

  it('shows no phone, ZIP code or state for a lead without them', async () => {
    answering(lead);
    render(<LeadPage id={lead.id} onError={() => null} />);
    await screen.findByText('Notice shown');
    for (const label of ['Phone', 'ZIP code', 'State', 'Consent to call'])
      expect(screen.queryByText(label, { selector: 'dt' })).not.toBeInTheDocument();
    expect(telLinks()).toEqual([]);
  });

  it('shows the disclosure beside the phone field and whether its box was ticked', async () => {
    answering(callableLead);
    render(<LeadPage id={callableLead.id} onError={() => null} />);
    const consent = await fieldValue('Consent to call');
    expect(consent).toHaveTextContent(`“${PHONE_CONSENT}”`);
    expect(consent).toHaveTextContent('Box ticked: the visitor agreed to be called or texted');
    cleanup();
    answering(emailOnlyLead);
    render(<LeadPage id={emailOnlyLead.id} onError={() => null} />);
    expect(await fieldValue('Consent to call')).toHaveTextContent('Box not ticked: e-mail only.');
  });
});

describe('oral consent', () => {
  it('labels the Call link of a yes said to the assistant: dial by hand, nothing automated', async () => {
    answering(oralLead);
    render(<LeadPage id={oralLead.id} onError={() => null} />);
    await screen.findByRole('link', { name: 'Call (555) 555-0123 (oral consent: dial by hand)' });
    expect(await fieldValue('Phone')).toHaveTextContent(
      'Oral consent: dial by hand, no automated calls or texts',
    );
    expect(await fieldValue('Consent to call')).toHaveTextContent(
      'Said yes to the assistant: oral consent, dial by hand only.',
    );
  });

  it('says nothing of it for the box ticked on the form', async () => {
    answering(callableLead);
    render(<LeadPage id={callableLead.id} onError={() => null} />);
    await screen.findByRole('link', { name: 'Call (555) 555-0123' });
    expect(await fieldValue('Phone')).not.toHaveTextContent('Oral consent');
    expect(await fieldValue('Consent to call')).toHaveTextContent('(written consent)');
  });
});

describe('do not contact', () => {
  it('marks a lead do not contact: no Call or e-mail action, a banner, the lead still readable', async () => {
    const fetch = holding(callableLead);
    render(<LeadPage id={callableLead.id} onError={() => null} />);
    await screen.findByRole('link', { name: 'Call (555) 555-0123' });
    expect(screen.queryByRole('note')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Do not contact' }));
    await screen.findByText('Marked do not contact: nothing more goes out about this lead.');
    expect((await sent(fetch)).at(-1)).toEqual({
      path: `/api/admin/quote-requests/${callableLead.id}`,
      method: 'PATCH',
      body: { status: 'do_not_contact' },
    });
    expect(screen.getByRole('note')).toHaveTextContent('The visitor asked not to be contacted');
    expect(telLinks()).toEqual([]);
    expect(screen.queryByRole('link', { name: 'Answer by e-mail' })).not.toBeInTheDocument();
    // Still readable: the number, the address, the state, the consent it was given.
    expect(await fieldValue('Phone')).toHaveTextContent('(555) 555-0123');
    expect(await fieldValue('E-mail')).toHaveTextContent(callableLead.email);
    expect(await fieldValue('Status')).toHaveTextContent(/^Do not contact/);
    expect(await fieldValue('Consent to call')).toHaveTextContent('Box ticked');
    // Neither spam nor contacted can be set over it, only undone.
    for (const name of ['Do not contact', 'Mark as spam', 'Mark contacted', 'Mark as new'])
      expect(screen.queryByRole('button', { name })).not.toBeInTheDocument();
  });

  it('undoes it: the lead is new again, and the Call and e-mail actions are back', async () => {
    const fetch = holding({ ...callableLead, status: 'do_not_contact' });
    render(<LeadPage id={callableLead.id} onError={() => null} />);
    await screen.findByText('The visitor asked not to be contacted');
    expect(telLinks()).toEqual([]);
    await userEvent.click(screen.getByRole('button', { name: 'Undo do not contact' }));
    await screen.findByText('Do not contact undone: marked as new.');
    expect((await sent(fetch)).at(-1)).toEqual({
      path: `/api/admin/quote-requests/${callableLead.id}`,
      method: 'PATCH',
      body: { status: 'new' },
    });
    expect(screen.queryByRole('note')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Call (555) 555-0123' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Answer by e-mail' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Do not contact' })).toBeInTheDocument();
  });

  it('is not offered on spam, whose "Not spam" would otherwise undo it', async () => {
    answering({ ...callableLead, status: 'spam', spam_reason: 'marked' });
    render(<LeadPage id={callableLead.id} onError={() => null} />);
    await screen.findByRole('button', { name: 'Not spam' });
    expect(screen.queryByRole('button', { name: 'Do not contact' })).not.toBeInTheDocument();
  });
});
