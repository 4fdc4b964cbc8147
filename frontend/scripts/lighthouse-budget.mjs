// Lighthouse against the built site served by the real backend, with Debian's Chromium
// (CHROMIUM_PATH, default /usr/bin/chromium): mobile preset (Lighthouse's default: Moto G
// emulation, simulated slow 4G and 4x CPU slowdown), five runs, median of each figure (and its
// spread), checked against the budgets below. Needs `scripts/build.sh` first.
// Usage: node scripts/lighthouse-budget.mjs [--runs N] [--url URL] [--save DIR]   (exit 1 when
// over budget; --save keeps each run's report as DIR/run-N.json, to read its audits, and its
// trace as DIR/run-N.trace.json, to open in DevTools' Performance panel)
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import lighthouse from 'lighthouse';
import * as chromeLauncher from 'chrome-launcher';
import { CHROMIUM, CHROMIUM_ARGS } from '../e2e/support/browser.mjs';
import { startServer } from '../e2e/support/server.mjs';

const SCORE_BUDGETS = { performance: 100, accessibility: 100, 'best-practices': 100, seo: 100 };
const LCP_BUDGET_MS = 1200;
const TBT_BUDGET_MS = 50;
const CLS_BUDGET = 0;

const arg = (name, fallback) => {
  const at = process.argv.indexOf(name);
  return at === -1 ? fallback : process.argv[at + 1];
};
const runs = Number(arg('--runs', 5));
const saveDir = arg('--save');
if (saveDir) mkdirSync(saveDir, { recursive: true });
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const server = arg('--url') ? null : await startServer();
const url = arg('--url', server?.url);
const chrome = await chromeLauncher.launch({
  chromePath: CHROMIUM,
  chromeFlags: CHROMIUM_ARGS,
});
const samples = [];
try {
  for (let run = 1; run <= runs; run++) {
    const { lhr, report, artifacts } = await lighthouse(url, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: Object.keys(SCORE_BUDGETS),
    });
    if (saveDir) {
      writeFileSync(join(saveDir, `run-${run}.json`), report);
      writeFileSync(join(saveDir, `run-${run}.trace.json`), JSON.stringify(artifacts.Trace));
    }
    const sample = {
      ...Object.fromEntries(
        Object.keys(SCORE_BUDGETS).map((c) => [c, Math.round(lhr.categories[c].score * 100)]),
      ),
      lcpMs: Math.round(lhr.audits['largest-contentful-paint'].numericValue),
      tbtMs: Math.round(lhr.audits['total-blocking-time'].numericValue),
      cls: +lhr.audits['cumulative-layout-shift'].numericValue.toFixed(3),
    };
    for (const category of Object.keys(SCORE_BUDGETS)) {
      for (const ref of lhr.categories[category].auditRefs) {
        const audit = lhr.audits[ref.id];
        if (
          ref.weight > 0 &&
          audit.score !== null &&
          audit.score < 1 &&
          category !== 'performance'
        ) {
          console.log(`  run ${run}: ${category} loses on "${audit.title}"`);
        }
      }
    }
    console.log(`run ${run}:`, JSON.stringify(sample));
    samples.push(sample);
  }
} finally {
  await chrome.kill();
  await server?.stop();
}

const result = Object.fromEntries(
  Object.keys(samples[0]).map((key) => [key, median(samples.map((s) => s[key]))]),
);
const spread = (key) => {
  const values = samples.map((s) => s[key]);
  return `${Math.min(...values)} to ${Math.max(...values)}`;
};
const keyOf = { 'LCP (ms)': 'lcpMs', 'TBT (ms)': 'tbtMs', CLS: 'cls' };
const checks = [
  ...Object.entries(SCORE_BUDGETS).map(([c, min]) => [c, result[c], `>= ${min}`, result[c] >= min]),
  ['LCP (ms)', result.lcpMs, `<= ${LCP_BUDGET_MS}`, result.lcpMs <= LCP_BUDGET_MS],
  ['TBT (ms)', result.tbtMs, `<= ${TBT_BUDGET_MS}`, result.tbtMs <= TBT_BUDGET_MS],
  ['CLS', result.cls, `<= ${CLS_BUDGET}`, result.cls <= CLS_BUDGET],
];
console.log(`\nLighthouse mobile, median of ${runs} runs against ${url}`);
console.table(
  checks.map(([figure, median, budget, ok]) => ({
    figure,
    median,
    spread: spread(keyOf[figure] ?? figure),
    budget,
    ok,
  })),
);
if (checks.some(([, , , ok]) => !ok)) {
  console.error('over budget');
  process.exit(1);
}
