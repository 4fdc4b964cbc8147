// Hands the checked content to the build: `virtual:site-content` exports each section of
// site.yaml on its own (so a bundle carries only the sections its code uses),
// `virtual:site-content/pages` the Markdown pages as HTML (prerendered only), the content
// folder's public/ is the site's public directory, and the HTML entries get the brand's favicon
// and the inbox's title.
import { join } from 'node:path';
import type { Plugin } from 'vite';
import { ContentError, contentDir, loadContent, PUBLIC_DIR, type LoadedContent } from './load.ts';

const SITE = 'virtual:site-content';
const PAGES = 'virtual:site-content/pages';

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
      if (id === SITE || id === PAGES) return `\0${id}`;
    },
    load(id) {
      if (id !== `\0${SITE}` && id !== `\0${PAGES}`) return;
      const { dir, site, pages } = load();
      this.addWatchFile(join(dir, 'site.yaml'));
      const sections: object = id === `\0${SITE}` ? site : { pages };
      return Object.entries(sections)
        .map(([name, value]) => `export const ${name} = ${JSON.stringify(value)};`)
        .join('\n');
    },
    transformIndexHtml(html) {
      return html
        .replaceAll('%CONTENT_FAVICON%', escapeHtml(content.site.brand.favicon))
        .replaceAll('%CONTENT_INBOX_TITLE%', escapeHtml(content.site.inbox.title));
    },
  };
}
