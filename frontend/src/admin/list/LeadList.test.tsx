import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { emptyFilter, type Filter, type ListedLead } from '../api/api';
import { LeadList } from './LeadList';

const base: ListedLead = {
  id: '0190d7a0-0000-7000-8000-000000000001',
  product: 'individual',
  email: 'texas.lead@example.com',
  source: 'web',
  user_agent: null,
  created_at: '2026-11-26T10:00:00Z',
  call_id: null,
  call_ended_reason: null,
  call_summary: null,
  delivery: null,
  status: 'new',
  status_changed_at: null,
  spam_reason: null,
  note: null,
  language: 'en',
  phone: '+15555550123',
  may_call: true,
  call_consent: 'written',
  written_later: null,
  zip: '78701',
  state: 'TX',
  licensed: false,
  consent: null,
};

const rows: ListedLead[] = [
  base,
  {
    ...base,
    id: '0190d7a0-0000-7000-8000-000000000002',
    email: 'illinois.lead@example.com',
    zip: '60614',
    state: 'IL',
    licensed: true,
    status: 'do_not_contact',
  },
  {
    ...base,
    id: '0190d7a0-0000-7000-8000-000000000003',
    email: 'no.zip@example.com',
    phone: null,
    may_call: false,
    call_consent: null,
    zip: null,
    state: null,
    licensed: null,
  },
];

/** The admin API's list: the same rows whatever is asked; the test reads what was asked. */
function listing() {
  const fetch = vi.fn(
    async (_request: Request) =>
      new Response(JSON.stringify({ quote_requests: rows, next_cursor: null }), { status: 200 }),
  );
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

/** The list as the inbox holds it: the filter kept above it (InboxApp). */
function Inbox({ start = emptyFilter }: { start?: Filter }) {
  const [filter, setFilter] = useState(start);
  return <LeadList filter={filter} onFilter={setFilter} onError={() => null} />;
}

/** The query of the list's last request. */
const lastQuery = (fetch: ReturnType<typeof listing>) =>
  new URL(fetch.mock.calls.at(-1)?.[0].url ?? 'http://no.request/').searchParams;

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the list of leads', () => {
  it("shows each lead's state, and the badge where the broker is not licensed", async () => {
    listing();
    render(<Inbox />);
    await screen.findByText('3 leads on this page.');
    for (const list of [screen.getByRole('list', { name: 'Leads' }), screen.getByRole('table')]) {
      const texas = within(list)
        .getByRole('link', { name: 'texas.lead@example.com' })
        .closest('li, tr') as HTMLElement;
      expect(texas).toHaveTextContent('Texas');
      expect(within(texas).getByText('Not licensed in Texas')).toBeInTheDocument();
      const illinois = within(list)
        .getByRole('link', { name: 'illinois.lead@example.com' })
        .closest('li, tr') as HTMLElement;
      expect(illinois).toHaveTextContent('Illinois');
      expect(illinois).toHaveTextContent('Do not contact');
      expect(illinois).not.toHaveTextContent('Not licensed');
      const none = within(list)
        .getByRole('link', { name: 'no.zip@example.com' })
        .closest('li, tr') as HTMLElement;
      expect(none).not.toHaveTextContent(/Texas|Illinois|Not licensed/);
    }
    expect(
      within(screen.getByRole('table')).getByRole('columnheader', { name: 'State' }),
    ).toBeInTheDocument();
  });

  it('filters by state and by "Do not contact", as query parameters of the list and the CSV', async () => {
    const fetch = listing();
    render(<Inbox />);
    await screen.findByText('3 leads on this page.');
    expect(lastQuery(fetch).has('state')).toBe(false);
    const status = screen.getByLabelText('Status');
    expect(within(status).getByRole('option', { name: 'Do not contact' })).toHaveValue(
      'do_not_contact',
    );
    await userEvent.selectOptions(status, 'do_not_contact');
    const state = screen.getByLabelText('State');
    expect(within(state).getByRole('option', { name: 'Any state' })).toHaveValue('');
    expect(within(state).getByRole('option', { name: 'District of Columbia (DC)' })).toHaveValue(
      'DC',
    );
    await userEvent.selectOptions(state, 'TX');
    await userEvent.click(screen.getByRole('button', { name: 'Apply' }));
    await vi.waitFor(() => expect(lastQuery(fetch).get('state')).toBe('TX'));
    expect(lastQuery(fetch).get('status')).toBe('do_not_contact');
    expect(screen.getByRole('link', { name: 'Download CSV' })).toHaveAttribute(
      'href',
      expect.stringMatching(/[?&]status=do_not_contact&state=TX&format=csv&/),
    );
    // Two filters on: the phone's Filters button says so.
    expect(screen.getByRole('button', { name: 'Filters (2)' })).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Clear' }));
    await vi.waitFor(() => expect(lastQuery(fetch).has('state')).toBe(false));
    expect(state).toHaveValue('');
  });

  it('offers every state, DC and the territories, named, by their two letters', async () => {
    listing();
    render(<Inbox />);
    await screen.findByText('3 leads on this page.');
    // "Any state", the 50 states and DC, the territories, freely associated states, armed forces.
    const options = within(screen.getByLabelText('State')).getAllByRole('option');
    expect(options).toHaveLength(63);
    expect(options.map((option) => (option as HTMLOptionElement).value)).toEqual(
      expect.arrayContaining(['TX', 'DC', 'PR', 'GU', 'VI', 'AS', 'MP']),
    );
    expect(
      within(screen.getByLabelText('State')).getByRole('option', { name: 'Puerto Rico (PR)' }),
    ).toBeInTheDocument();
  });
});
