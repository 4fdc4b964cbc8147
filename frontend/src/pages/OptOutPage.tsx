import { useId } from 'react';
import { Button } from '../components/ui/button';
import { homePath, pathIn } from '../language';
import { optOutPage as text } from '../content';
import { TextPage } from './TextPage';

/**
 * One prerendered page per outcome of the do-not-contact form (backend/src/routes/opt_out/): the
 * form, each wrong post's, a failure's, a post from another site's and the confirmation. The
 * server picks one and fills its slots.
 */
export const OPT_OUT_VARIANTS = [
  'form',
  'missing',
  'invalid-email',
  'invalid-phone',
  'invalid-both',
  'failed',
  'another-site',
  'done',
] as const;
export type OptOutVariant = (typeof OPT_OUT_VARIANTS)[number];

/** What was typed, which the server writes back into the form (escaped, in one pass). */
const SLOT = { email: '{{email}}', phone: '{{phone}}' } as const;

const INPUT_CLASS =
  'mt-2 h-12 w-full rounded-xl border border-slate-300 bg-white px-4 text-slate-900 focus-visible:outline-3 focus-visible:outline-brand-600 aria-[invalid=true]:border-red-700';

/** The variant's message above the form, and which field it is about. */
function message(variant: OptOutVariant): { text?: string; email?: boolean; phone?: boolean } {
  switch (variant) {
    case 'missing':
      return { text: text.errors.missing, email: true, phone: true };
    case 'invalid-email':
      return { text: text.errors.email, email: true };
    case 'invalid-phone':
      return { text: text.errors.phone, phone: true };
    case 'invalid-both':
      return { text: text.errors.both, email: true, phone: true };
    case 'failed':
      return { text: text.failed };
    case 'another-site':
      return { text: text.anotherSite };
    default:
      return {};
  }
}

/** A labelled input of the form; `value` is the server's slot for what was typed. */
function Field({
  label,
  value,
  invalid,
  describedBy,
  ...input
}: {
  label: string;
  type: 'email' | 'tel';
  name: string;
  autoComplete: string;
  value: string;
  invalid?: boolean;
  describedBy: string;
}) {
  return (
    <label className="block font-medium text-slate-900">
      {label}
      <input
        {...input}
        defaultValue={value}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy}
        className={INPUT_CLASS}
      />
    </label>
  );
}

export const optOutTitle = (variant: OptOutVariant) =>
  variant === 'done' ? text.doneTitle : text.title;

/**
 * The do-not-contact page (`/opt-out`): a plain HTML form, no island, so it works without
 * JavaScript; an e-mail address, a phone number or both, and one button.
 */
export function OptOutPage({ variant }: { variant: OptOutVariant }) {
  const id = useId();
  if (variant === 'done')
    return (
      <TextPage title={text.doneTitle} languagePath="/opt-out">
        <p>{text.doneText}</p>
        <p className="mt-6">
          <Button asChild variant="outline">
            <a href={homePath}>{text.homeLink}</a>
          </Button>
        </p>
      </TextPage>
    );
  const said = message(variant);
  const alertId = `${id}-alert`;
  const described = said.text ? alertId : `${id}-hint`;
  return (
    <TextPage title={text.title} languagePath="/opt-out">
      <p>{text.intro}</p>
      {said.text && (
        <p id={alertId} role="alert" className="mt-4 font-semibold text-red-700">
          {said.text}
        </p>
      )}
      <form method="post" action={pathIn('/opt-out')} className="mt-6 grid gap-4" noValidate>
        <p id={`${id}-hint`} className="text-slate-700">
          {text.hint}
        </p>
        <Field
          label={text.emailLabel}
          type="email"
          name="email"
          autoComplete="email"
          value={SLOT.email}
          invalid={said.email}
          describedBy={described}
        />
        <Field
          label={text.phoneLabel}
          type="tel"
          name="phone"
          autoComplete="tel"
          value={SLOT.phone}
          invalid={said.phone}
          describedBy={described}
        />
        <p>
          <Button type="submit">{text.submit}</Button>
        </p>
      </form>
    </TextPage>
  );
}
