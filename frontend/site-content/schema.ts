// The shape of content/site.yaml: every key required unless marked optional, no unknown key
// (a misspelt one would otherwise be silently ignored), each link target and image path checked.
import { z } from 'zod';
import { bookingSchema } from './booking.ts';

const text = z.string().trim().min(1, 'expected a non-empty text');
const count = z.number().int().positive();

/** What a link may lead to: a path of the site, an anchor (`#` for a placeholder), mailto:, tel: or https://. */
export const LINK_TARGET =
  /^(\/(?!\/)\S*|#\S*|mailto:\S+@\S+|tel:\+?[0-9() .-]+|https:\/\/[^\s/]+\S*)$/;
const href = z
  .string()
  .regex(
    LINK_TARGET,
    'expected a site path (/privacy), an anchor (#top), mailto:, tel: or https://',
  );

/** A file under the content folder's public/, by its path on the site. */
const imagePath = z
  .string()
  .regex(
    /^\/[^?#\s]+\.(svg|png|jpe?g|webp|avif|ico)$/,
    'expected an image path such as /images/logo.svg',
  );

const link = z.strictObject({ label: text, href });
const sizedImage = z.strictObject({ src: imagePath, width: count, height: count });

/**
 * An extra field of the quote form the broker turns on: `off` (not on the page), `optional` or
 * `required`. The server reads each from the build (dist/.site/site.json) and applies the same.
 */
export const FIELD_RULES = ['off', 'optional', 'required'] as const;
export type FieldRule = (typeof FIELD_RULES)[number];
const fieldRule = z.enum(FIELD_RULES);

export const PLAN_ICONS = ['medicare', 'family', 'medicaid', 'employer'] as const;
export const SOCIAL_NETWORKS = ['facebook', 'twitter', 'instagram', 'linkedin'] as const;

export const siteSchema = z.strictObject({
  brand: z.strictObject({
    name: text,
    url: z
      .string()
      .regex(
        /^https:\/\/[^\s/]+\/$/,
        "expected the site's https:// address ending in /, such as https://www.example.com/",
      ),
    logo: sizedImage,
    logoOnDark: sizedImage,
    favicon: imagePath,
    description: text,
    tagline: text,
    shareImage: z.strictObject({
      src: z
        .string()
        .regex(/^\/\S+\.png$/, 'expected a PNG image path (social sites do not take SVG)'),
      width: count,
      height: count,
    }),
  }),
  seo: z.strictObject({
    title: text,
    locale: z.string().regex(/^[a-z]{2}_[A-Z]{2}$/, 'expected a locale such as en_US'),
  }),
  broker: z.strictObject({
    phone: z
      .string()
      .regex(/^\+?[0-9() .-]*[0-9][0-9() .-]*$/, 'expected a phone number such as (555) 010-0199')
      .optional(),
    email: z.email('expected an e-mail address').optional(),
    address: text.optional(),
    hours: text.optional(),
    nationalProducerNumber: text.optional(),
    licences: z.array(z.strictObject({ state: text, number: text })),
  }),
  // The words are the rule's, from wasm-core (rules.ts): content picks the variant and the counts.
  medicareDisclaimer: z.strictObject({
    variant: z.enum(['some', 'every', 'none']),
    organizations: z.number().int().min(1),
    products: z.number().int().min(1),
    heading: text,
    /** Read only to refuse them with a clear line (rules.ts). */
    some: z.unknown().optional(),
    every: z.unknown().optional(),
  }),
  header: z.strictObject({
    skipLink: text,
    navLabel: text,
    nav: z.array(link).min(1),
    cta: text,
    openMenu: text,
    closeMenu: text,
    menuTitle: text,
    call: text,
    otherLanguage: text,
  }),
  hero: z.strictObject({
    heading: text,
    text,
    cta: text,
    image: z.strictObject({ src: imagePath, alt: text, width: count, height: count }),
  }),
  partners: z.strictObject({
    label: text,
    pause: text,
    play: text,
    logoWidth: count,
    logoHeight: count,
    items: z.array(z.strictObject({ name: text, logo: imagePath })).min(1),
  }),
  plans: z.strictObject({
    heading: text,
    learnMoreAbout: text,
    items: z.array(
      z.strictObject({ icon: z.enum(PLAN_ICONS), title: text, description: text, link }),
    ),
  }),
  about: z.strictObject({
    heading: text,
    text,
    stats: z.array(z.strictObject({ value: text, label: text })),
  }),
  membership: z.strictObject({
    eyebrow: text,
    heading: text,
    benefits: z.array(z.strictObject({ title: text, text })),
    cta: text,
  }),
  testimonials: z.strictObject({
    heading: text,
    dotLabel: text,
    portraitSize: count,
    items: z.array(z.strictObject({ text, name: text, role: text, image: imagePath })).min(1),
  }),
  products: z.strictObject({
    medicare: text,
    individual: text,
    family: text,
    medicaid: text,
    employer: text,
  }),
  quote: z.strictObject({
    heading: text,
    subtitle: text,
    productLabel: text,
    productPlaceholder: text,
    emailLabel: text,
    emailPlaceholder: text,
    submit: text,
    submitting: text,
    leadNotice: text.includes('{broker}', { message: 'expected the text to hold {broker}' }),
    fields: z
      .strictObject({ phone: fieldRule.default('off'), zip: fieldRule.default('off') })
      .default({ phone: 'off', zip: 'off' }),
    phoneLabel: text,
    phonePlaceholder: text,
    zipLabel: text,
    zipPlaceholder: text,
    // What the rules ask of it is checked in rules.ts, in its language.
    phoneConsent: text,
    // The chat's question on phoneConsent once the visitor typed a number (features/chat).
    chatConsent: z.strictObject({
      label: text,
      yes: text,
      no: text,
      given: text,
      declined: text,
      failed: text,
    }),
    errors: z.strictObject({ product: text, email: text, phone: text, zip: text }),
    success: z.strictObject({ title: text, description: text }),
    failure: z.strictObject({ title: text, fallback: text }),
  }),
  notifications: z.strictObject({
    label: text.includes('{hotkey}', { message: 'expected the text to hold {hotkey}' }),
    close: text,
    announcement: text,
  }),
  voiceTooltip: z.strictObject({ idle: text, connecting: text, inCall: text }),
  voiceFailure: z.strictObject({ permission: text, micInUse: text, unavailable: text }),
  voiceControls: z.strictObject({
    region: text,
    mute: text,
    showCaptions: text,
    closePanel: text,
    dismiss: text,
    panelTitle: text,
    waitingForWords: text,
    assistant: text,
    visitor: text,
    silenceHint: text,
    mutedNote: text,
    consentTitle: text,
    consentText: text,
    consentTextRecorded: text,
    consentPrivacy: link,
    consentAccept: text,
    consentCancel: text,
  }),
  voiceChat: z.strictObject({
    open: text,
    openInstead: text,
    title: text,
    close: text,
    empty: text,
    inputLabel: text,
    placeholder: text,
    send: text,
    writing: text,
    // The speakers' names a screen reader says before each line.
    assistant: text,
    visitor: text,
    notice: text,
    failure: z.strictObject({
      rateLimited: text,
      rejected: text,
      network: text,
      unavailable: text,
    }),
  }),
  quoteResult: z.strictObject({ backLink: text }),
  notFound: z.strictObject({ title: text, text, homeLink: text }),
  licencesPage: z.strictObject({
    title: text,
    intro: text,
    stateHeading: text,
    numberHeading: text,
    nationalProducerNumber: text,
    none: text,
  }),
  optOutPage: z.strictObject({
    title: text,
    intro: text,
    emailLabel: text,
    phoneLabel: text,
    hint: text,
    submit: text,
    errors: z.strictObject({ missing: text, email: text, phone: text, both: text }),
    failed: text,
    anotherSite: text,
    doneTitle: text,
    doneText: text,
    homeLink: text,
  }),
  privacyPage: z.strictObject({
    title: text,
    retentionDays: text.includes('{days}', { message: 'expected the text to hold {days}' }),
    retentionUnset: text,
    conversationRetentionDays: text.includes('{days}', {
      message: 'expected the text to hold {days}',
    }),
    leadWebhookSet: text,
    leadWebhookUnset: text,
    recordingOn: text,
    recordingOff: text,
    aiServices: text
      .includes('{model}', { message: 'expected the text to hold {model}' })
      .includes('{voice}', { message: 'expected the text to hold {voice}' })
      .includes('{transcriber}', { message: 'expected the text to hold {transcriber}' }),
  }),
  footer: z.strictObject({
    description: text,
    columns: z.array(z.strictObject({ heading: text, links: z.array(link) })),
    contactHeading: text,
    phoneLabel: text,
    emailLabel: text,
    hoursLabel: text,
    nationalProducerNumber: text,
    licences: text,
    socialLabel: text,
    social: z.array(z.strictObject({ network: z.enum(SOCIAL_NETWORKS), label: text, href })),
    copyright: text.includes('{year}', { message: 'expected the text to hold {year}' }),
  }),
  inbox: z.strictObject({ title: text }),
  /** Booked calls: off unless given (booking.ts). */
  booking: bookingSchema.optional(),
});

export type SiteContent = z.infer<typeof siteSchema>;

/** Every image path in the content, with its key, so the loader can check each file exists. */
export function imagePaths(site: SiteContent): [key: string, path: string][] {
  return [
    ['brand.logo.src', site.brand.logo.src],
    ['brand.logoOnDark.src', site.brand.logoOnDark.src],
    ['brand.favicon', site.brand.favicon],
    ['brand.shareImage.src', site.brand.shareImage.src],
    ['hero.image.src', site.hero.image.src],
    ...site.partners.items.map((item, i): [string, string] => [
      `partners.items[${i}].logo`,
      item.logo,
    ]),
    ...site.testimonials.items.map((item, i): [string, string] => [
      `testimonials.items[${i}].image`,
      item.image,
    ]),
  ];
}
