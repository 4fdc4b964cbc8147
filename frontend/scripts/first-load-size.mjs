// First-load JavaScript of the built site: every script a visit to the landing page fetches
// without any interaction, before and after the first paint (the entry, React, the islands that
// start by themselves, the workers), at a phone's and a desktop's size. The real release backend
// serves the built site (so the voice island asks the server as it does in production) and
// Chromium opens the page without scrolling; each .js file fetched is counted once, gzip-compressed
// (level 9) from the built file, so the figure does not depend on timing or on the server's own
// compression. Fails when a visit fetches no script at all, so a broken build or a page that never
// loads cannot pass the budget at 0 KB. `--max-kb` holds the larger of the two sizes with voice
// off (the default) to its budget; `--voice-max-kb` measures with a voice configuration as well
// (the real set-up, where only the idle voice and chat buttons may load before a visitor comes
// near them) and holds the larger of those sizes to its own; `--voice` measures it for the record.
// Needs `scripts/build.sh` (the site and the backend).
// Usage: node scripts/first-load-size.mjs [--max-kb N] [--voice-max-kb N] [--dist DIR] [--voice]
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { launchBrowser } from '../e2e/support/browser.mjs';
import { startServer } from '../e2e/support/server.mjs';

/** The sizes a visit is measured at: a common phone and a common laptop window (CSS pixels). */
export const VISIT_VIEWPORTS = {
  phone: { width: 412, height: 823 },
  desktop: { width: 1350, height: 940 },
};
/** A voice configuration the backend accepts; nothing calls the provider without a click. */
const VOICE_ENV = { VAPI_PUBLIC_KEY: 'pk-first-load', VAPI_ASSISTANT_ID: 'asst-first-load' };
/**
 * A visit is over once no request has been under way for this long after the `load` event: the
 * islands start after the first paint, the particle host after `load` and an idle callback, and
 * each step waits on the one before, never on a timer longer than this.
 */
const QUIET_MS = 2000;
/** A page that never goes quiet (a polling loop) fails rather than hanging the build. */
const VISIT_LIMIT_MS = 30_000;

const isScript = (url) => /\.m?js$/.test(new URL(url).pathname);

/** The paths of the scripts `url` fetches (its workers' included) until the network is quiet. */
async function scriptsFetched(browser, url, viewport) {
  const context = await browser.newContext({ viewport });
  try {
    const page = await context.newPage();
    const scripts = new Set();
    let inFlight = 0;
    let lastActivity = Date.now();
    const started = (request) => {
      inFlight++;
      lastActivity = Date.now();
      if (isScript(request.url())) scripts.add(new URL(request.url()).pathname);
    };
    const ended = () => {
      inFlight--;
      lastActivity = Date.now();
    };
    // Context-wide, so a dedicated worker's own requests count too.
    context.on('request', started);
    context.on('requestfinished', ended);
    context.on('requestfailed', ended);
    await page.goto(url, { waitUntil: 'load' });
    const deadline = Date.now() + VISIT_LIMIT_MS;
    while (inFlight > 0 || Date.now() - lastActivity < QUIET_MS) {
      if (Date.now() > deadline)
        throw new Error(`${url} did not go quiet within ${VISIT_LIMIT_MS} ms`);
      await page.waitForTimeout(100);
    }
    return [...scripts];
  } finally {
    await context.close();
  }
}

/**
 * `{ rows: [{file, gzipBytes}], totalBytes }` for one visit to `page` (`/`, or `/es/`) of the
 * site built in `dist`, at `viewport`, with or without a voice configuration; throws if the visit
 * fetched no script.
 */
export async function measureFirstLoad(
  dist,
  { viewport = VISIT_VIEWPORTS.phone, voice = false, browser, page = '/' } = {},
) {
  const server = await startServer({ staticDir: dist, env: voice ? VOICE_ENV : {} });
  const ownBrowser = browser ? null : await launchBrowser();
  try {
    const files = await scriptsFetched(
      browser ?? ownBrowser,
      new URL(page, server.url).href,
      viewport,
    );
    if (files.length === 0)
      throw new Error(`a visit to the site in ${dist} fetched no script: nothing to measure`);
    const rows = files
      .map((path) => path.replace(/^\//, ''))
      .map((file) => ({
        file,
        gzipBytes: gzipSync(readFileSync(join(dist, file)), { level: 9 }).length,
      }))
      .sort((a, b) => b.gzipBytes - a.gzipBytes);
    return { rows, totalBytes: rows.reduce((sum, row) => sum + row.gzipBytes, 0) };
  } finally {
    await ownBrowser?.close();
    await server.stop();
  }
}

export const kb = (bytes) => +(bytes / 1024).toFixed(1);

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const option = (name) => {
    const at = process.argv.indexOf(name);
    return at === -1 ? undefined : process.argv[at + 1];
  };
  const dist = resolve(option('--dist') ?? fileURLToPath(new URL('../dist/', import.meta.url)));
  const budgets = { off: option('--max-kb'), on: option('--voice-max-kb') };
  const voices =
    process.argv.includes('--voice') || budgets.on !== undefined ? [false, true] : [false];
  // Each language's landing page: the Spanish one when the build has it.
  const pages = existsSync(join(dist, 'es/index.html')) ? ['/', '/es/'] : ['/'];
  const browser = await launchBrowser();
  /** The larger size of the visits with voice off and on. */
  const largest = { off: 0, on: 0 };
  try {
    const visits = pages.flatMap((page) =>
      voices.flatMap((voice) =>
        Object.entries(VISIT_VIEWPORTS).map((entry) => [page, voice, entry]),
      ),
    );
    for (const [page, voice, [name, viewport]] of visits) {
      const measured = await measureFirstLoad(dist, { viewport, voice, browser, page });
      console.log(
        `\n${page} ${name} ${viewport.width}x${viewport.height}, voice ${voice ? 'on' : 'off'}:`,
      );
      console.table(measured.rows.map(({ file, gzipBytes }) => ({ file, gzipKB: kb(gzipBytes) })));
      console.log(
        `first-load JavaScript: ${kb(measured.totalBytes)} KB gzip in ${measured.rows.length} files`,
      );
      const mode = voice ? 'on' : 'off';
      largest[mode] = Math.max(largest[mode], measured.totalBytes);
    }
  } catch (error) {
    console.error(`error: ${error.message}`);
    process.exitCode = 1;
  } finally {
    await browser.close();
  }
  for (const [mode, max] of Object.entries(budgets)) {
    if (process.exitCode !== 1 && max !== undefined && kb(largest[mode]) > Number(max)) {
      console.error(
        `over budget: ${kb(largest[mode])} KB > ${max} KB (the larger size, voice ${mode})`,
      );
      process.exitCode = 1;
    }
  }
}
