import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { openPage, outputDir } from './support/browser.mjs';
import { afterFrames, untilFrame } from './support/frames.mjs';
import { sharedSite } from './support/site.mjs';

const site = sharedSite();

const CANVAS = 'canvas[aria-hidden="true"]';
const HOSTS = ['worker', 'main'];

/**
 * Opens a page on `host`: the worker host where the browser has OffscreenCanvas, the main-thread
 * host when an init script removes `transferControlToOffscreen`. Records when a worker was made
 * and from which URL, and lets the test play a hidden tab (headless Chromium never hides one).
 */
async function openOn(host, options = {}) {
  const opened = await openPage(site.browser, options);
  await opened.page.addInitScript((removeOffscreen) => {
    if (removeOffscreen) delete HTMLCanvasElement.prototype.transferControlToOffscreen;
    window.workers = [];
    const NativeWorker = window.Worker;
    window.Worker = class extends NativeWorker {
      constructor(url, options) {
        window.workers.push({ url: String(url), at: performance.now() });
        super(url, options);
      }
    };
    window.playHidden = false;
    Object.defineProperty(Document.prototype, 'hidden', { get: () => window.playHidden });
    window.cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) =>
      window.cspViolations.push(`${e.violatedDirective} ${e.blockedURI}`),
    );
  }, host === 'main');
  return opened;
}

function setHidden(page, hidden) {
  return page.evaluate((value) => {
    window.playHidden = value;
    document.dispatchEvent(new Event('visibilitychange'));
  }, hidden);
}

/**
 * A fingerprint of what the canvas shows and how many pixels are painted, read through an
 * ImageBitmap, which works for the worker's placeholder canvas as well as the page's own.
 */
function canvasPixels(page) {
  return page.$eval(CANVAS, async (canvas) => {
    const bitmap = await createImageBitmap(canvas);
    const copy = new OffscreenCanvas(bitmap.width, bitmap.height).getContext('2d');
    copy.drawImage(bitmap, 0, 0);
    const data = copy.getImageData(0, 0, bitmap.width, bitmap.height).data;
    let hash = 0;
    let painted = 0;
    let colour;
    for (let i = 3; i < data.length; i += 4) {
      if (data[i] !== 0) painted++;
      if (!colour && data[i] > 100) colour = [data[i - 3], data[i - 2], data[i - 1]];
      hash = (hash * 31 + data[i] + i) | 0;
    }
    return { hash, painted, width: bitmap.width, height: bitmap.height, colour };
  });
}

/** Resolves with the canvas once it shows something other than `before`. */
const moved = (page, before) =>
  untilFrame(
    page,
    () => canvasPixels(page),
    (now) => now.hash !== before.hash,
  );

/** Frames the page draws before a check that nothing moved: half a second at 60 Hz. */
const STILL_FRAMES = 30;

const running = (host) => `${CANVAS}[data-particles="running"][data-particles-host="${host}"]`;

