// Hands the checked content to the build: `virtual:site-content` exports each section of
// site.yaml from a module of its own (`virtual:site-content/section/NAME`), so each section joins
// the chunk of the code that uses it (the voice panel's texts load with the voice panel, not with
// the first screen) and a bundle carries only the sections its code uses;
// `virtual:site-content/pages` the Markdown pages as HTML (prerendered only), the content
// folder's public/ is the site's public directory, and the HTML entries get the brand's favicon
// and the inbox's title.
import { join } from 'node:path';
import type { Plugin } from 'vite';
import { ContentError, contentDir, loadContent, PUBLIC_DIR, type LoadedContent } from './load.ts';

const SITE = 'virtual:site-content';
const PAGES = 'virtual:site-content/pages';
const SECTION = 'virtual:site-content/section/';

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export function siteContent(): Plugin {
  let content: LoadedContent;
  const load = () => {
    content = loadContent();
    return content;
  };
  return {
    name: 'site-content',
    enforce: 'pre',
    config(_, { command }) {
      try {
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
      if (id === SITE || id === PAGES || id.startsWith(SECTION)) return `\0${id}`;
    },
    load(id) {
      if (id === `\0${SITE}`) {
        return Object.keys(load().site)
          .map((name) => `export { value as ${name} } from '${SECTION}${name}';`)
          .join('\n');
      }
      if (id.startsWith(`\0${SECTION}`)) {
        const name = id.slice(SECTION.length + 1) as keyof LoadedContent['site'];
        const { dir, site } = load();
        this.addWatchFile(join(dir, 'site.yaml'));
        return `export const value = ${JSON.stringify(site[name])};`;
      }
      if (id === `\0${PAGES}`) return `export const pages = ${JSON.stringify(load().pages)};`;
    },
    transformIndexHtml(html) {
      return html
        .replaceAll('%CONTENT_FAVICON%', escapeHtml(content.site.brand.favicon))
        .replaceAll('%CONTENT_INBOX_TITLE%', escapeHtml(content.site.inbox.title));
    },
  };
}
