// The Spanish site's content: content/es/site.yaml holds a Spanish text under the same key for
// every text of site.yaml, and nothing else is needed there; the rest (links, images, numbers,
// names) comes from site.yaml. Arrays pair up by position.
/** The site's languages: English at /, Spanish at /es/. */
export const LANGUAGES = ['en', 'es'] as const;
export type Language = (typeof LANGUAGES)[number];

/** The path prefix of a language's pages ('' for English, the default). */
export const languagePrefix = (language: Language) => (language === 'en' ? '' : `/${language}`);

/** Keys whose values are not words: paths, links, identifiers and figures. */
const NOT_WORDS = new Set([
  'src',
  'href',
  'url',
  'favicon',
  'logo',
  'image',
  'icon',
  'network',
  'variant',
  'value',
]);
/** Texts that stay as they are in every language: proper names, the broker's own details, the inbox. */
const SAME_IN_EVERY_LANGUAGE = [
  /^brand\.name$/,
  /^broker\./,
  /^partners\.items\.\d+\.name$/,
  /^testimonials\.items\.\d+\.name$/,
  /^footer\.social\.\d+\.label$/,
  /^inbox\./,
];

/**
 * The keys of `booking` (booking.ts) that are settings, not texts. Here, not beside the schema:
 * the page imports this file, and the schema's zod must stay out of the page (it probes `eval`,
 * which the site's CSP reports).
 */
const BOOKING_SETTINGS = [
  'timeZone',
  'hours',
  'slotMinutes',
  'noticeHours',
  'daysAhead',
  'closed',
] as const;

/**
 * Settings rather than texts, read from site.yaml alone: the Spanish file may not set them, so
 * both languages' pages agree (the quote form's extra fields, which the server applies to both).
 */
const SITE_YAML_ONLY: Record<string, string> = {
  'quote.fields': 'set in site.yaml only; both languages show the same fields',
  ...Object.fromEntries(
    BOOKING_SETTINGS.map((key) => [
      `booking.${key}`,
      'set in site.yaml only; both languages offer the same times',
    ]),
  ),
};

const isWords = (path: (string | number)[]) => {
  if (Object.keys(SITE_YAML_ONLY).some((key) => `${path.join('.')}.`.startsWith(`${key}.`)))
    return false;
  const key = path.filter((part): part is string => typeof part === 'string').at(-1);
  if (key !== undefined && NOT_WORDS.has(key)) return false;
  const name = path.join('.');
  return !SAME_IN_EVERY_LANGUAGE.some((pattern) => pattern.test(name));
};

export class TranslationError extends Error {
  constructor(
    readonly path: (string | number)[],
    message: string,
  ) {
    super(message);
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * `base` with each text replaced by `translation`'s; throws a `TranslationError` naming the
 * first text of `base` with no counterpart, or a key of `translation` that `base` does not have.
 */
export function translate(
  base: unknown,
  translation: unknown,
  path: (string | number)[] = [],
): unknown {
  if (typeof base === 'string') {
    if (translation === undefined) {
      if (isWords(path)) throw new TranslationError(path, 'missing; expected its Spanish text');
      return base;
    }
    if (typeof translation !== 'string')
      throw new TranslationError(path, 'expected a text, like site.yaml');
    return translation;
  }
  if (Array.isArray(base)) {
    if (translation !== undefined && !Array.isArray(translation))
      throw new TranslationError(path, 'expected a list, like site.yaml');
    const items = translation ?? [];
    if (items.length > base.length)
      throw new TranslationError(path, `expected at most ${base.length} entries, like site.yaml`);
    return base.map((item, i) => translate(item, items[i], [...path, i]));
  }
  if (isObject(base)) {
    if (translation !== undefined && translation !== null && !isObject(translation))
      throw new TranslationError(path, 'expected a group of keys, like site.yaml');
    const given = (translation ?? {}) as Record<string, unknown>;
    const unknown = Object.keys(given).find((key) => !Object.hasOwn(base, key));
    if (unknown !== undefined)
      throw new TranslationError(
        [...path, unknown],
        'unknown key; expected only keys of site.yaml (check its spelling)',
      );
    const setting = Object.keys(given).find((key) =>
      Object.hasOwn(SITE_YAML_ONLY, [...path, key].join('.')),
    );
    if (setting !== undefined)
      throw new TranslationError([...path, setting], SITE_YAML_ONLY[[...path, setting].join('.')]);
    return Object.fromEntries(
      Object.entries(base).map(([key, value]) => [
        key,
        translate(value, given[key], [...path, key]),
      ]),
    );
  }
  return translation ?? base;
}

/** Every site path (`/privacy`) in `tree`'s links made the language's (`/es/privacy`). */
export function localizeLinks(tree: unknown, language: Language): unknown {
  const prefix = languagePrefix(language);
  if (Array.isArray(tree)) return tree.map((item) => localizeLinks(item, language));
  if (!isObject(tree)) return tree;
  return Object.fromEntries(
    Object.entries(tree).map(([key, value]) => [
      key,
      key === 'href' && typeof value === 'string' && /^\/(?!\/)/.test(value)
        ? `${prefix}${value}`
        : localizeLinks(value, language),
    ]),
  );
}
