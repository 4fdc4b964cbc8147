import { describe, expect, it } from 'vitest';
import { api, CSV_ROWS, deliveryChannels, emptyFilter, filterQuery } from './api';

describe('the inbox filter as query parameters', () => {
  it('leaves out empty and blank parts and trims the rest', () => {
    expect(filterQuery(emptyFilter)).toBe('');
    expect(filterQuery({ ...emptyFilter, source: 'voice', email: '  Ana_B  ', product: ' ' })).toBe(
      'source=voice&email=Ana_B',
    );
  });

  it('adds the page or the format, escaping what needs it', () => {
    expect(filterQuery({ ...emptyFilter, email: 'a+b@x.com' }, { limit: '25' })).toBe(
      'email=a%2Bb%40x.com&limit=25',
    );
    expect(api.csvHref({ ...emptyFilter, status: 'new', since: '2026-01-01' })).toBe(
      `/api/admin/quote-requests?status=new&since=2026-01-01&format=csv&limit=${CSV_ROWS}`,
    );
  });

  it('asks for a state by its two letters, and for the leads not to be contacted', () => {
    expect(filterQuery({ ...emptyFilter, status: 'do_not_contact', state: 'TX' })).toBe(
      'status=do_not_contact&state=TX',
    );
    expect(api.csvHref({ ...emptyFilter, state: 'IL' })).toBe(
      `/api/admin/quote-requests?state=IL&format=csv&limit=${CSV_ROWS}`,
    );
  });
});

describe('the download links', () => {
  it("point at a recording and a lead's records, escaping the ids", () => {
    expect(api.recordingHref('call/7 b')).toBe('/api/admin/conversations/call%2F7%20b/recording');
    expect(api.recordsHref('0190d7a0-0000-7000-8000-000000000001')).toBe(
      '/api/admin/quote-requests/0190d7a0-0000-7000-8000-000000000001/records',
    );
  });
});

describe('delivery channels', () => {
  const delivery = {
    status: 'pending',
    attempts: 2,
    last_error: 'HTTP 503',
    delivered_at: null,
  } as const;

  it('names each channel with an entry, in order; none when every channel was off', () => {
    expect(deliveryChannels({ delivery: null })).toEqual([]);
    expect(
      deliveryChannels({ delivery: { webhook: delivery, email: null, follow_up: null } }),
    ).toEqual([['Webhook', delivery]]);
    expect(
      deliveryChannels({ delivery: { webhook: null, email: delivery, follow_up: delivery } }),
    ).toEqual([
      ['E-mail', delivery],
      ['Follow-up e-mail', delivery],
    ]);
  });
});
