// How long each interaction on the landing page takes on a slow phone, in each language (`/` and
// `/es/`) and at each device pixel ratio a phone draws at (1, 2 and 3): the Event Timing
// durations INP is made of (PerformanceObserver 'event' entries that carry an interactionId,
// durationThreshold 16), in Chromium at 390x844 with touch and CDP CPU throttling (4x unless --cpu
// says otherwise), with the particle background running, against the release backend serving the
// build (run scripts/build.sh first). After each page, at the same ratio, a plain `<select>` on an
// empty page is tapped the same way: this machine's floor at that moment, which a busy machine
// raises as it raises every figure. Each run is a fresh page of each language at each ratio in
// turn; the median of the runs is printed per page and ratio with the spread (min-max) and its
// multiple of the floor's median. The steps find their buttons and fields by the content's words
// for the page's language (content/ or CONTENT_DIR, as the build read them).
//
// Usage: node scripts/interaction-latency.mjs [--runs 5] [--dpr 1,2,3] [--cpu 4] [--ratio 1.6]
//   [--budget MS] [--page /es/] [--trace DIR]
// --page: only that page, `/` or `/es/`. Exits 1 when a step's median is over --ratio times the
// floor's median at the same device pixel ratio, or over --budget ms when one is given. The budget
// is the floor's multiple because milliseconds are the machine's: the same build's floor ranges
// from 72 to over 150 ms on one machine from one day to the next. --trace DIR: before the counted runs, one more of each page at
// each ratio records a Chrome trace of every step (DIR/<page>-<ratio>x-<step>.json, for
// chrome://tracing or the DevTools' performance panel) and prints how long each thread (the main
// thread, the particle worker, the compositors, raster) was busy during the step's slowest
// interaction, and with what.
import { loadavg } from 'node:os';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { parse } from 'yaml';
import { launchBrowser, openPage } from '../e2e/support/browser.mjs';
import { gotoHydrated } from '../e2e/support/landing.mjs';
import { repoRoot, startServer } from '../e2e/support/server.mjs';
import { acceptConsent } from '../e2e/support/voice-consent.mjs';

const given = (name) => {
  const at = process.argv.indexOf(name);
  return at === -1 ? undefined : process.argv[at + 1];
};
const option = (name, fallback) => {
  const value = Number(given(name) ?? fallback);
  if (!(value > 0)) throw new Error(`${name} ${given(name)}: expected a positive number`);
  return value;
};
const RUNS = option('--runs', 5);
const CPU = option('--cpu', 4);
const BUDGET_MS = given('--budget') === undefined ? Infinity : option('--budget');
const RATIO_BUDGET = option('--ratio', 1.6);
const RATIOS = (given('--dpr') ?? '1,2,3').split(',').map((ratio) => {
  const value = Number(ratio);
  if (!(value > 0)) throw new Error(`--dpr ${given('--dpr')}: expected ratios such as 1,2,3`);
  return value;
});
const TRACE_DIR = given('--trace');
/** Each page measured, with the language of its content. */
const LANGUAGES = { '/': 'en', '/es/': 'es' };
const PAGES = given('--page') ? [given('--page')] : Object.keys(LANGUAGES);
for (const path of PAGES)
  if (!LANGUAGES[path])
    throw new Error(`--page ${path}: expected one of ${Object.keys(LANGUAGES)}`);
/** The Event Timing API reports nothing shorter; an interaction without an entry took less. */
const THRESHOLD_MS = 16;
const VIEWPORT = { width: 390, height: 844 };
const FLOOR = 'plain <select> (floor)';
/** A phone at `ratio`: the page is laid out at 390x844 CSS px and drawn at `ratio` times that. */
const phone = (ratio) => ({
  viewport: VIEWPORT,
  deviceScaleFactor: ratio,
  hasTouch: true,
  isMobile: true,
});

