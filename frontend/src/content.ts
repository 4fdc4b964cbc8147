// Every word, link and figure the site shows comes from the content folder (content/site.yaml at
// the repository root, or CONTENT_DIR), checked at build time by site-content/; this module gives
// it to the components in their terms. The code names no brand.
import {
  booking as bookingContent,
  brand as brandContent,
  footer,
  products,
  quote as quoteContent,
} from 'virtual:site-content';
import type { SiteContent } from '../site-content/schema';

export {
  about,
  brand,
  broker,
  footer,
  header,
  hero,
  inbox,
  licencesPage,
  medicareDisclaimer,
  membership,
  notFound as notFoundPage,
  optOutPage,
  partners,
  plans,
  privacyPage,
  quote as quoteSection,
  quoteResult,
  seo,
  testimonials,
} from 'virtual:site-content';

export interface Link {
  label: string;
  href: string;
}

export interface Image {
  src: string;
  alt: string;
  width: number;
  height: number;
}

/**
 * The language of the header's and the voice assistant's texts, which docs/product.md §1 keeps in Spanish
 * on an English page: marked on them so screen readers pronounce them right (WCAG 3.1.2).
 */
export const spanish = 'es';

export type Partner = SiteContent['partners']['items'][number];
export type PlanCard = SiteContent['plans']['items'][number];
export type PlanIconName = PlanCard['icon'];
export type Stat = SiteContent['about']['stats'][number];
export type Benefit = SiteContent['membership']['benefits'][number];
export type Testimonial = SiteContent['testimonials']['items'][number];
export type SocialNetwork = SiteContent['footer']['social'][number]['network'];
export type ProductValue = keyof SiteContent['products'];

export interface ProductOption {
  value: ProductValue;
  label: string;
}

/** The quote dropdown, in the server's order; a unit test checks it against wasm-core's list. */
export const productOptions: readonly ProductOption[] = (
  ['medicare', 'individual', 'family', 'medicaid', 'employer'] as const
).map((value) => ({ value, label: products[value] }));

/** The copyright line around the year, which the browser keeps current (current-year.ts). */
export const copyrightParts = (): [before: string, after: string] => {
  const [before, after] = footer.copyright.split('{year}');
  return [before, after];
};

/** The lead-generation notice beside the quote form (and in the chat): `quote.leadNotice`, the broker named. */
export const leadNotice = quoteContent.leadNotice.replaceAll('{broker}', brandContent.name);

/** The quote form's extra fields as the broker set them (`quote.fields`): off, optional or required. */
export const quoteFields = quoteContent.fields;

/** The written consent to be called beside the phone field: `quote.phoneConsent`, the broker named. */
export const phoneConsent = quoteContent.phoneConsent.replaceAll('{broker}', brandContent.name);

/** The chat's question on `phoneConsent` (`quote.chatConsent`), in the page's language. */
export const chatConsent = quoteContent.chatConsent;

/** A phone number as a `tel:` link target (digits and a leading +). */
export const telHref = (phone: string) => `tel:${phone.replace(/[^0-9+]/g, '')}`;

/** The booking page's link (its text from the content), or null when booking is off. */
export const bookingLink = bookingContent ? bookingContent.link : null;

/**
 * Booked calls as the server takes them (dist/.site/site.json, read by
 * backend/src/routes/booking/page.rs, which writes the booking page): the hours in the broker's
 * time zone, the page's words in this language, and the Scope of Appointment's statement, the
 * broker named, whose exact text each booking's record keeps; null when the content has no
 * `booking` (off, docs/product.md §13).
 */
export const bookingFacts = bookingContent
  ? {
      ...bookingContent,
      soaStatement: bookingContent.soaStatement.replaceAll('{broker}', brandContent.name),
    }
  : null;
