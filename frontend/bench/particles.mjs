// Browser benchmark of the particle background against @tsparticles/slim drawing the same scene,
// in one run of headless Chromium: main-thread script and task time per second (CDP
// Performance.getMetrics ScriptDuration and TaskDuration) and frames per second, at N = 100,
// 500 and 2,000, plus the real site with its 100 particles when frontend/dist is built.
// Run through scripts/bench-particles.sh browser [--seconds 10] [--counts 100,500,2000]
// [--engines wasm,tsparticles].
import { build } from 'vite';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchBrowser, openPage } from '../e2e/support/browser.mjs';
import { repoRoot, startServer } from '../e2e/support/server.mjs';

const argument = (name, fallback) => {
  const at = process.argv.indexOf(name);
  return at === -1 ? fallback : Number(process.argv[at + 1]);
};
const list = (name, fallback) => {
  const at = process.argv.indexOf(name);
  return at === -1 ? fallback : process.argv[at + 1].split(',');
};
const SECONDS = argument('--seconds', 10);
const WARM_UP_MS = 2000;
// `--counts 2000 --engines wasm` measures one case while working on it; the bars need the defaults.
const COUNTS = list('--counts', ['100', '500', '2000']).map(Number);
const ENGINES = list('--engines', ['wasm', 'tsparticles']);
const frontend = join(repoRoot, 'frontend');

const outDir = mkdtempSync(join(tmpdir(), 'particles-bench-'));
await build({
  configFile: join(frontend, 'vite.config.ts'),
  root: join(frontend, 'bench'),
  logLevel: 'warn',
  build: { outDir, emptyOutDir: true },
});

async function measure(browser, url, ready) {
  const { page, context, errors } = await openPage(browser);
  // Frames per second as the page sees them: animation frame callbacks actually delivered.
  await page.addInitScript(() => {
    window.benchFrames = 0;
    const count = () => {
      window.benchFrames++;
      requestAnimationFrame(count);
    };
    requestAnimationFrame(count);
  });
  await page.goto(url);
  await page.waitForFunction(ready, undefined, { timeout: 30_000 });
  await page.waitForTimeout(WARM_UP_MS);
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');
  const sample = async () => {
    const { metrics } = await cdp.send('Performance.getMetrics');
    const value = (name) => metrics.find((m) => m.name === name).value;
    return { script: value('ScriptDuration'), task: value('TaskDuration'), frames: await page.evaluate(() => window.benchFrames), at: performance.now() };
  };
  const before = await sample();
  await page.waitForTimeout(SECONDS * 1000);
  const after = await sample();
  const drawn = await page.evaluate(() => document.querySelector('canvas[data-drawn]')?.dataset.drawn ?? '-');
  await context.close();
  if (errors.length) throw errors[0];
  const seconds = (after.at - before.at) / 1000;
  return {
    scriptMsPerS: +((1000 * (after.script - before.script)) / seconds).toFixed(2),
    taskMsPerS: +((1000 * (after.task - before.task)) / seconds).toFixed(2),
    fps: +((after.frames - before.frames) / seconds).toFixed(1),
    drawn,
  };
}

const benchServer = await startServer({ env: { STATIC_DIR: outDir } });
const browser = await launchBrowser();
const rows = [];
try {
  const page = (engine, n) => `${benchServer.url}/?engine=${engine}&n=${n}`;
  const display = await measure(browser, page('none', 0), () => window.benchReady);
  rows.push({ engine: 'empty page (display rate)', n: 0, ...display });
  for (const n of COUNTS) {
    for (const engine of ENGINES) {
      rows.push({ engine: engine === 'wasm' ? 'wasm-core' : '@tsparticles/slim', n, ...(await measure(browser, page(engine, n), () => window.benchReady)) });
    }
  }
  if (existsSync(join(frontend, 'dist/index.html'))) {
    const site = await startServer();
    try {
      const running = () => document.querySelector('canvas[data-particles="running"]') !== null;
      rows.push({ engine: 'the site (wasm-core, whole page)', n: 100, ...(await measure(browser, site.url, running)) });
    } finally {
      await site.stop();
    }
  }
} finally {
  await browser.close();
  await benchServer.stop();
  rmSync(outDir, { recursive: true, force: true });
}

console.table(rows);
const row = (engine, n) => rows.find((r) => r.engine === engine && r.n === n);
if (!row('wasm-core', 100) || !row('@tsparticles/slim', 100) || !row('wasm-core', 2000)) process.exit(0);
const ratio = row('wasm-core', 100).scriptMsPerS / row('@tsparticles/slim', 100).scriptMsPerS;
const displayFps = rows[0].fps;
const fps2000 = row('wasm-core', 2000).fps;
console.log(`N = 100: our script time is ${(ratio * 100).toFixed(0)}% of tsParticles' (bar: at most 33%) -> ${ratio <= 1 / 3 ? 'met' : 'NOT met'}`);
console.log(`N = 2,000: ${fps2000} fps against a display rate of ${displayFps} -> ${fps2000 >= 0.95 * displayFps ? 'met' : 'NOT met'}`);