// The voice button needs a configured assistant; the provider's SDK is the tests' fake, served
// in place of its chunk (as in e2e/voice-button.test.mjs), so no call leaves the machine.
const VOICE_ENV = { VAPI_PUBLIC_KEY: 'pk-latency', VAPI_ASSISTANT_ID: 'asst-latency' };
const SDK_CHUNK = /\/assets\/vapi-[\w-]+\.js$/;
const FAKE_SDK = readFileSync(
  new URL('../src/features/voice/testing/fake-vapi.mjs', import.meta.url),
  'utf8',
);

/** The words a visitor finds each step's control by, in the page's language. */
function wordsOf(language) {
  const dir = process.env.CONTENT_DIR || 'content';
  const content = isAbsolute(dir) ? dir : resolve(repoRoot, dir);
  const file = language === 'en' ? 'site.yaml' : join(language, 'site.yaml');
  const { header, testimonials, quote, voiceTooltip } = parse(
    readFileSync(join(content, file), 'utf8'),
  );
  return {
    language,
    openMenu: header.openMenu,
    closeMenu: header.closeMenu,
    secondDot: `${testimonials.dotLabel} 2`,
    product: quote.productLabel,
    email: quote.emailPlaceholder,
    submit: quote.submit,
    submitted: quote.success.title,
    voiceIdle: voiceTooltip.idle,
    voiceConnecting: voiceTooltip.connecting,
  };
}

function observeInteractions() {
  window.__interactions = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (!entry.interactionId) continue;
      const {
        interactionId: id,
        name,
        duration,
        startTime,
        processingStart,
        processingEnd,
      } = entry;
      window.__interactions.push({ id, name, duration, startTime, processingStart, processingEnd });
    }
  }).observe({ type: 'event', durationThreshold: 16, buffered: true });
}

/** Until the frames after the interaction are presented and the observer has had its turn. */
const settle = (page) =>
  page.evaluate(
    () =>
      new Promise((resolve) =>
        requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 100))),
      ),
  );

const tap = (locator) => locator.tap();

/**
 * The interactions in page order: each acts as a visitor does, finding its control by the
 * page's words (`wordsOf`), and waits for its visible effect.
 */
const STEPS = [
  {
    name: 'open the menu',
    act: async (page, words) => {
      await tap(page.getByRole('button', { name: words.openMenu }));
      await page.getByRole('dialog').waitFor();
    },
  },
  {
    name: 'close the menu',
    act: async (page, words) => {
      await tap(page.getByRole('dialog').getByRole('button', { name: words.closeMenu }));
      await page.getByRole('dialog').waitFor({ state: 'detached' });
    },
  },
  {
    name: 'the pager',
    prepare: (page, words) =>
      page.getByRole('button', { name: words.secondDot }).scrollIntoViewIfNeeded(),
    act: async (page, words) => {
      const dot = page.getByRole('button', { name: words.secondDot });
      await tap(dot);
      await page.waitForFunction(
        (label) =>
          [...document.querySelectorAll('[aria-label]')]
            .find((element) => element.getAttribute('aria-label') === label)
            ?.getAttribute('aria-pressed') === 'true',
        words.secondDot,
      );
    },
  },
  {
    name: 'tap the product field',
    prepare: (page, words) =>
      page.getByRole('combobox', { name: words.product }).scrollIntoViewIfNeeded(),
    act: async (page, words) => {
      await tap(page.getByRole('combobox', { name: words.product }));
      await page.waitForFunction(() => document.activeElement?.id === 'quote');
    },
    // The platform's picker is open; it closes as a visitor dismisses it.
    after: (page) => page.keyboard.press('Escape'),
  },
  {
    name: 'pick an option',
    act: async (page) => {
      await page.keyboard.press('ArrowDown');
      await page.waitForFunction(() => document.getElementById('quote')?.value === 'medicare');
    },
  },
  {
    name: 'type (worst key)',
    prepare: (page, words) => tap(page.getByPlaceholder(words.email)),
    act: async (page) => {
      for (const key of 'ana@example.com') await page.keyboard.type(key);
      await page.waitForFunction(
        () => document.querySelector('input[name="email"]')?.value === 'ana@example.com',
      );
    },
  },
  {
    name: 'submit',
    act: async (page, words) => {
      await tap(page.getByRole('button', { name: words.submit }));
      await page.getByRole('status').filter({ hasText: words.submitted }).waitFor();
    },
  },
  {
    name: 'the voice button',
    act: async (page, words) => {
      await tap(page.getByRole('button', { name: words.voiceIdle, exact: true }));
      await page.getByRole('button', { name: words.voiceConnecting, exact: true }).waitFor();
    },
  },
];

