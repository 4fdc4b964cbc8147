import { header } from '../../content';
import { otherLanguage, pathIn } from '../../language';

/**
 * The link to the site in its other language ("Español" on /, "English" on /es/): a plain link,
 * so it works without JavaScript; never an automatic redirect (docs/product.md §2).
 */
export function LanguageSwitch({ className }: { className?: string }) {
  return (
    <a
      href={pathIn('/', otherLanguage)}
      hrefLang={otherLanguage}
      lang={otherLanguage}
      className={className}
    >
      {header.otherLanguage}
    </a>
  );
}
