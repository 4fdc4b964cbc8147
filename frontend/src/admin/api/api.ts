// The admin API as the inbox page uses it: same-origin requests that carry the session cookie
// (the browser adds Origin and Sec-Fetch-Site, which the server checks on every change). The
// types are the server's OpenAPI document's (api-schema.ts, generated from it).
import type { components } from './api-schema';

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

async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(path, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: 'same-origin',
  });
  if (!response.ok) {
    const error = (await response.json().catch(() => ({}))) as { code?: string; message?: string };
    throw new ApiError(
      response.status,
      error.code ?? 'error',
      error.message ?? `The server answered ${response.status}. Please try again.`,
    );
  }
  return response.status === 204 ? (undefined as T) : ((await response.json()) as T);
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

export const api = {
  /** `via` is null when not signed in (answered 200, so the browser logs no error). */
  whoAmI: () => call<Schemas['SignedIn']>('GET', '/api/admin/session'),
  signIn: (password: string) =>
    call<Schemas['SignedIn']>('POST', '/api/admin/session', { password }),
  signOut: () => call<void>('DELETE', '/api/admin/session'),
  /** Ends every session, on every device, this one included. */
  signOutEverywhere: () => call<void>('DELETE', '/api/admin/sessions'),
  list: (filter: Filter, cursor: string | null) =>
    call<Page>(
      'GET',
      `/api/admin/quote-requests?${filterQuery(filter, { limit: String(PAGE_SIZE), ...(cursor ? { cursor } : {}) })}`,
    ),
  lead: (id: string) => call<Lead>('GET', `/api/admin/quote-requests/${encodeURIComponent(id)}`),
  setStatus: (id: string, status: Status) =>
    call<Lead>('PATCH', `/api/admin/quote-requests/${encodeURIComponent(id)}`, { status }),
  /** A blank note removes it. */
  setNote: (id: string, note: string) =>
    call<Lead>('PATCH', `/api/admin/quote-requests/${encodeURIComponent(id)}`, { note }),
  /** E-mails the visitor the consent page's link, to give written consent to be called. */
  askConsent: (id: string) =>
    call<Schemas['ConsentRequestSent']>(
      'POST',
      `/api/admin/quote-requests/${encodeURIComponent(id)}/consent-request`,
    ),
  remove: (id: string) =>
    call<void>('DELETE', `/api/admin/quote-requests/${encodeURIComponent(id)}`),
  conversations: () => call<{ conversations: Conversation[] }>('GET', '/api/admin/conversations'),
  /** The booked calls, the latest time first; one lead's only with `leadId`. */
  bookings: (leadId?: string) =>
    call<{ bookings: Booking[] }>(
      'GET',
      `/api/admin/bookings${leadId ? `?lead_id=${encodeURIComponent(leadId)}` : ''}`,
    ),
  conversation: (callId: string) =>
    call<Conversation>('GET', `/api/admin/conversations/${encodeURIComponent(callId)}`),
  /** Puts a conversation on legal hold (no purge deletes it) or lets it go. */
  setLegalHold: (callId: string, held: boolean) =>
    call<Conversation>('PATCH', `/api/admin/conversations/${encodeURIComponent(callId)}`, {
      legal_hold: held,
    }),
  /** The site's copy of a conversation's recording (404 until it is copied from the provider). */
  recordingHref: (callId: string) =>
    `/api/admin/conversations/${encodeURIComponent(callId)}/recording`,
  /** A lead's records for an auditor, as a ZIP (the server names the file). */
  recordsHref: (id: string) => `/api/admin/quote-requests/${encodeURIComponent(id)}/records`,
  csvHref: (filter: Filter) =>
    `/api/admin/quote-requests?${filterQuery(filter, { format: 'csv', limit: String(CSV_ROWS) })}`,
};
