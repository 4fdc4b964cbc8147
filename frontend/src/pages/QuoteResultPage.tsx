import { CenteredPage } from '../components/layout/CenteredPage';
import { Button } from '../components/ui/button';
import { bookingLink, quoteFields, quoteResult, quoteSection } from '../content';
import { QuoteForm } from '../features/quote/QuoteForm';
import { QUOTE_HREF } from '../lib/quote-link';

/** The broker turned on a field beyond the spec's two (`quote.fields`): phone, ZIP code or both. */
const WITH_CONTACT = quoteFields.phone !== 'off' || quoteFields.zip !== 'off';

/**
 * One prerendered page per outcome of a form post; the server picks one and fills its slots. An
 * invalid post has a page per set of wrong fields among product and e-mail, and, when the form
 * has a phone or ZIP field, `invalid-contact` for those two alone wrong.
 */
export const QUOTE_RESULT_VARIANTS = [
  'submitted',
  'failed',
  'invalid-product',
  'invalid-email',
  'invalid-both',
  ...(WITH_CONTACT ? (['invalid-contact'] as const) : []),
] as const;
export type QuoteResultVariant = (typeof QUOTE_RESULT_VARIANTS)[number] | 'invalid-contact';

/**
 * The slots the server fills (backend/src/routes/quote_result/pages.rs), escaped, in one pass.
 * The product typed is chosen by marking its option selected, so its slot matches no option.
 * The phone's and ZIP code's are in a page only when their field is on: the values typed, and on
 * an invalid post's pages the server's message for each (in the page's language, or nothing when
 * the field is right); the consent box beside the phone starts unticked, as on the landing page.
 */
const SLOT = {
  reason: '{{reason}}',
  product: '{{product}}',
  email: '{{email}}',
  phone: '{{phone}}',
  zip: '{{zip}}',
  phoneError: '{{phone_error}}',
  zipError: '{{zip_error}}',
  /** The success page's link to the booking page, with a reference to the lead (booking on). */
  booking: '{{booking}}',
} as const;

/** The heading, the words under it and, unless the request went through, the form to try again. */
function outcome(variant: QuoteResultVariant) {
  if (variant === 'submitted')
    return { title: quoteSection.success.title, text: quoteSection.success.description };
  const values = {
    product: SLOT.product,
    email: SLOT.email,
    phone: SLOT.phone,
    zip: SLOT.zip,
    mayCall: false,
  };
  if (variant === 'failed')
    return { title: quoteSection.failure.title, text: SLOT.reason, form: { values, errors: {} } };
  // Product and e-mail in the content's words, the variant saying which are wrong; the phone's
  // and ZIP code's from the server, which knows which of them it refused.
  const errors = {
    product:
      variant === 'invalid-product' || variant === 'invalid-both'
        ? quoteSection.errors.product
        : undefined,
    email:
      variant === 'invalid-email' || variant === 'invalid-both'
        ? quoteSection.errors.email
        : undefined,
    phone: SLOT.phoneError,
    zip: SLOT.zipError,
  };
  return {
    title: quoteSection.heading,
    text: quoteSection.subtitle,
    form: { values, errors, filledByServer: ['phone', 'zip'] as const },
  };
}

export const quoteResultTitle = (variant: QuoteResultVariant) => outcome(variant).title;

/**
 * What came of a quote form posted without JavaScript, in the product's words, with the values typed
 * still in the form and a way back; the header and footer of every page. The form here is plain
 * HTML (no island): it posts to the server again.
 */
export function QuoteResultPage({ variant }: { variant: QuoteResultVariant }) {
  const { title, text, form } = outcome(variant);
  return (
    <CenteredPage cardClassName="w-full max-w-4xl rounded-3xl p-8 shadow-xl sm:p-12">
      <h1 className="text-center text-3xl font-bold text-slate-900">{title}</h1>
      <p className="mx-auto mt-4 max-w-2xl text-center text-slate-700">{text}</p>
      {variant === 'submitted' && bookingLink && (
        <p className="mt-6 text-center">
          <Button asChild>
            <a href={SLOT.booking}>{bookingLink}</a>
          </Button>
        </p>
      )}
      {form && (
        <div className="mt-8">
          <QuoteForm initial={form} />
        </div>
      )}
      <p className="mt-8 text-center">
        <Button asChild variant="outline">
          <a href={QUOTE_HREF}>{quoteResult.backLink}</a>
        </Button>
      </p>
    </CenteredPage>
  );
}