/** The slowest interaction among a step's Event Timing entries, with its three parts. */
function slowestOf(entries) {
  // An interaction lasts as long as its longest event; the step counts its slowest interaction.
  const interactions = new Map();
  for (const entry of entries)
    interactions.set(entry.id, [...(interactions.get(entry.id) ?? []), entry]);
  let slowest = { duration: 0 };
  for (const events of interactions.values()) {
    const duration = Math.max(...events.map((e) => e.duration));
    if (duration <= slowest.duration) continue;
    const start = Math.min(...events.map((e) => e.startTime));
    const processingStart = Math.min(...events.map((e) => e.processingStart));
    const processingEnd = Math.max(...events.map((e) => e.processingEnd));
    // INP's three parts: waiting for the main thread, the handlers, the frame after them.
    slowest = {
      duration,
      parts: [
        processingStart - start,
        processingEnd - processingStart,
        start + duration - processingEnd,
      ],
    };
  }
  return slowest;
}

/**
 * The floor on this machine at this moment: tapping a plain `<select>` on an otherwise empty page
 * under the same throttling and at the same device pixel ratio.
 */
async function floor(browser, ratio) {
  const { page, context } = await openPage(browser, phone(ratio));
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU });
  await page.setContent(
    '<!doctype html><meta name="viewport" content="width=device-width"><select><option>Select Product</option><option>Medicare</option></select>',
  );
  await page.evaluate(observeInteractions);
  await settle(page);
  const seen = await page.evaluate(() => window.__interactions.length);
  await page.locator('select').tap();
  await settle(page);
  const entries = await page.evaluate((from) => window.__interactions.slice(from), seen);
  await context.close();
  return Math.max(0, ...entries.map((entry) => entry.duration));
}

/**
 * One fresh page at `ratio` through every step. `traceTo(step)`, when given, names the file each
 * step's Chrome trace is written to.
 */
async function run(browser, url, words, ratio, traceTo) {
  const { page, context, errors } = await openPage(browser, phone(ratio));
  await context.route(SDK_CHUNK, (route) =>
    route.fulfill({ contentType: 'text/javascript', body: FAKE_SDK }),
  );
  // The voice button's tap starts the call, as for a visitor who accepted its notice before.
  await acceptConsent(context, words.language);
  await page.addInitScript(observeInteractions);
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU });
  await gotoHydrated(page, url);
  await page.getByRole('button', { name: words.voiceIdle, exact: true }).waitFor();
  // Every figure is taken with the background animating, as a visitor sees the page.
  await page.locator('canvas[data-particles="running"]').waitFor();
  await settle(page);
  const durations = {};
  const parts = {};
  const traces = {};
  for (const step of STEPS) {
    if (step.prepare) await step.prepare(page, words);
    await settle(page);
    const [seen, count] = await page.evaluate(() => [
      window.__interactions.length,
      performance.interactionCount,
    ]);
    if (traceTo) await browser.startTracing(page, { categories: TRACE_CATEGORIES });
    await step.act(page, words);
    await settle(page);
    const trace = traceTo ? await browser.stopTracing() : undefined;
    const [entries, after] = await page.evaluate(
      (from) => [window.__interactions.slice(from), performance.interactionCount],
      seen,
    );
    if (after === count) throw new Error(`'${step.name}' made no interaction`);
    const slowest = slowestOf(entries);
    durations[step.name] = slowest.duration;
    parts[step.name] = slowest.parts;
    if (trace) {
      writeFileSync(traceTo(step), trace);
      traces[step.name] = { trace: JSON.parse(trace) };
    }
    if (step.after) {
      await step.after(page);
      await settle(page);
    }
  }
  await context.close();
  if (errors.length) throw new Error(`errors on ${url}:\n${errors.join('\n')}`);
  return { durations, parts, traces };
}

