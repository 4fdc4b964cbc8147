import { language } from '../../language';
import type { QuoteErrors, QuoteFieldRules, QuoteValues } from './quote-rules';

export const QUOTE_ENDPOINT = '/api/quote-requests';
/** The form's hidden honeypot field; the server answers 201 and stores nothing when it is filled. */
export const HONEYPOT_FIELD = 'website';
/** The language of the page the quote came from, which the lead records (`en` or `es`). */
export const LANGUAGE_FIELD = 'lang';
/** The server answers a repeated key with the first answer, so a retry is never a second lead. */
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';

/** The names the form's fields are posted under (as JSON members, or form fields without JavaScript). */
export const PHONE_FIELD = 'phone';
export const ZIP_FIELD = 'zip';
/** The consent box beside the phone field: `on` when ticked in a form post, a boolean in JSON. */
export const MAY_CALL_FIELD = 'may_call';

/** What the live form posts: an extra field, and with the phone its consent box, only when on. */
export interface QuotePost {
  product: string;
  email: string;
  [PHONE_FIELD]?: string;
  [MAY_CALL_FIELD]?: boolean;
  [ZIP_FIELD]?: string;
}

export function quotePost(values: QuoteValues, rules: QuoteFieldRules): QuotePost {
  return {
    product: values.product,
    email: values.email,
    ...(rules.phone !== 'off' && { [PHONE_FIELD]: values.phone, [MAY_CALL_FIELD]: values.mayCall }),
    ...(rules.zip !== 'off' && { [ZIP_FIELD]: values.zip }),
  };
}

/** The last body sent without a success yet, and the key made for it. */
let unconfirmed: { body: string; key: string } | undefined;

/**
 * The same values sent again after a failure (or a double click while the first is in flight)
 * keep their key; other values get a new one. 128 random bits as hex: `crypto.randomUUID` is
 * missing on plain-HTTP pages, `getRandomValues` is not.
 */
function idempotencyKeyFor(body: string): string {
  if (unconfirmed?.body !== body) {
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    unconfirmed = { body, key: Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('') };
  }
  return unconfirmed.key;
}

/** A failed submission. `message` is `<status>: <server's message or status text>` (docs/product.md §8). */
export class QuoteSubmissionError extends Error {
  constructor(
    message: string,
    readonly status?: number,
    readonly fields?: QuoteErrors,
  ) {
    super(message);
    this.name = 'QuoteSubmissionError';
  }
}

/** The server answers errors as `{code, message, fields?}`; anything else is shown as text. */
function readErrorBody(text: string): { message?: string; fields?: QuoteErrors } {
  try {
    const body: unknown = JSON.parse(text);
    if (body && typeof body === 'object') {
      const { message, fields } = body as { message?: unknown; fields?: unknown };
      return {
        message: typeof message === 'string' ? message : undefined,
        fields: fields && typeof fields === 'object' ? (fields as QuoteErrors) : undefined,
      };
    }
  } catch {
    // Not JSON: a proxy's HTML or plain text page.
  }
  return { message: text.trim() || undefined };
}

/**
 * The booking page's address with a signed reference to the new lead, which the server gives
 * when booking is on (docs/product.md §13): following it pre-fills the form and the booking joins
 * the lead. Only a path on this site is taken.
 */
function bookingPathIn(text: string): string | undefined {
  try {
    const body: unknown = JSON.parse(text);
    const path =
      body && typeof body === 'object'
        ? (body as { booking_path?: unknown }).booking_path
        : undefined;
    return typeof path === 'string' && /^\/(es\/)?book\?/.test(path) ? path : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Sends the quote once (no automatic retry, docs/product.md §9); resolves only on a 2xx answer,
 * with the booking page's address for the new lead when the server gives one.
 */
export async function submitQuote(
  post: QuotePost,
  honeypot = '',
): Promise<{ bookingPath?: string }> {
  const fields = { ...post, [LANGUAGE_FIELD]: language };
  const body = JSON.stringify(honeypot ? { ...fields, [HONEYPOT_FIELD]: honeypot } : fields);
  const key = idempotencyKeyFor(body);
  let response: Response;
  try {
    response = await fetch(QUOTE_ENDPOINT, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', [IDEMPOTENCY_HEADER]: key },
      credentials: 'include',
      body,
    });
  } catch {
    // Offline or blocked: there is no status to report, so the toast falls back to its default.
    throw new QuoteSubmissionError('');
  }
  if (!response.ok) {
    const { message, fields } = readErrorBody(await response.text().catch(() => ''));
    throw new QuoteSubmissionError(
      `${response.status}: ${message ?? response.statusText}`,
      response.status,
      fields,
    );
  }
  if (unconfirmed?.key === key) unconfirmed = undefined;
  return { bookingPath: bookingPathIn(await response.text().catch(() => '')) };
}
