// Fills the built dist/index.html shell with the rendered landing page and writes dist/404.html
// (which the backend sends, with status 404, for every unknown path); the same for Spanish under
// dist/es/ from the Spanish build (SITE_LANGUAGE=es), whose assets join dist/assets/. Run after both builds:
// `vite build` (client) and `vite build --ssr src/entry-server.tsx --outDir dist-ssr`.
// Usage: node scripts/prerender.mjs [--dist DIR --ssr DIR [--dist-es DIR --ssr-es DIR]]
//
// The stylesheet is inlined: a <link rel="stylesheet"> blocks the first paint until it has
// arrived, and the whole of Tailwind's output for this page fits, with the first screen's HTML,
// in the first 14 KB the server sends (e2e/first-paint.test.mjs checks both).
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

// `--dist DIR --ssr DIR` prerender another build (scripts/first-load-deltas.mjs builds variants),
// English only unless `--dist-es DIR --ssr-es DIR` give its Spanish build too (e2e tests that
// build from another content folder).
const dirOption = (name, fallback) => {
  const at = process.argv.indexOf(name);
  return at === -1
    ? fallback && new URL(fallback, import.meta.url)
    : pathToFileURL(`${process.argv[at + 1].replace(/\/?$/, '/')}`);
};
const dist = dirOption('--dist', '../dist/');
const ssrDir = dirOption('--ssr', '../dist-ssr/');
// The Spanish build (SITE_LANGUAGE=es: `vite build --outDir dist-es` and the SSR build into
// dist-ssr-es), prerendered under dist/es/ when present.
const ownBuild = process.argv.includes('--dist');
const spanishDist = dirOption('--dist-es', ownBuild ? undefined : '../dist-es/');
const spanishSsr = dirOption('--ssr-es', ownBuild ? undefined : '../dist-ssr-es/');
const languages = [{ language: 'en', prefix: '', shellDir: dist, ssr: ssrDir }];
if (spanishDist && spanishSsr && existsSync(spanishSsr))
  languages.push({ language: 'es', prefix: 'es/', shellDir: spanishDist, ssr: spanishSsr });

const STYLESHEET = /<link rel="stylesheet"[^>]*href="\/(assets\/[^"]+\.css)"[^>]*>/g;
const inlineStyles = (html) =>
  html.replace(
    STYLESHEET,
    (_, file) => `<style>${readFileSync(new URL(file, dist), 'utf8').trim()}</style>`,
  );

