// Renders a page to HTML at build time (scripts/prerender.mjs) and in the dev server
// (vite.config.ts). The page itself is static markup; each island inside it is prerendered on its
// own, as the browser will hydrate it (islands/mount.tsx).
import { StrictMode, type ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { prerenderToNodeStream } from 'react-dom/static';
import { App, isLandingPath, SITE_PAGES, type SitePath } from './App';
import { licencesPage, privacyPage } from './content';
import { headTags } from './head';
import { IslandHtml } from './islands/Island';
import { islandIdPrefix, islands, type IslandName } from './islands/registry';
import { optOutTitle, type OptOutVariant } from './pages/OptOutPage';
import { quoteResultTitle, type QuoteResultVariant } from './pages/QuoteResultPage';

export { OPT_OUT_VARIANTS } from './pages/OptOutPage';
export { QUOTE_RESULT_VARIANTS } from './pages/QuoteResultPage';
export { SITE_PAGES };
export {
  bookingFacts,
  brand,
  broker,
  leadNotice,
  phoneConsent,
  privacyPage,
  quoteFields,
} from './content';
// The notices before a conversation, whose exact text the server keeps with a visitor's
// acceptance: the one before a call as the build chose it (recorded or not), and the chat's.
export { consentText as callNotice } from './features/voice/texts';
export { voiceChat } from 'virtual:site-content';

const SITE_PAGE_TITLES: Record<SitePath, string> = {
  '/privacy': privacyPage.title,
  '/licences': licencesPage.title,
};

async function prerender(node: ReactNode, identifierPrefix: string): Promise<string> {
  const { prelude } = await prerenderToNodeStream(node, {
    identifierPrefix,
    // Never split a large part out to be appended later and moved into place by a script.
    progressiveChunkSize: Number.POSITIVE_INFINITY,
  });
  let html = '';
  for await (const chunk of prelude) html += chunk.toString();
  return html;
}

async function prerenderIslands(): Promise<Partial<Record<IslandName, string>>> {
  const names = (Object.keys(islands) as IslandName[]).filter((name) => islands[name].prerender);
  const html = await Promise.all(
    names.map(async (name) => {
      const Component = await islands[name].load();
      return prerender(
        <StrictMode>
          <Component />
        </StrictMode>,
        islandIdPrefix(name),
      );
    }),
  );
  return Object.fromEntries(names.map((name, i) => [name, html[i]]));
}

/** The page for `path` in the HTML shell (index.html with its two markers filled). */
export async function renderPage(shell: string, path: string): Promise<string> {
  return fillShell(
    shell,
    headTags(
      isLandingPath(path)
        ? 'landing'
        : Object.hasOwn(SITE_PAGE_TITLES, path)
          ? { page: SITE_PAGE_TITLES[path as SitePath], path }
          : 'not-found',
    ),
    <App path={path} />,
  );
}

/** A quote form post's result page, with the slots the server fills (QuoteResultPage.tsx). */
export async function renderQuoteResultPage(
  shell: string,
  variant: QuoteResultVariant,
): Promise<string> {
  return fillShell(
    shell,
    headTags({ quoteResult: quoteResultTitle(variant) }),
    <App path="/quote-result" quoteResult={variant} />,
  );
}

/** A page of the do-not-contact form, with the slots the server fills (OptOutPage.tsx). */
export async function renderOptOutPage(shell: string, variant: OptOutVariant): Promise<string> {
  return fillShell(
    shell,
    headTags({ page: optOutTitle(variant), path: '/opt-out' }),
    <App path="/opt-out" optOut={variant} />,
  );
}

async function fillShell(shell: string, head: string, app: ReactNode): Promise<string> {
  for (const marker of ['<!--app-head-->', '<!--app-html-->']) {
    if (!shell.includes(marker)) throw new Error(`the HTML shell lacks ${marker}`);
  }
  const html = renderToStaticMarkup(
    <IslandHtml.Provider value={await prerenderIslands()}>{app}</IslandHtml.Provider>,
  );
  // Function replacements, so `$` in the content is not read as a pattern.
  return shell.replace('<!--app-head-->', () => head).replace('<!--app-html-->', () => html);
}
