import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Button } from '../../components/ui/button';
import { Select } from '../../components/ui/select';
import { Field } from './Field';
import {
  bookingLink,
  leadNotice,
  phoneConsent,
  productOptions,
  quoteFields as fields,
  quoteSection as text,
} from '../../content';
import { QUOTE_FIELD_ID } from '../../lib/quote-link';
import {
  inContentWords,
  QUOTE_FIELDS,
  validateQuote,
  type QuoteErrors,
  type QuoteField,
  type QuoteValues,
} from './quote-rules';
import {
  HONEYPOT_FIELD,
  LANGUAGE_FIELD,
  MAY_CALL_FIELD,
  PHONE_FIELD,
  QUOTE_ENDPOINT,
  QuoteSubmissionError,
  quotePost,
  submitQuote,
  ZIP_FIELD,
} from './submit-quote';
import { language } from '../../language';
import { toast } from '../../lib/toast-store';
import { useHydrated } from '../../lib/use-hydrated';

const EMPTY: QuoteValues = { product: '', email: '', phone: '', zip: '', mayCall: false };

const INPUT_CLASS =
  'h-12 w-full rounded-xl border border-slate-300 bg-white px-4 text-slate-900 placeholder:text-slate-600 focus-visible:outline-3 focus-visible:outline-brand-600 aria-[invalid=true]:border-red-700';

/**
 * What the visitor has already picked and typed into the prerendered form, read as the island
 * comes to life: the form works without its script (it posts to the server), so a visitor may
 * well be half-way through it. Starting from these values, hydration finds the page as it is and
 * leaves the fields, and the focus, alone. Empty when rendered on the server.
 */
function typedSoFar(): QuoteValues {
  if (typeof document === 'undefined') return EMPTY;
  const product = document.getElementById(QUOTE_FIELD_ID);
  const form = product instanceof HTMLSelectElement ? product.form : null;
  const field = (name: string) => {
    const element = form?.elements.namedItem(name);
    return element instanceof HTMLInputElement ? element : null;
  };
  return {
    product: product instanceof HTMLSelectElement ? product.value : '',
    email: field('email')?.value ?? '',
    phone: field(PHONE_FIELD)?.value ?? '',
    zip: field(ZIP_FIELD)?.value ?? '',
    mayCall: field(MAY_CALL_FIELD)?.checked ?? false,
  };
}

/** The values the form's own fields hold (an extra field that is off holds nothing). */
function held(refs: {
  product: HTMLSelectElement | null;
  email: HTMLInputElement | null;
  phone: HTMLInputElement | null;
  zip: HTMLInputElement | null;
  mayCall: HTMLInputElement | null;
}): QuoteValues {
  return {
    product: refs.product?.value ?? '',
    email: refs.email?.value ?? '',
    phone: refs.phone?.value ?? '',
    zip: refs.zip?.value ?? '',
    mayCall: refs.mayCall?.checked ?? false,
  };
}

const sameValues = (a: QuoteValues, b: QuoteValues) =>
  a.product === b.product &&
  a.email === b.email &&
  a.phone === b.phone &&
  a.zip === b.zip &&
  a.mayCall === b.mayCall;

/** A result page's form: the values and messages it starts with, slots the server fills among them. */
export interface InitialQuote {
  values: QuoteValues;
  errors: QuoteErrors;
  /**
   * Fields whose message is a slot the server fills with its words, or leaves empty when the
   * field is right: not marked invalid, and the empty message takes no room.
   */
  filledByServer?: readonly QuoteField[];
}

/**
 * Idle → pending → success (toast, reset) or failure (toast, values kept) — docs/product.md §4. Before its
 * script runs (or without one) it is a plain form posting to the same endpoint, which answers with
 * a result page. `initial` is for that page, prerendered with slots the server fills.
 */
