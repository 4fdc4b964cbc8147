import { Island } from './islands/Island';
import { LandingPage } from './pages/LandingPage';
import { LicencesPage } from './pages/LicencesPage';
import { NotFoundPage } from './pages/NotFoundPage';
import { OptOutPage, type OptOutVariant } from './pages/OptOutPage';
import { PrivacyPage } from './pages/PrivacyPage';
import { QuoteResultPage, type QuoteResultVariant } from './pages/QuoteResultPage';

export const isLandingPath = (path: string) => path === '/' || path === '/index.html';

/** The site's other pages, by path: prerendered like the landing page (scripts/prerender.mjs). */
export const SITE_PAGES = {
  '/privacy': PrivacyPage,
  '/licences': LicencesPage,
} as const;
export type SitePath = keyof typeof SITE_PAGES;
const isSitePath = (path: string): path is SitePath => Object.hasOwn(SITE_PAGES, path);

/**
 * One landing route, with the voice button; the privacy notice and the licences page; every
 * other path is the 404 screen (docs/product.md §2). The result pages of a form post without JavaScript are rendered by `quoteResult` (the server picks
 * one for its `/quote-result`), the do-not-contact pages by `optOut` (for its `/opt-out`).
 * Page-wide layers are siblings of the page: the background canvas goes before it (the page sits
 * above, in a z-10 layer), the fixed toasts and voice button after it.
 */
export function App({
  path,
  quoteResult,
  optOut,
}: {
  path: string;
  quoteResult?: QuoteResultVariant;
  optOut?: OptOutVariant;
}) {
  const landing = !quoteResult && !optOut && isLandingPath(path);
  const page = quoteResult ? (
    <QuoteResultPage variant={quoteResult} />
  ) : optOut ? (
    <OptOutPage variant={optOut} />
  ) : landing ? (
    <LandingPage />
  ) : isSitePath(path) ? (
    (() => {
      const Page = SITE_PAGES[path];
      return <Page />;
    })()
  ) : (
    <NotFoundPage />
  );
  return (
    <>
      <Island name="particles" />
      <div className="relative z-10">{page}</div>
      <Island name="toaster" />
      {landing && <Island name="voice" />}
    </>
  );
}