/** What the frame after a tap is made of: every thread's tasks, the compositors' frames, raster. */
const TRACE_CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'disabled-by-default-devtools.timeline.frame',
  'toplevel',
  'blink',
  'cc',
  'viz',
  'gpu',
  'benchmark',
  'latencyInfo',
];

/** Events that only wrap others: naming them says nothing about where the time went. */
const WRAPPERS =
  /^(RunTask|ThreadControllerImpl::RunTask|ThreadPool_RunTask|TaskGraphRunner::RunTask|Graphics\.Pipeline|LatencyInfo\.Flow|EpollEvent|SimpleWatcher::OnHandleReady|Receive mojo .*)$/;

/**
 * The traced step's slowest interaction as the threads spent it: per thread, how long it was
 * busy inside the interaction's window (its outermost events), and the heaviest kinds of event
 * (the wrappers left out; nested kinds each count their own time, so they overlap).
 */
function traceSummary({ trace }) {
  const events = trace.traceEvents ?? trace;
  const threads = new Map();
  for (const event of events)
    if (event.ph === 'M' && event.name === 'thread_name')
      threads.set(`${event.pid}:${event.tid}`, event.args.name);
  // The interaction as the trace has it: the longest EventTiming with an interaction id.
  const windows = events
    .filter((e) => e.name === 'EventTiming' && e.ph === 'b' && e.args?.data?.interactionId)
    .map((e) => ({ start: e.ts, end: e.ts + e.args.data.duration * 1000 }))
    .sort((a, b) => b.end - b.start - (a.end - a.start));
  if (!windows.length) return '  (no interaction in the trace)';
  const [{ start, end }] = windows;
  const byThread = new Map();
  for (const event of events) {
    if (event.ph !== 'X' || !event.dur) continue;
    const key = `${event.pid}:${event.tid}`;
    if (!byThread.has(key)) byThread.set(key, []);
    byThread.get(key).push(event);
  }
  const rows = [];
  for (const [key, list] of byThread) {
    list.sort((a, b) => a.ts - b.ts || b.dur - a.dur);
    let busy = 0;
    let outerEnd = -Infinity;
    const kinds = new Map();
    for (const event of list) {
      const from = Math.max(event.ts, start);
      const to = Math.min(event.ts + event.dur, end);
      if (to <= from) continue;
      if (event.ts >= outerEnd) {
        busy += to - from;
        outerEnd = event.ts + event.dur;
      }
      if (!WRAPPERS.test(event.name))
        kinds.set(event.name, (kinds.get(event.name) ?? 0) + (to - from));
    }
    if (busy < 1000) continue;
    const heaviest = [...kinds]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 4)
      .map(([name, us]) => `${name.slice(0, 60)} ${(us / 1000).toFixed(0)}`);
    rows.push([
      busy,
      `  ${threads.get(key) ?? key} busy ${(busy / 1000).toFixed(0)}: ${heaviest.join(', ')}`,
    ]);
  }
  rows.sort((a, b) => b[0] - a[0]);
  return [`  window ${((end - start) / 1000).toFixed(0)} ms`, ...rows.map(([, line]) => line)].join(
    '\n',
  );
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const show = (ms) => (ms < THRESHOLD_MS ? `<${THRESHOLD_MS}` : `${Math.round(ms)}`);
const fileName = (path) => (path === '/' ? 'en' : path.replaceAll('/', ''));

