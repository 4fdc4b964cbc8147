import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Button } from '../../components/ui/button';
import { Select } from '../../components/ui/select';
import { leadNotice, productOptions, quoteSection as text } from '../../content';
import { QUOTE_FIELD_ID } from '../../lib/quote-link';
import { inContentWords, validateQuote, type QuoteErrors, type QuoteValues } from './quote-rules';
import {
  HONEYPOT_FIELD,
  LANGUAGE_FIELD,
  QUOTE_ENDPOINT,
  QuoteSubmissionError,
  submitQuote,
} from './submit-quote';
import { language } from '../../language';
import { toast } from '../../lib/toast-store';
import { useHydrated } from '../../lib/use-hydrated';

const EMPTY: QuoteValues = { product: '', email: '' };

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
  const email = form?.elements.namedItem('email');
  return {
    product: product instanceof HTMLSelectElement ? product.value : '',
    email: email instanceof HTMLInputElement ? email.value : '',
  };
}

/**
 * Idle → pending → success (toast, reset) or failure (toast, values kept) — docs/product.md §4. Before its
 * script runs (or without one) it is a plain form posting to the same endpoint, which answers with
 * a result page. `initial` is for that page, prerendered with slots the server fills.
 */
export function QuoteForm({ initial }: { initial?: { values: QuoteValues; errors: QuoteErrors } }) {
  const [values, setValues] = useState<QuoteValues>(() => initial?.values ?? typedSoFar());
  const [errors, setErrors] = useState<QuoteErrors>(initial?.errors ?? {});
  const [pending, setPending] = useState(false);
  // Set once the prerendered form is live, so tests (and styles) can tell it reacts to input.
  const hydrated = useHydrated();
  const productRef = useRef<HTMLSelectElement>(null);
  const emailRef = useRef<HTMLInputElement>(null);
  const honeypotRef = useRef<HTMLInputElement>(null);
  const id = useId();
  const productErrorId = `${id}-product-error`;
  const emailErrorId = `${id}-email-error`;
  const noticeId = `${id}-notice`;

  // Hydration renders in slices (a transition), so the visitor may have typed on after the
  // values were first read: adopt what the fields hold once the form is live.
  useEffect(() => {
    const product = productRef.current?.value ?? '';
    const email = emailRef.current?.value ?? '';
    setValues((v) => (v.product === product && v.email === email ? v : { product, email }));
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
    (found.product ? productRef.current : emailRef.current)?.focus();
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
      await submitQuote(values, honeypotRef.current?.value);
      toast(text.success);
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

  const update = (field: keyof QuoteValues, value: string) => {
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
      className="grid gap-4 sm:grid-cols-[1fr_1.4fr_auto] sm:items-start"
    >
      <div className="grid gap-1">
        <label htmlFor={QUOTE_FIELD_ID} className="sr-only">
          {text.productLabel}
        </label>
        {/* The calls to action lead here; the margin keeps the section's heading in view. */}
        <Select
          ref={productRef}
          id={QUOTE_FIELD_ID}
          name="product"
          style={{ scrollMarginTop: '40vh' }}
          placeholder={text.productPlaceholder}
          options={productOptions}
          value={values.product}
          onChange={(e) => update('product', e.target.value)}
          aria-invalid={errors.product ? true : undefined}
          aria-describedby={errors.product ? productErrorId : undefined}
        />
        {errors.product && (
          <p id={productErrorId} className="text-sm font-medium text-red-700">
            {errors.product}
          </p>
        )}
      </div>
      <div className="grid gap-1">
        <label htmlFor={`${id}-email`} className="sr-only">
          {text.emailLabel}
        </label>
        <input
          ref={emailRef}
          id={`${id}-email`}
          name="email"
          type="email"
          autoComplete="email"
          inputMode="email"
          placeholder={text.emailPlaceholder}
          value={values.email}
          onChange={(e) => update('email', e.target.value)}
          aria-invalid={errors.email ? true : undefined}
          aria-describedby={errors.email ? emailErrorId : undefined}
          className="h-12 w-full rounded-xl border border-slate-300 bg-white px-4 text-slate-900 placeholder:text-slate-600 focus-visible:outline-3 focus-visible:outline-brand-600 aria-[invalid=true]:border-red-700"
        />
        {errors.email && (
          <p id={emailErrorId} className="text-sm font-medium text-red-700">
            {errors.email}
          </p>
        )}
      </div>
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
      <Button type="submit" disabled={pending} size="lg" aria-describedby={noticeId}>
        {pending ? text.submitting : text.submit}
      </Button>
      {/* The lead-generation notice: the lead keeps this very text as its consent record. */}
      <p id={noticeId} data-lead-notice className="text-sm text-slate-700 sm:col-span-3">
        {leadNotice}
      </p>
    </form>
  );
}