for (const { language, prefix, shellDir, ssr } of languages) {
  const {
    renderPage,
    renderQuoteResultPage,
    QUOTE_RESULT_VARIANTS,
    renderOptOutPage,
    OPT_OUT_VARIANTS,
    brand,
    privacyPage,
    leadNotice,
    quoteFields,
    phoneConsent,
    broker,
    bookingFacts,
    callNotice,
    voiceChat,
  } = await import(new URL('entry-server.js', ssr).href);
  // The other language's scripts and styles join dist/assets/: their names are their contents'
  // hashes, so a file both builds made (React, the shared code) is one file, fetched once.
  if (shellDir !== dist)
    cpSync(new URL('assets/', shellDir), new URL('assets/', dist), { recursive: true });
  const shell = readFileSync(new URL('index.html', shellDir), 'utf8');
  const out = new URL(prefix, dist);

  // The privacy notice has slots the server fills from its settings, so it goes to the hidden
  // folder with what the server reads at start (backend/src/routes/site/privacy.rs).
  const serverDir = new URL(`.site/${prefix}`, dist);
  mkdirSync(serverDir, { recursive: true });
  const pages = [
    { path: '/', file: 'index.html' },
    { path: '/404', file: '404.html' },
    { path: '/licences', file: 'licences.html' },
    { path: '/privacy', file: `.site/${prefix}privacy.html`, root: true },
  ];
  for (const { path, file, root } of pages) {
    const page = inlineStyles(await renderPage(shell, path));
    if (/<link rel="stylesheet"/.test(page))
      throw new Error(`dist/${file} still links a stylesheet`);
    const target = root ? new URL(file, dist) : new URL(file, out);
    mkdirSync(new URL('./', target), { recursive: true });
    writeFileSync(target, page);
    console.log(
      `prerendered ${language} ${path} -> ${target.pathname} (${(page.length / 1024).toFixed(1)} KB)`,
    );
  }
  // What the server takes from the content: the canonical URL (its SITE_URL when that is unset),
  // the privacy notice's words for the settings it writes in (backend/src/routes/site/privacy.rs),
  // the lead-generation notice beside the form, which each lead's consent record keeps
  // (backend/src/leads/notice.rs), the form's extra fields as the broker set them (off, optional
  // or required; the server applies the same), the consent to be called beside the phone
  // field, whose exact text a lead with a number keeps, the broker's licensed states, and the
  // notices before a conversation.
  const facts = {
    url: brand.url,
    retention: { days: privacyPage.retentionDays, unset: privacyPage.retentionUnset },
    conversationRetention: { days: privacyPage.conversationRetentionDays },
    leadWebhook: { set: privacyPage.leadWebhookSet, unset: privacyPage.leadWebhookUnset },
    leadNotice,
    fields: { phone: quoteFields.phone, zip: quoteFields.zip },
    phoneConsent,
    // The states the broker is licensed in, as the content names them: each lead's ZIP code is
    // checked against them (backend/src/settings/site.rs).
    licences: broker.licences.map((licence) => licence.state),
    // Booked calls (docs/product.md §13): the hours the open times are computed from, and the
    // Scope of Appointment's statement each booking's record keeps; null when off.
    booking: bookingFacts,
    // The notices before a conversation, the call's and the chat's: a visitor's acceptance keeps
    // the exact text (backend/src/routes/notice_acceptance.rs), never one the page sends.
    conversationNotices: { call: callNotice, chat: voiceChat.notice },
  };
  writeFileSync(new URL('site.json', serverDir), `${JSON.stringify(facts, null, 2)}\n`);
  // The result pages of a quote form post without JavaScript, one per outcome, with slots the
  // server fills (backend/src/routes/quote_result/pages.rs). In a hidden folder: the site does not
  // serve it, the server reads it at start. The stylesheet stays linked: the server sends these
  // pages as they are filled in, uncompressed, and the stylesheet comes compressed and cached.
  const results = new URL(`.quote-result/${prefix}`, dist);
  mkdirSync(results, { recursive: true });
  for (const variant of QUOTE_RESULT_VARIANTS) {
    const page = await renderQuoteResultPage(shell, variant);
    writeFileSync(new URL(`${variant}.html`, results), page);
    console.log(
      `prerendered the ${language} quote result '${variant}' -> dist/.quote-result/${prefix}${variant}.html (${(page.length / 1024).toFixed(1)} KB)`,
    );
  }
  // The do-not-contact pages (/opt-out), one per outcome, with slots for what was typed, which
  // the server fills and serves (backend/src/routes/opt_out/pages.rs); hidden like the result
  // pages, and like them sent uncompressed, so their stylesheet stays linked.
  const optOut = new URL(`.opt-out/${prefix}`, dist);
  mkdirSync(optOut, { recursive: true });
  for (const variant of OPT_OUT_VARIANTS) {
    const page = await renderOptOutPage(shell, variant);
    writeFileSync(new URL(`${variant}.html`, optOut), page);
    console.log(
      `prerendered the ${language} opt-out page '${variant}' -> dist/.opt-out/${prefix}${variant}.html (${(page.length / 1024).toFixed(1)} KB)`,
    );
  }
  rmSync(ssr, { recursive: true, force: true });
  if (shellDir !== dist) rmSync(shellDir, { recursive: true, force: true });
}