const server = await startServer({ env: VOICE_ENV });
const browser = await launchBrowser();
const startedAt = new Date();
const loadBefore = loadavg();
const wordsOfPage = Object.fromEntries(PAGES.map((path) => [path, wordsOf(LANGUAGES[path])]));
/** Each page at each ratio: its key in the tables below. */
const cases = RATIOS.flatMap((ratio) =>
  PAGES.map((path) => ({ path, ratio, key: `${path} ${ratio}` })),
);
/** Per case, each run's durations (with the floor taken just after it) and their parts. */
const runs = Object.fromEntries(cases.map(({ key }) => [key, []]));
const partsOfRuns = Object.fromEntries(cases.map(({ key }) => [key, []]));
try {
  if (TRACE_DIR) {
    mkdirSync(TRACE_DIR, { recursive: true });
    for (const { path, ratio } of cases) {
      const { traces } = await run(
        browser,
        new URL(path, server.url).href,
        wordsOfPage[path],
        ratio,
        (step) =>
          join(TRACE_DIR, `${fileName(path)}-${ratio}x-${step.name.replaceAll(/\W+/g, '-')}.json`),
      );
      console.log(`\ntraced (not counted): ${path} at ${ratio}x`);
      for (const step of STEPS) console.log(`${step.name}\n${traceSummary(traces[step.name])}`);
    }
  }
  for (let i = 0; i < RUNS; i++) {
    // The pages and ratios take turns, so a change in the machine's load falls on all alike.
    for (const { path, ratio, key } of cases) {
      const { durations, parts } = await run(
        browser,
        new URL(path, server.url).href,
        wordsOfPage[path],
        ratio,
      );
      runs[key].push({ ...durations, [FLOOR]: await floor(browser, ratio) });
      partsOfRuns[key].push(parts);
      console.error(
        `${path} at ${ratio}x, run ${i + 1}/${RUNS}: ${[...STEPS.map((s) => s.name), FLOOR].map((name) => `${name} ${show(runs[key].at(-1)[name])}`).join(', ')}`,
      );
    }
  }
} finally {
  await browser.close();
  await server.stop();
}

console.log(
  `\nEvent Timing durations (ms) at ${VIEWPORT.width}x${VIEWPORT.height}, touch, CPU ${CPU}x slower, particle background running, ` +
    `${RUNS} runs of ${PAGES.join(' and ')} at device pixel ratios ${RATIOS.join(', ')}, ` +
    `${startedAt.toISOString()}; load average before ${loadBefore.map((l) => l.toFixed(2)).join(' ')}, after ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
);
console.log(
  `"<${THRESHOLD_MS}": no event of the interaction reached the API's ${THRESHOLD_MS} ms threshold; ` +
    `budget: each median at most ${RATIO_BUDGET}x the floor's at its ratio${BUDGET_MS < Infinity ? ` and ${BUDGET_MS} ms` : ''}`,
);
const failures = [];
for (const { path, ratio, key } of cases) {
  const floorMedian = median(runs[key].map((r) => r[FLOOR]));
  console.log(`\n${path} at ${ratio}x (the floor ${show(floorMedian)} ms)`);
  for (const step of [...STEPS, { name: FLOOR }]) {
    const values = runs[key].map((r) => r[step.name]);
    const mid = median(values);
    const multiple = mid / floorMedian;
    const over = [];
    if (step.name !== FLOOR) {
      if (multiple > RATIO_BUDGET) over.push(`OVER ${RATIO_BUDGET}x the floor`);
      if (mid > BUDGET_MS) over.push(`OVER ${BUDGET_MS} ms`);
      failures.push(
        ...over.map((what) => `${path} at ${ratio}x, ${step.name}: ${show(mid)} ms, ${what}`),
      );
    }
    console.log(
      `${step.name.padEnd(24)} median ${show(mid).padStart(4)}  (${show(Math.min(...values))}-${show(Math.max(...values))})  ` +
        `${step.name === FLOOR ? '     ' : `${multiple.toFixed(2)}x`}  runs: ${values.map(show).join(', ')}${over.length ? `  ${over.join(', ')}` : ''}`,
    );
  }
  console.log(
    'the slowest interaction of each step in parts, median ms: input delay / handlers / until the next frame',
  );
  for (const step of STEPS) {
    const split = partsOfRuns[key].map((parts) => parts[step.name]).filter(Boolean);
    if (!split.length) continue;
    const part = (i) => Math.round(median(split.map((p) => p[i])));
    console.log(`${step.name.padEnd(24)} ${part(0)} / ${part(1)} / ${part(2)}`);
  }
}
console.log(
  failures.length ? `\nover budget:\n${failures.join('\n')}` : '\nevery step within budget',
);
process.exit(failures.length ? 1 : 0);
