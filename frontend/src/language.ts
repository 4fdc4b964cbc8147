// The language of this build's pages (SITE_LANGUAGE: English at /, Spanish at /es/) and the paths
// that follow from it. Only the language's name is imported here, no text, so the first chunk
// may use it.
import { language } from 'virtual:site-content/language';
import { LANGUAGES, languagePrefix, type Language } from '../site-content/translation';

export { language, type Language };

/** The other language of the site, which the language switch leads to. */
export const otherLanguage: Language = LANGUAGES.find((other) => other !== language) ?? 'en';

/** A page's path (in English terms: /, /privacy) in `lang`: /es/, /es/privacy. */
export const pathIn = (path: string, lang: Language = language) => `${languagePrefix(lang)}${path}`;

/** This language's landing page. */
export const homePath = pathIn('/');
