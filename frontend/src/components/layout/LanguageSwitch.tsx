import { header } from '../../content';
import { otherLanguage, pathIn } from '../../language';

/**
 * The link to the page at `path` (in English terms: /, /privacy) in the site's other language
 * ("Español" on /, "English" on /es/): a plain link, so it works without JavaScript; never an
 * automatic redirect (docs/product.md §1). The header's, an island shared by every page, leads to
 * the landing page.
 */
export function LanguageSwitch({ className, path = '/' }: { className?: string; path?: string }) {
  return (
    <a
      href={pathIn(path, otherLanguage)}
      hrefLang={otherLanguage}
      lang={otherLanguage}
      className={className}
    >
      {header.otherLanguage}
    </a>
  );
}
