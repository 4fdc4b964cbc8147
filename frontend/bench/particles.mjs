// Browser benchmark of the particle background against @tsparticles/slim drawing the same scene,
// in one run of headless Chromium: main-thread script and task time per second (CDP
// Performance.getMetrics ScriptDuration and TaskDuration, all the page's main-thread work), the
// page's frames per second and, for ours, the worker's own frame rate, at N = 100 and 2,000,
// plus the real site with its 100 particles when frontend/dist is built, and the site with the
// wasm blocked (no background at all). Each case is measured --runs times (default 5), in
// rounds so a slow spell hits every case alike; the table shows the median and the spread
// (min-max). Run through scripts/bench-particles.sh browser [--seconds 8] [--runs 5]
// [--counts 100,2000] [--engines wasm,tsparticles] [--cpu-slowdown 4].
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
const SECONDS = argument('--seconds', 8);
const RUNS = argument('--runs', 5);
// CDP's CPU throttling, e.g. 4 for a mid-range phone; it slows the page's main thread.
const CPU_SLOWDOWN = argument('--cpu-slowdown', 1);
const WARM_UP_MS = 2000;
// `--counts 2000 --engines wasm` measures one case while working on it; the bars need the defaults.
const COUNTS = list('--counts', ['100', '2000']).map(Number);
const ENGINES = list('--engines', ['wasm', 'tsparticles']);
const frontend = join(repoRoot, 'frontend');

const outDir = mkdtempSync(join(tmpdir(), 'particles-bench-'));
await build({
  configFile: join(frontend, 'vite.config.ts'),
  root: join(frontend, 'bench'),
  logLevel: 'warn',
  build: { outDir, emptyOutDir: true },
});

