// The admin API as the inbox page uses it: same-origin requests that carry the session cookie
// (the browser adds Origin and Sec-Fetch-Site, which the server checks on every change), made by
// openapi-fetch on the paths of the server's OpenAPI document (api-schema.ts, generated from it),
// so tsc checks each answer's shape against the document.
import createClient from 'openapi-fetch';
import type { components, paths } from './api-schema';

type Schemas = components['schemas'];

/** A lead on its own page (and as a change answers it): with how its call ended, in words. */
export type Lead = Schemas['Lead'];
/** A lead as the list shows it. */
export type ListedLead = Schemas['StoredQuoteRequest'];
export type Status = ListedLead['status'];
export type Delivery = Schemas['Delivery'];
/** Each channel's delivery: null where the lead has no entry on it. */
export type Deliveries = NonNullable<ListedLead['delivery']>;
export type Page = Schemas['QuoteRequestPage'];
/** A kept conversation with the assistant (its transcript only on its own page). */
export type Conversation = Schemas['Conversation'];
/** A booked call with its Scope of Appointment (docs/product.md §13). */
export type Booking = Schemas['Booking'];
/** The site's own copy of a conversation's recording, and where it stands. */
export type Recording = NonNullable<Conversation['recording']>;

const CHANNEL_NAMES: Record<keyof Deliveries, string> = {
  webhook: 'Webhook',
  email: 'E-mail',
  follow_up: 'Follow-up e-mail',
};

/** The lead's delivery channels that have an entry, named; none when every channel was off. */
export function deliveryChannels(lead: Pick<ListedLead, 'delivery'>): [string, Delivery][] {
  const delivery = lead.delivery;
  if (!delivery) return [];
  return (Object.keys(CHANNEL_NAMES) as (keyof Deliveries)[]).flatMap((channel) => {
    const state = delivery[channel];
    return state ? [[CHANNEL_NAMES[channel], state] as [string, Delivery]] : [];
  });
}

export interface Filter {
  product: string;
  source: string;
  status: string;
  since: string;
  until: string;
  email: string;
  /** A state's two letters (TX): the leads whose ZIP code is in it. */
  state: string;
}

export const emptyFilter: Filter = {
  product: '',
  source: '',
  status: '',
  since: '',
  until: '',
  email: '',
  state: '',
};

/** The server's `{code, message}`; `status` 401 means signed out. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** Same-origin requests on the document's paths: each answer's type is the document's. `fetch` is
 * looked up at each request, not once at load, so a `fetch` replaced later (the tests') is used. */
const client = createClient<paths>({
  baseUrl: window.location.origin,
  credentials: 'same-origin',
  fetch: (request) => globalThis.fetch(request),
});

/** The error an answer that is not 2xx carries: its `{code, message}` when it has one. */
function failure(response: Response, error: unknown): ApiError {
  const body = typeof error === 'object' && error !== null ? error : {};
  return new ApiError(
    response.status,
    'code' in body && typeof body.code === 'string' ? body.code : 'error',
    'message' in body && typeof body.message === 'string'
      ? body.message
      : `The server answered ${response.status}. Please try again.`,
  );
}

/** The answer's body, or its error thrown. */
async function answer<T>(
  request: Promise<{ data?: T; error?: unknown; response: Response }>,
): Promise<T> {
  const { data, error, response } = await request;
  if (!response.ok || data === undefined) throw failure(response, error);
  return data;
}

/** An answer without a body (204), or its error thrown. */
async function done(request: Promise<{ error?: unknown; response: Response }>): Promise<void> {
  const { error, response } = await request;
  if (!response.ok) throw failure(response, error);
}

export const PAGE_SIZE = 25;
/** The CSV download holds up to this many rows of the current filter (the API's largest page). */
export const CSV_ROWS = 1000;

export function filterQuery(filter: Filter, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filter)) {
    if (value.trim()) params.set(key, value.trim());
  }
  for (const [key, value] of Object.entries(extra)) params.set(key, value);
  return params.toString();
}

const lead = (id: string) => ({ params: { path: { id } } });

export const api = {
  /** `via` is null when not signed in (answered 200, so the browser logs no error). */
  whoAmI: () => answer(client.GET('/api/admin/session')),
  signIn: (password: string) => answer(client.POST('/api/admin/session', { body: { password } })),
  signOut: () => done(client.DELETE('/api/admin/session')),
  /** Ends every session, on every device, this one included. */
  signOutEverywhere: () => done(client.DELETE('/api/admin/sessions')),
  /** A page as JSON (the document also names the CSV this path answers to `format=csv`). */
  list: async (filter: Filter, cursor: string | null) => {
    const page = await answer(
      client.GET('/api/admin/quote-requests', {
        querySerializer: () =>
          filterQuery(filter, { limit: String(PAGE_SIZE), ...(cursor ? { cursor } : {}) }),
      }),
    );
    if (typeof page === 'string') {
      throw new ApiError(200, 'error', 'The server answered CSV, not a page of leads.');
    }
    return page;
  },
  lead: (id: string) => answer(client.GET('/api/admin/quote-requests/{id}', lead(id))),
  setStatus: (id: string, status: Status) =>
    answer(client.PATCH('/api/admin/quote-requests/{id}', { ...lead(id), body: { status } })),
  /** A blank note removes it. */
  setNote: (id: string, note: string) =>
    answer(client.PATCH('/api/admin/quote-requests/{id}', { ...lead(id), body: { note } })),
  /** E-mails the visitor the consent page's link, to give written consent to be called. */
  askConsent: (id: string) =>
    answer(client.POST('/api/admin/quote-requests/{id}/consent-request', lead(id))),
  remove: (id: string) => done(client.DELETE('/api/admin/quote-requests/{id}', lead(id))),
  conversations: () => answer(client.GET('/api/admin/conversations')),
  /** The booked calls, the latest time first; one lead's only with `leadId`. */
  bookings: (leadId?: string) =>
    answer(
      client.GET('/api/admin/bookings', {
        params: { query: leadId ? { lead_id: leadId } : {} },
      }),
    ),
  conversation: (callId: string) =>
    answer(
      client.GET('/api/admin/conversations/{call_id}', { params: { path: { call_id: callId } } }),
    ),
  /** Puts a conversation on legal hold (no purge deletes it) or lets it go. */
  setLegalHold: (callId: string, held: boolean) =>
    answer(
      client.PATCH('/api/admin/conversations/{call_id}', {
        params: { path: { call_id: callId } },
        body: { legal_hold: held },
      }),
    ),
  /** The site's copy of a conversation's recording (404 until it is copied from the provider). */
  recordingHref: (callId: string) =>
    `/api/admin/conversations/${encodeURIComponent(callId)}/recording`,
  /** A lead's records for an auditor, as a ZIP (the server names the file). */
  recordsHref: (id: string) => `/api/admin/quote-requests/${encodeURIComponent(id)}/records`,
  csvHref: (filter: Filter) =>
    `/api/admin/quote-requests?${filterQuery(filter, { format: 'csv', limit: String(CSV_ROWS) })}`,
};
