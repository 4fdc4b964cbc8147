// What the rules ask of the content, beyond its shape (schema.ts): checked on each language's
// content once it is read, the first problem refused with its key and what is missing. The
// Medicare disclaimer's words are the rule's, written once in wasm-core and taken from it here.
import type { SiteContent } from './schema.ts';
import type { Language } from './translation.ts';
import { wasmCore } from './wasm-core.ts';

export interface RuleProblem {
  path: (string | number)[];
  message: string;
}

/** A phrase the rules need, in each language: one of `patterns` must match. */
interface Phrase {
  what: string;
  patterns: Record<Language, RegExp>;
}

/**
 * Written consent to calls and texts (47 CFR 64.1200(f)(9)): who may call, that calls or texts
 * may be made with automated technology and with an artificial or AI-generated voice, and that
 * consent is not a condition of purchase.
 */
const PHONE_CONSENT: Phrase[] = [
  {
    what: 'that calls or texts may use automated technology',
    patterns: { en: /\bautomated\b/i, es: /\bautomatizad[ao]s?\b/i },
  },
  {
    what: 'that calls may use an artificial or AI-generated voice',
    patterns: {
      en: /\b(artificial|AI-generated|AI)\b[^.]*\bvoices?\b|\bvoices?\b[^.]*\b(artificial|AI-generated)\b/i,
      es: /\bvoz\b[^.]*\b(artificial|generada por (IA|inteligencia artificial))\b/i,
    },
  },
  {
    what: 'that consent is not a condition of purchase',
    patterns: {
      en: /\bnot a condition of (any )?purchase\b/i,
      es: /\bno es (una )?condici[oó]n (para|de) (la |ninguna )?compra\b/i,
    },
  },
];

/** The lead-generation notice (42 CFR 422.2274(g)(3)): a licensed agent will make contact. */
const LEAD_NOTICE: Phrase = {
  what: 'that a licensed agent will make contact',
  patterns: { en: /\blicensed\b/i, es: /\blicencia|licenciad[oa]\b/i },
};

const missing = (text: string, phrase: Phrase, language: Language) =>
  !phrase.patterns[language].test(text);

/** The Medicare disclaimer in `language`, or `null` when the content turns it off. */
export function disclaimerText(
  disclaimer: SiteContent['medicareDisclaimer'],
  language: Language,
): string | null {
  if (disclaimer.variant === 'none') return null;
  return wasmCore().medicareDisclaimer(
    disclaimer.variant,
    language,
    disclaimer.organizations,
    disclaimer.products,
  );
}

/** The first rule `site` (in `language`) breaks, or `undefined`. */
export function ruleProblem(site: SiteContent, language: Language): RuleProblem | undefined {
  const disclaimer = site.medicareDisclaimer;
  for (const key of ['some', 'every'] as const) {
    if (disclaimer[key] !== undefined)
      return {
        path: ['medicareDisclaimer', key],
        message:
          "the disclaimer's words are CMS's (42 CFR 422.2267(e)(41)), written once in wasm-core; remove this text and give only variant, organizations and products",
      };
  }
  // The quote form always offers Medicare (products.medicare, one of wasm-core's products).
  if (disclaimer.variant === 'none')
    return {
      path: ['medicareDisclaimer', 'variant'],
      message: `none while the quote form offers ${site.products.medicare}; expected some or every (42 CFR 422.2267(e)(41))`,
    };
  const consent = site.quote.phoneConsent;
  if (!consent.includes('{broker}'))
    return {
      path: ['quote', 'phoneConsent'],
      message: 'expected the text to hold {broker}, the broker the visitor agrees may call',
    };
  for (const phrase of PHONE_CONSENT) {
    if (missing(consent, phrase, language))
      return {
        path: ['quote', 'phoneConsent'],
        message: `expected the text to say ${phrase.what}`,
      };
  }
  if (missing(site.quote.leadNotice, LEAD_NOTICE, language))
    return {
      path: ['quote', 'leadNotice'],
      message: `expected the text to say ${LEAD_NOTICE.what} (${language === 'en' ? '"licensed"' : '"licencia" or "licenciado"'})`,
    };
  for (const [i, licence] of site.broker.licences.entries()) {
    if (!wasmCore().licenceState(licence.state))
      return {
        path: ['broker', 'licences', i, 'state'],
        message: `"${licence.state}" is not a US state, DC or territory; expected its name (Texas) or two-letter code (TX)`,
      };
  }
  return undefined;
}
