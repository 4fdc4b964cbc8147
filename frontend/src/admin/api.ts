// The admin API as the inbox page uses it: same-origin requests that carry the session cookie
// (the browser adds Origin and Sec-Fetch-Site, which the server checks on every change).

export type Status = 'new' | 'contacted' | 'spam';
export type Source = 'web' | 'voice' | 'chat';
export type Language = 'en' | 'es';

export interface Delivery {
  status: 'pending' | 'delivered' | 'undelivered';
  attempts: number;
  last_error: string | null;
  delivered_at: string | null;
}

/** Each channel's delivery (the e-mail channels come with the e-mail forwarding). */
export interface Deliveries {
  webhook?: Delivery | null;
  email?: Delivery | null;
  follow_up?: Delivery | null;
}

const CHANNEL_NAMES: Record<keyof Deliveries, string> = {
  webhook: 'Webhook',
  email: 'E-mail',
  follow_up: 'Follow-up e-mail',
};

/**
 * The lead's delivery channels that have an entry, named: the API's `delivery` is one webhook
 * delivery, or one per channel once e-mail forwarding is on; `null` when every channel was off.
 */
export function deliveryChannels(lead: Lead): [string, Delivery][] {
  const delivery = lead.delivery;
  if (!delivery) return [];
  if ('status' in delivery) return [[CHANNEL_NAMES.webhook, delivery]];
  return (Object.keys(CHANNEL_NAMES) as (keyof Deliveries)[]).flatMap((channel) => {
    const state = delivery[channel];
    return state ? [[CHANNEL_NAMES[channel], state] as [string, Delivery]] : [];
  });
}

export interface Lead {
  id: string;
  product: string;
  email: string;
  source: Source;
  user_agent: string | null;
  created_at: string;
  call_id: string | null;
  call_ended_reason: string | null;
  call_summary: string | null;
  delivery: Delivery | Deliveries | null;
  status: Status;
  status_changed_at: string | null;
  /** Why a lead with status `spam` is held as spam. */
  spam_reason: string | null;
  /** The language of the page the lead came from: the one to answer in. */
  language: Language;
  /** The broker's own note, kept with the lead. */
  note?: string | null;
  /** How the call ended, in words (only on a lead's own page). */
  call_ended?: string | null;
  /** Only on a lead's own page. */
  call_transcript?: string | null;
  /** The call's recording, when the provider's report had one (and the server keeps it). */
  call_recording_url?: string | null;
}

export interface Page {
  quote_requests: Lead[];
  next_cursor: string | null;
}

export interface Filter {
  product: string;
  source: string;
  status: string;
  since: string;
  until: string;
  email: string;
}

export const emptyFilter: Filter = {
  product: '',
  source: '',
  status: '',
  since: '',
  until: '',
  email: '',
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
  whoAmI: () => call<{ via: string | null }>('GET', '/api/admin/session'),
  signIn: (password: string) => call<{ via: string }>('POST', '/api/admin/session', { password }),
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
  remove: (id: string) =>
    call<void>('DELETE', `/api/admin/quote-requests/${encodeURIComponent(id)}`),
  csvHref: (filter: Filter) =>
    `/api/admin/quote-requests?${filterQuery(filter, { format: 'csv', limit: String(CSV_ROWS) })}`,
};
