import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Visitor, type ESTree, type Plugin, type Rolldown } from 'vite';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import wasm from 'vite-plugin-wasm';
import { siteContent } from './site-content/plugin.ts';

/**
 * The dev server serves each page as the build prerenders it (static HTML with islands), so the
 * browser code is the same in both. The inbox (admin.html) is a client-rendered page of its own
 * and is served as it is.
 */
const prerenderInDev: Plugin = {
  name: 'prerender-in-dev',
  apply: 'serve',
  async transformIndexHtml(html, { server, originalUrl, path }) {
    if (path === '/admin.html') return html;
    const { renderPage } = await server!.ssrLoadModule('/src/entry-server.tsx');
    return renderPage(html, new URL(originalUrl ?? '/', 'http://dev').pathname);
  },
};

/** The island registry, and the islands' mounting, which imports it (see `firstChunk` there). */
const REGISTRY = fileURLToPath(new URL('src/islands/registry.ts', import.meta.url));
const MOUNT = fileURLToPath(new URL('src/islands/mount.tsx', import.meta.url));

/** The `import()` paths of the registry's entries marked `firstChunk: true`. */
function firstChunkImports(program: ESTree.Program): string[] {
  const loads: ESTree.ObjectProperty[] = [];
  const imports: ESTree.ImportExpression[] = [];
  new Visitor({
    ObjectExpression(entry) {
      const field = (name: string) =>
        entry.properties.find(
          (property): property is ESTree.ObjectProperty =>
            property.type === 'Property' &&
            property.key.type === 'Identifier' &&
            property.key.name === name,
        );
      const flag = field('firstChunk')?.value;
      const load = field('load');
      if (load && flag?.type === 'Literal' && flag.value === true) loads.push(load);
    },
    ImportExpression(node) {
      imports.push(node);
    },
  }).visit(program);
  return loads.map((load) => {
    const source = imports.find((node) => node.start >= load.start && node.end <= load.end)?.source;
    if (source?.type !== 'Literal' || typeof source.value !== 'string')
      throw new Error(`${REGISTRY}: an island's load() without import('…')`);
    return source.value;
  });
}

const unresolved = (path: string): never => {
  throw new Error(`${REGISTRY}: ${path} does not resolve`);
};

/**
 * The first chunk's modules, as the island registry says: the islands marked `firstChunk`, their
 * mounting and everything those import statically (React and its DOM renderer with them). The
 * registry is read at the build's start; the modules are found in the module graph at chunking,
 * once it is complete. Virtual modules (the bundler's runtime) keep their own chunk.
 */
function firstChunk() {
  let roots: string[] = [];
  let modules: Set<string> | undefined;
  const plugin: Plugin = {
    name: 'first-chunk-from-island-registry',
    apply: 'build',
    async buildStart() {
      modules = undefined;
      const paths = firstChunkImports(this.parse(readFileSync(REGISTRY, 'utf8'), { lang: 'ts' }));
      const resolved = await Promise.all(paths.map((path) => this.resolve(path, REGISTRY)));
      roots = [MOUNT, ...resolved.map((module, i) => module?.id ?? unresolved(paths[i]))];
    },
  };
  const has = (id: string, ctx: Rolldown.ChunkingContext) => {
    if (!modules) {
      modules = new Set();
      const queue = [...roots];
      for (let next = queue.pop(); next !== undefined; next = queue.pop()) {
        if (modules.has(next) || next.startsWith('\0')) continue;
        modules.add(next);
        queue.push(...(ctx.getModuleInfo(next)?.importedIds ?? []));
      }
    }
    return modules.has(id);
  };
  return { plugin, has };
}

const firstIslands = firstChunk();

export default defineConfig({
  plugins: [siteContent(), react(), tailwindcss(), wasm(), prerenderInDev, firstIslands.plugin],
  define: {
    __BUILD_YEAR__: JSON.stringify(new Date().getFullYear()),
  },
  // The particle worker (src/features/particles/particle-worker.ts) imports wasm-core like the page does.
  worker: {
    format: 'es',
    plugins: () => [wasm()],
  },
  build: {
    // Native top-level await and wasm ESM integration need a modern target.
    target: 'es2022',
    // What import() loads after the first paint (React, the islands) is not announced with
    // <link rel="modulepreload"> elements: inserting them cost the main thread 5 to 11 ms per
    // island here (measured), several times that on a phone; the browser's module loader finds
    // the same imports itself, a round trip later. The HTML's own preloads stay.
    modulePreload: {
      resolveDependencies: (_file, deps, { hostType }) => (hostType === 'html' ? deps : []),
    },
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            // The entry's own modules, in one file; first, so that a module it shares with an
            // island (the texts, the quote links) never joins the React chunk, which would then be
            // on the first paint's path (e2e/first-paint.test.mjs checks).
            { name: 'entry', tags: ['$initial'], priority: 1 },
            // React, the islands' mounting and the first islands, in one file (src/islands/registry.ts).
            { name: (id, ctx) => (firstIslands.has(id, ctx) ? 'react' : null), debugName: 'react' },
          ],
        },
      },
    },
  },
  server: {
    proxy: { '/api': 'http://127.0.0.1:8080' },
  },
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}', 'site-content/**/*.test.ts'],
    setupFiles: ['src/test-setup.ts'],
  },
});
