import { pages } from 'virtual:site-content/pages';
import { SiteFooter } from '../components/layout/SiteFooter';
import { privacyPage } from '../content';
import { Island } from '../islands/Island';

/**
 * The privacy notice: content/pages/privacy.md, rendered at build time. Its `{{retention}}` slot
 * is filled by the server from its own LEAD_RETENTION_DAYS (backend/src/routes/site/pages.rs), so
 * the notice cannot promise a retention the server does not keep.
 */
export function PrivacyPage() {
  return (
    <>
      <Island name="header" />
      <main id="main" tabIndex={-1} className="px-4 pt-28 pb-16 outline-none">
        <article className="prose-page mx-auto max-w-3xl rounded-3xl bg-white p-8 shadow-xl ring-1 ring-slate-200 sm:p-12">
          <h1 className="text-3xl font-bold text-slate-900">{privacyPage.title}</h1>
          <div dangerouslySetInnerHTML={{ __html: pages.privacy }} />
        </article>
      </main>
      <SiteFooter languagePath="/privacy" />
    </>
  );
}