describe('particle background', () => {
  test('runs in a worker behind the content at a capped resolution, ignores the pointer and animates', async () => {
    const { page, context, errors } = await openOn('worker', { deviceScaleFactor: 2 });
    const response = await page.goto(site.server.url);
    await page.locator(running('worker')).waitFor();

    const box = await page.$eval(CANVAS, (canvas) => {
      const style = getComputedStyle(canvas);
      return {
        position: style.position,
        zIndex: Number(style.zIndex),
        pointerEvents: style.pointerEvents,
      };
    });
    assert.deepEqual(box, { position: 'fixed', zIndex: -10, pointerEvents: 'none' });

    // One worker, from our own origin (no blob:), made after the page had loaded; the main thread
    // never fetched the wasm module itself (the quote form would, once focused).
    const timing = await page.evaluate(() => {
      const [navigation] = performance.getEntriesByType('navigation');
      const wasm = performance.getEntriesByType('resource').filter((r) => r.name.endsWith('.wasm'));
      return {
        loaded: navigation.loadEventEnd,
        workers: window.workers,
        wasmOnMainThread: wasm.length,
        violations: window.cspViolations,
      };
    });
    assert.equal(timing.workers.length, 1);
    assert.ok(
      timing.workers[0].url.startsWith(`${site.server.url}/assets/`),
      timing.workers[0].url,
    );
    assert.ok(
      timing.workers[0].at >= timing.loaded,
      `worker made at ${timing.workers[0].at} ms, load ended at ${timing.loaded} ms`,
    );
    assert.equal(timing.wasmOnMainThread, 0);
    assert.match(response.headers()['content-security-policy'], /worker-src 'self';/);
    assert.deepEqual(timing.violations, [], 'no CSP violation with the worker running');

    // Whatever is under the pointer is content, never the canvas, and the form still takes clicks.
    const hits = await page.evaluate(() =>
      [
        [5, 5],
        [640, 400],
        [1270, 790],
      ].map(([x, y]) => document.elementFromPoint(x, y)?.tagName),
    );
    assert.ok(!hits.includes('CANVAS'), `hit ${hits}`);
    await page.getByPlaceholder('Enter your email address').click();
    assert.equal(
      await page.evaluate(() => document.activeElement?.getAttribute('placeholder')),
      'Enter your email address',
    );

    const first = await canvasPixels(page);
    const shot = await page.screenshot();
    // At devicePixelRatio 2 the backing store stays at one pixel per CSS px (start-particles.ts),
    // scaled up by the browser to the whole viewport.
    assert.deepEqual([first.width, first.height], [1280, 800], 'drawn at 1 px per CSS px');
    assert.deepEqual(
      await page.$eval(CANVAS, (canvas) => [canvas.clientWidth, canvas.clientHeight]),
      [1280, 800],
      'shown over the whole viewport',
    );
    assert.ok(first.painted > 0, 'the canvas is drawn');
    await moved(page, first);
    assert.ok(!shot.equals(await page.screenshot()), 'two screenshots differ');
    await page.screenshot({ path: join(outputDir, 'particles-desktop.png') });
    assert.deepEqual(errors, []);
    await context.close();
  });

  test('without OffscreenCanvas the same renderer animates on the main thread', async () => {
    const { page, context, errors } = await openOn('main');
    await page.goto(site.server.url);
    await page.locator(running('main')).waitFor();
    const first = await canvasPixels(page);
    const shot = await page.screenshot();
    assert.ok(first.painted > 0, 'the canvas is drawn');
    await moved(page, first);
    assert.ok(!shot.equals(await page.screenshot()), 'two screenshots differ');
    assert.deepEqual(await page.evaluate(() => window.workers), [], 'no worker');
    assert.deepEqual(errors, []);
    await context.close();
  });

  test('a crowded field is drawn into pixels by wasm-core, a sparse one as paths', async () => {
    const { page, context, errors } = await openOn('worker');
    await page.goto(site.server.url);
    await page.locator(`${CANVAS}[data-drawn="paths"][data-particles-host="worker"]`).waitFor();

    // The page's 100 particles squeezed onto a 120 px square: thousands of links a frame.
    await page.setViewportSize({ width: 120, height: 120 });
    await page.locator(`${CANVAS}[data-drawn="pixels"]`).waitFor();
    // A frame of the new size reaches the placeholder after the report.
    const first = await untilFrame(
      page,
      () => canvasPixels(page),
      (pixels) => pixels.width === 120 && pixels.painted > 0,
    );
    assert.ok(
      first.painted > 120 * 120 * 0.5,
      `the links cover the canvas: ${first.painted} pixels`,
    );
    await moved(page, first);
    // The canvas keeps colours premultiplied by opacity, so reading them back may be off by a little.
    const blue = [0x0d, 0x6e, 0xa8];
    assert.ok(
      first.colour.every((value, i) => Math.abs(value - blue[i]) <= 2),
      `drawn in the brand blue: ${first.colour}`,
    );

    await page.setViewportSize({ width: 1280, height: 800 });
    await page.locator(`${CANVAS}[data-drawn="paths"]`).waitFor();
    assert.deepEqual(errors, []);
    await context.close();
  });

  for (const host of HOSTS) {
    test(`draws one still frame when reduced motion is requested (${host} host)`, async () => {
      const { page, context, errors } = await openOn(host, { reducedMotion: 'reduce' });
      await page.goto(site.server.url);
      await page
        .locator(`${CANVAS}[data-particles="still"][data-particles-host="${host}"]`)
        .waitFor();
      const first = await canvasPixels(page);
      await afterFrames(page, STILL_FRAMES);
      const second = await canvasPixels(page);
      assert.ok(first.painted > 0, 'the still frame is drawn');
      assert.deepEqual(second, first, 'nothing moves');

      // Turning reduced motion off starts the animation.
      await page.emulateMedia({ reducedMotion: 'no-preference' });
      await page.locator(running(host)).waitFor();
      assert.deepEqual(errors, []);
      await context.close();
    });

    test(`pauses while the tab is hidden (${host} host)`, async () => {
      const { page, context, errors } = await openOn(host);
      await page.goto(site.server.url);
      await page.locator(running(host)).waitFor();
      await setHidden(page, true);
      await page.locator(`${CANVAS}[data-particles="paused"]`).waitFor();
      const first = await canvasPixels(page);
      await afterFrames(page, STILL_FRAMES);
      assert.deepEqual(await canvasPixels(page), first, 'nothing moves while hidden');

      await setHidden(page, false);
      await page.locator(running(host)).waitFor();
      await moved(page, first);
      assert.deepEqual(errors, []);
      await context.close();
    });
  }

  test('is behind the 404 page too', async () => {
    const { page, context } = await openOn('worker', {
      expectErrors: [/status of 404 .*\/no-such-page:/],
    });
    await page.goto(`${site.server.url}/no-such-page`);
    await page.locator(running('worker')).waitFor();
    await context.close();
  });
});
