// First-load JavaScript of the built site: the module scripts and modulepreloads that
// dist/index.html references, gzip-compressed (level 9), summed. Anything imported later with
// import() is not counted. Fails when index.html references no script at all, so a build or a
// pattern that stops matching cannot pass the budget at 0 KB.
// Usage: node scripts/first-load-size.mjs [--max-kb N] [--dist DIR]
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';

/** `{ rows: [{file, gzipBytes}], totalBytes }` for the built site in `dist`; throws if it has no script. */
export function measureFirstLoad(dist) {
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  const files = new Set();
  for (const [tag] of html.matchAll(/<(?:script|link)\b[^>]*>/g)) {
    const isModule = /type="module"/.test(tag) || /rel="modulepreload"/.test(tag);
    const src = tag.match(/\b(?:src|href)="\/?([^"]+\.js)"/);
    if (isModule && src) files.add(src[1]);
  }
  if (files.size === 0) throw new Error(`${join(dist, 'index.html')} references no module script: nothing to measure`);
  const rows = [...files].map((file) => ({ file, gzipBytes: gzipSync(readFileSync(join(dist, file)), { level: 9 }).length }));
  return { rows, totalBytes: rows.reduce((sum, row) => sum + row.gzipBytes, 0) };
}

export const kb = (bytes) => +(bytes / 1024).toFixed(1);

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const option = (name) => {
    const at = process.argv.indexOf(name);
    return at === -1 ? undefined : process.argv[at + 1];
  };
  const dist = resolve(option('--dist') ?? fileURLToPath(new URL('../dist/', import.meta.url)));
  let measured;
  try {
    measured = measureFirstLoad(dist);
  } catch (error) {
    console.error(`error: ${error.message}`);
    process.exit(1);
  }
  console.table(measured.rows.map(({ file, gzipBytes }) => ({ file, gzipKB: kb(gzipBytes) })));
  const totalKB = kb(measured.totalBytes);
  console.log(`first-load JavaScript: ${totalKB} KB gzip`);
  const max = option('--max-kb');
  if (max !== undefined && totalKB > Number(max)) {
    console.error(`over budget: ${totalKB} KB > ${max} KB`);
    process.exit(1);
  }
}