export function QuoteForm({ initial }: { initial?: InitialQuote }) {
  const [values, setValues] = useState<QuoteValues>(() => initial?.values ?? typedSoFar());
  const [errors, setErrors] = useState<QuoteErrors>(initial?.errors ?? {});
  const [pending, setPending] = useState(false);
  // Set once the prerendered form is live, so tests (and styles) can tell it reacts to input.
  const hydrated = useHydrated();
  const productRef = useRef<HTMLSelectElement>(null);
  const emailRef = useRef<HTMLInputElement>(null);
  const phoneRef = useRef<HTMLInputElement>(null);
  const mayCallRef = useRef<HTMLInputElement>(null);
  const zipRef = useRef<HTMLInputElement>(null);
  const honeypotRef = useRef<HTMLInputElement>(null);
  const id = useId();
  const noticeId = `${id}-notice`;
  const byServer = (field: QuoteField) => initial?.filledByServer?.includes(field) ?? false;
  /** A field's message: marks it invalid unless the server may leave it empty. */
  const invalid = (field: QuoteField) => (errors[field] && !byServer(field) ? true : undefined);
  const messageClass = (field: QuoteField) =>
    byServer(field)
      ? 'text-sm font-medium text-red-700 empty:hidden'
      : 'text-sm font-medium text-red-700';
  const withPhone = fields.phone !== 'off';
  const withZip = fields.zip !== 'off';
  // The spec's form (docs/product.md) keeps its one row; extra fields take a second one.
  const extended = withPhone || withZip;

  // Hydration renders in slices (a transition), so the visitor may have typed on after the
  // values were first read: adopt what the fields hold once the form is live.
  useEffect(() => {
    const now = held({
      product: productRef.current,
      email: emailRef.current,
      phone: phoneRef.current,
      zip: zipRef.current,
      mayCall: mayCallRef.current,
    });
    setValues((v) => (sameValues(v, now) ? v : now));
  }, []);

  // The rules (wasm) are needed at the first submit: fetch, compile and run them once (the engine
  // compiles a wasm function on its first call) while the visitor reads, once the form is live,
  // not inside a tap on the form (interaction latency).
  useEffect(() => {
    const prefetch = () => void validateQuote(EMPTY).catch(() => undefined);
    if (!('requestIdleCallback' in window)) {
      // Where there are no idle callbacks (Safari), the next task will do.
      const timer = setTimeout(prefetch);
      return () => clearTimeout(timer);
    }
    const handle = requestIdleCallback(prefetch);
    return () => cancelIdleCallback(handle);
  }, []);

  const showErrors = (found: QuoteErrors) => {
    setErrors(found);
    const refs = { product: productRef, email: emailRef, phone: phoneRef, zip: zipRef };
    const first = QUOTE_FIELDS.find((field) => found[field]) ?? 'email';
    refs[first].current?.focus();
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (pending) return;
    setPending(true);
    try {
      // If the rules cannot load, the server applies the very same ones and answers 422.
      const found = await validateQuote(values).catch(() => null);
      if (found) {
        showErrors(found);
        return;
      }
      setErrors((e) => (Object.keys(e).length ? {} : e));
      const { bookingPath } = await submitQuote(
        quotePost(values, fields),
        honeypotRef.current?.value,
      );
      toast({
        ...text.success,
        link: bookingPath && bookingLink ? { label: bookingLink, href: bookingPath } : undefined,
      });
      setValues(EMPTY);
    } catch (error) {
      if (error instanceof QuoteSubmissionError && error.fields)
        showErrors(inContentWords(error.fields));
      const message = error instanceof Error ? error.message : '';
      toast({
        title: text.failure.title,
        description: message || text.failure.fallback,
        variant: 'destructive',
      });
    } finally {
      setPending(false);
    }
  };

  const update = (field: Exclude<keyof QuoteValues, 'mayCall'>, value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    // The same state back when there is no message to clear: React then skips that update.
    setErrors((e) => (e[field] ? { ...e, [field]: undefined } : e));
  };

  return (
    <form
      method="post"
      action={QUOTE_ENDPOINT}
      noValidate
      data-hydrated={hydrated || undefined}
      onSubmit={onSubmit}
      className={
        extended
          ? 'grid gap-4 sm:grid-cols-2 sm:items-start'
          : 'grid gap-4 sm:grid-cols-[1fr_1.4fr_auto] sm:items-start'
      }
    >
      <Field
        id={QUOTE_FIELD_ID}
        label={text.productLabel}
        message={errors.product}
        invalid={invalid('product')}
        messageClass={messageClass('product')}
        control={(props) => (
          // The calls to action lead here; the margin keeps the section's heading in view.
          <Select
            {...props}
            ref={productRef}
            name="product"
            style={{ scrollMarginTop: '40vh' }}
            placeholder={text.productPlaceholder}
            options={productOptions}
            value={values.product}
            onChange={(e) => update('product', e.target.value)}
          />
        )}
      />
      <Field
        id={`${id}-email`}
        label={text.emailLabel}
        message={errors.email}
        invalid={invalid('email')}
        messageClass={messageClass('email')}
        control={(props) => (
          <input
            {...props}
            ref={emailRef}
            name="email"
            type="email"
            autoComplete="email"
            inputMode="email"
            placeholder={text.emailPlaceholder}
            value={values.email}
            onChange={(e) => update('email', e.target.value)}
            className={INPUT_CLASS}
          />
        )}
      />
      {withPhone && (
        <Field
          id={`${id}-phone`}
          label={text.phoneLabel}
          labelVisible
          message={errors.phone}
          invalid={invalid('phone')}
          messageClass={messageClass('phone')}
          control={(props) => (
            <input
              {...props}
              ref={phoneRef}
              name={PHONE_FIELD}
              type="tel"
              autoComplete="tel"
              inputMode="tel"
              required={fields.phone === 'required'}
              placeholder={text.phonePlaceholder}
              value={values.phone}
              onChange={(e) => update('phone', e.target.value)}
              className={INPUT_CLASS}
            />
          )}
        >
          {/* Written consent to be called: never ticked for the visitor, never required. */}
          <div className="mt-2 flex items-start gap-3">
            <input
              ref={mayCallRef}
              id={`${id}-may-call`}
              name={MAY_CALL_FIELD}
              type="checkbox"
              value="on"
              checked={values.mayCall}
              onChange={(e) => setValues((v) => ({ ...v, mayCall: e.target.checked }))}
              className="mt-1 h-5 w-5 shrink-0 focus-visible:outline-3 focus-visible:outline-brand-600"
            />
            <label htmlFor={`${id}-may-call`} className="text-sm text-slate-700">
              {phoneConsent}
            </label>
          </div>
        </Field>
      )}
      {withZip && (
        <Field
          id={`${id}-zip`}
          label={text.zipLabel}
          labelVisible
          message={errors.zip}
          invalid={invalid('zip')}
          messageClass={messageClass('zip')}
          control={(props) => (
            <input
              {...props}
              ref={zipRef}
              name={ZIP_FIELD}
              type="text"
              autoComplete="postal-code"
              inputMode="numeric"
              required={fields.zip === 'required'}
              placeholder={text.zipPlaceholder}
              value={values.zip}
              onChange={(e) => update('zip', e.target.value)}
              className={INPUT_CLASS}
            />
          )}
        />
      )}
      {/* Honeypot: hidden from people and assistive technology, so only bots fill it in. */}
      <div aria-hidden="true" className="sr-only">
        <label htmlFor={`${id}-${HONEYPOT_FIELD}`}>Website</label>
        <input
          ref={honeypotRef}
          id={`${id}-${HONEYPOT_FIELD}`}
          name={HONEYPOT_FIELD}
          type="text"
          tabIndex={-1}
          autoComplete="off"
          defaultValue=""
        />
      </div>
      {/* The page's language: the lead records it, and a post without JavaScript gets its result page in it. */}
      <input type="hidden" name={LANGUAGE_FIELD} value={language} />
      <Button
        type="submit"
        disabled={pending}
        size="lg"
        aria-describedby={noticeId}
        className={extended ? 'sm:col-span-2 sm:justify-self-center' : undefined}
      >
        {pending ? text.submitting : text.submit}
      </Button>
      {/* The lead-generation notice: the lead keeps this very text as its consent record. */}
      <p
        id={noticeId}
        data-lead-notice
        className={`text-sm text-slate-700 ${extended ? 'sm:col-span-2' : 'sm:col-span-3'}`}
      >
        {leadNotice}
      </p>
    </form>
  );
}
