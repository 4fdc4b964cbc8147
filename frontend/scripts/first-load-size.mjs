// First-load JavaScript of the built site: the module scripts and modulepreloads that
// dist/index.html references, gzip-compressed (level 9), summed. Anything imported later with
// import() is not counted. Usage: node scripts/first-load-size.mjs [--max-kb N]
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

const dist = new URL('../dist/', import.meta.url);
const html = readFileSync(new URL('index.html', dist), 'utf8');
const files = new Set();
for (const [tag] of html.matchAll(/<(?:script|link)\b[^>]*>/g)) {
  const isModule = /type="module"/.test(tag) || /rel="modulepreload"/.test(tag);
  const src = tag.match(/\b(?:src|href)="\/?([^"]+\.js)"/);
  if (isModule && src) files.add(src[1]);
}
let total = 0;
const rows = [];
for (const file of files) {
  const bytes = gzipSync(readFileSync(new URL(file, dist)), { level: 9 }).length;
  total += bytes;
  rows.push({ file, gzipKB: +(bytes / 1024).toFixed(1) });
}
const totalKB = +(total / 1024).toFixed(1);
console.table(rows);
console.log(`first-load JavaScript: ${totalKB} KB gzip`);
const max = process.argv.indexOf('--max-kb');
if (max !== -1 && totalKB > Number(process.argv[max + 1])) {
  console.error(`over budget: ${totalKB} KB > ${process.argv[max + 1]} KB`);
  process.exit(1);
}