async function measure(browser, url, ready, { blockWasm = false, countPageFrames = false } = {}) {
  const { page, context, errors } = await openPage(browser);
  if (blockWasm) await context.route(/\.wasm$/, (route) => route.abort());
  // Frames per second as the page sees them: animation frame callbacks actually delivered. Only
  // where the engine draws on the main thread: the counter is main-thread work of its own, which
  // the animation's rows must not be charged (they count the animation's frames instead).
  if (countPageFrames) {
    await page.addInitScript(() => {
      window.benchFrames = 0;
      const count = () => {
        window.benchFrames++;
        requestAnimationFrame(count);
      };
      requestAnimationFrame(count);
    });
  }
  await page.goto(url);
  await page.waitForFunction(ready, undefined, { timeout: 30_000 });
  const cdp = await context.newCDPSession(page);
  if (CPU_SLOWDOWN !== 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
  await page.waitForTimeout(WARM_UP_MS);
  await cdp.send('Performance.enable');
  // The animation's frames, counted in the worker (or on the fallback host) and reported on data-frames.
  const animationFrames = () =>
    page.evaluate(async () => {
      const canvas = document.querySelector('canvas[data-particles-host]');
      if (!canvas || !window.benchCountFrames) return undefined;
      const before = canvas.dataset.frames;
      window.benchCountFrames();
      for (let i = 0; i < 100 && canvas.dataset.frames === before; i++)
        await new Promise((r) => setTimeout(r, 10));
      return Number(canvas.dataset.frames);
    });
  const counts = async () => ({
    frames: await page.evaluate(() => window.benchFrames),
    animation: await animationFrames(),
    countedAt: performance.now(),
  });
  const metricsNow = async () => {
    const { metrics } = await cdp.send('Performance.getMetrics');
    const value = (name) => metrics.find((m) => m.name === name).value;
    return { script: value('ScriptDuration'), task: value('TaskDuration'), at: performance.now() };
  };
  // Frame counts outside the metrics' window, so asking for them is not charged to the page.
  const before = { ...(await counts()), ...(await metricsNow()) };
  await page.waitForTimeout(SECONDS * 1000);
  const after = await metricsNow();
  Object.assign(after, await counts());
  const drawn = await page.evaluate(
    () => document.querySelector('canvas[data-drawn]')?.dataset.drawn ?? '-',
  );
  await context.close();
  // With the wasm blocked the background fails to load, as it should.
  if (errors.length && !blockWasm) throw errors[0];
  const seconds = (after.at - before.at) / 1000;
  const countedSeconds = (after.countedAt - before.countedAt) / 1000;
  return {
    scriptMsPerS: +((1000 * (after.script - before.script)) / seconds).toFixed(2),
    taskMsPerS: +((1000 * (after.task - before.task)) / seconds).toFixed(2),
    fps:
      after.frames === undefined
        ? undefined
        : +((after.frames - before.frames) / countedSeconds).toFixed(1),
    animationFps:
      after.animation === undefined
        ? undefined
        : +((after.animation - before.animation) / countedSeconds).toFixed(1),
    drawn,
  };
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
/** "median (min-max)" of one metric over the runs of a case. */
const spread = (runs, key) => {
  const values = runs.map((r) => r[key]).filter((v) => v !== undefined);
  if (!values.length) return '-';
  const round = (v) => +v.toFixed(1);
  return `${round(median(values))} (${round(Math.min(...values))}-${round(Math.max(...values))})`;
};

const benchServer = await startServer({ env: { STATIC_DIR: outDir } });
const site = existsSync(join(frontend, 'dist/index.html')) ? await startServer() : undefined;
const browser = await launchBrowser();
const page = (engine, n) => `${benchServer.url}/?engine=${engine}&n=${n}`;
const animationRunning = () => document.querySelector('canvas[data-particles="running"]') !== null;
const cases = [
  {
    engine: 'empty page (display rate)',
    n: 0,
    url: page('none', 0),
    ready: () => window.benchReady,
    countPageFrames: true,
  },
];
for (const n of COUNTS) {
  for (const engine of ENGINES) {
    cases.push(
      engine === 'wasm'
        ? {
            engine: 'wasm-core animation (worker)',
            n,
            url: page('wasm', n),
            ready: animationRunning,
          }
        : {
            engine: '@tsparticles/slim',
            n,
            url: page(engine, n),
            ready: () => window.benchReady,
            countPageFrames: true,
          },
    );
  }
}
if (site) {
  cases.push({ engine: 'the site (whole page)', n: 100, url: site.url, ready: animationRunning });
  const loaded = () => document.readyState === 'complete';
  cases.push({
    engine: 'the site, wasm blocked (no background)',
    n: 0,
    url: site.url,
    ready: loaded,
    blockWasm: true,
  });
}
const results = cases.map(() => []);
try {
  for (let run = 0; run < RUNS; run++) {
    for (const [i, c] of cases.entries())
      results[i].push(await measure(browser, c.url, c.ready, c));
  }
} finally {
  await browser.close();
  await benchServer.stop();
  await site?.stop();
  rmSync(outDir, { recursive: true, force: true });
}

const rows = cases.map((c, i) => ({
  engine: c.engine,
  n: c.n,
  'script ms/s': spread(results[i], 'scriptMsPerS'),
  'tasks ms/s': spread(results[i], 'taskMsPerS'),
  'page fps': spread(results[i], 'fps'),
  'animation fps': spread(results[i], 'animationFps'),
  drawn: results[i][0].drawn,
}));
console.log(
  `${RUNS} runs of ${SECONDS} s per case, median (min-max), CPU slowdown ${CPU_SLOWDOWN}x`,
);
console.table(rows);
const med = (engine, n, key) => {
  const i = cases.findIndex((c) => c.engine === engine && c.n === n);
  return i === -1 ? undefined : median(results[i].map((r) => r[key]));
};
const ours = 'wasm-core animation (worker)';
const verdict = (ok) => (ok ? 'met' : 'NOT met');
if (med(ours, 100, 'scriptMsPerS') !== undefined) {
  const [script, tasks] = [med(ours, 100, 'scriptMsPerS'), med(ours, 100, 'taskMsPerS')];
  console.log(
    `N = 100: main thread script ${script} ms/s (bar 2), tasks ${tasks} ms/s (bar 20) -> ${verdict(script <= 2 && tasks <= 20)}`,
  );
}
if (med(ours, 2000, 'taskMsPerS') !== undefined) {
  const [tasks, fps] = [med(ours, 2000, 'taskMsPerS'), med(ours, 2000, 'animationFps')];
  console.log(
    `N = 2,000: main thread tasks ${tasks} ms/s (bar 20), worker ${fps} fps (bar 55) -> ${verdict(tasks <= 20 && fps >= 55)}`,
  );
}
