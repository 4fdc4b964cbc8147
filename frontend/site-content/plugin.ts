// Hands the checked content to the build: `virtual:site-content` exports each section of
// site.yaml from a module of its own (`virtual:site-content/section/NAME`), so each section joins
// the chunk of the code that uses it (the voice panel's texts load with the voice panel, not with
// the first screen) and a bundle carries only the sections its code uses;
// `virtual:site-content/assistant` whether calls are recorded (assistant.yaml's `recording`);
// `virtual:site-content/pages` the Markdown pages as HTML (prerendered only), the content
// folder's public/ is the site's public directory, and the HTML entries get the brand's favicon
// and the inbox's title. `SITE_LANGUAGE` (en, the default, or es) says which language's content a
// build holds (`virtual:site-content/language`); every build checks both.
import { join } from 'node:path';
import type { Plugin } from 'vite';
import { escapeHtml } from './html.ts';
import { ContentError, contentDir, loadContent, PUBLIC_DIR, type LoadedContent } from './load.ts';
import { siteSchema } from './schema.ts';
import { LANGUAGES, type Language } from './translation.ts';

const SITE = 'virtual:site-content';
const PAGES = 'virtual:site-content/pages';
const SECTION = 'virtual:site-content/section/';
const LANGUAGE = 'virtual:site-content/language';
const ASSISTANT = 'virtual:site-content/assistant';

/** The language of the build, from `SITE_LANGUAGE`. */
export function buildLanguage(env: Record<string, string | undefined> = process.env): Language {
  const language = env.SITE_LANGUAGE || 'en';
  if (!(LANGUAGES as readonly string[]).includes(language))
    throw new ContentError(`SITE_LANGUAGE=${language}: expected one of ${LANGUAGES.join(', ')}`);
  return language as Language;
}

export function siteContent(): Plugin {
  let content: LoadedContent;
  const load = () => {
    content = loadContent(contentDir(), buildLanguage());
    return content;
  };
  return {
    name: 'site-content',
    enforce: 'pre',
    config(_, { command }) {
      try {
        for (const language of LANGUAGES) loadContent(contentDir(), language);
        load();
      } catch (error) {
        // One line, no stack: the message names the file, the key and what is expected.
        if (command === 'build' && error instanceof ContentError) {
          console.error(`content error: ${error.message}`);
          process.exit(1);
        }
        throw error;
      }
      return { publicDir: join(contentDir(), PUBLIC_DIR) };
    },
    resolveId(id) {
      if (
        id === SITE ||
        id === PAGES ||
        id === LANGUAGE ||
        id === ASSISTANT ||
        id.startsWith(SECTION)
      )
        return `\0${id}`;
    },
    load(id) {
      if (id === `\0${SITE}`) {
        // Every section, an optional one left out of the content (booking) as undefined.
        return Object.keys(siteSchema.shape)
          .map((name) => `export { value as ${name} } from '${SECTION}${name}';`)
          .join('\n');
      }
      if (id.startsWith(`\0${SECTION}`)) {
        const name = id.slice(SECTION.length + 1) as keyof LoadedContent['site'];
        const { dir, site } = load();
        this.addWatchFile(join(dir, 'site.yaml'));
        if (content.language !== 'en') this.addWatchFile(join(dir, content.language, 'site.yaml'));
        return `export const value = ${JSON.stringify(site[name])};`;
      }
      if (id === `\0${LANGUAGE}`)
        return `export const language = ${JSON.stringify(load().language)};`;
      if (id === `\0${PAGES}`) return `export const pages = ${JSON.stringify(load().pages)};`;
      if (id === `\0${ASSISTANT}`) {
        const { dir, assistant } = load();
        this.addWatchFile(join(dir, 'assistant.yaml'));
        return `export const recording = ${JSON.stringify(assistant.recording)};`;
      }
    },
    transformIndexHtml(html) {
      return html
        .replaceAll('%CONTENT_LANG%', content.language)
        .replaceAll('%CONTENT_FAVICON%', escapeHtml(content.site.brand.favicon))
        .replaceAll('%CONTENT_INBOX_TITLE%', escapeHtml(content.site.inbox.title));
    },
  };
}
