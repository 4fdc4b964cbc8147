import { join } from 'node:path';
import { outputDir } from './support/browser.mjs';
import { afterFrames, untilFrame } from './support/frames.mjs';
import { expect, sharedServer, test } from './support/test.mjs';

const shared = sharedServer();

const CANVAS = 'canvas[aria-hidden="true"]';
const HOSTS = ['worker', 'main'];

/**
 * Opens a page with the test's `openPage` on `host`: the worker host where the browser has
 * OffscreenCanvas, the main-thread host when an init script removes `transferControlToOffscreen`.
 * Records when a worker was made and from which URL, and lets the test play a hidden tab
 * (headless Chromium never hides one).
 */
async function openOn(openPage, host, options = {}) {
  const opened = await openPage(options);
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

test.describe('particle background', () => {
  test('runs in a worker behind the content at a capped resolution, ignores the pointer and animates', async ({
    openPage,
  }) => {
    const { page } = await openOn(openPage, 'worker', { deviceScaleFactor: 2 });
    const response = await page.goto(shared.server.url);
    await expect(page.locator(running('worker'))).toBeVisible();

    const canvas = page.locator(CANVAS);
    await expect(canvas).toHaveCSS('position', 'fixed');
    await expect(canvas).toHaveCSS('z-index', '-10');
    await expect(canvas).toHaveCSS('pointer-events', 'none');

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
    expect(timing.workers).toHaveLength(1);
    expect(
      timing.workers[0].url.startsWith(`${shared.server.url}/assets/`),
      timing.workers[0].url,
    ).toBeTruthy();
    expect(
      timing.workers[0].at,
      `worker made at ${timing.workers[0].at} ms, load ended at ${timing.loaded} ms`,
    ).toBeGreaterThanOrEqual(timing.loaded);
    expect(timing.wasmOnMainThread).toBe(0);
    expect(response.headers()['content-security-policy']).toMatch(/worker-src 'self';/);
    expect(timing.violations, 'no CSP violation with the worker running').toEqual([]);

    // Whatever is under the pointer is content, never the canvas, and the form still takes clicks.
    const hits = await page.evaluate(() =>
      [
        [5, 5],
        [640, 400],
        [1270, 790],
      ].map(([x, y]) => document.elementFromPoint(x, y)?.tagName),
    );
    expect(hits, `hit ${hits}`).not.toContain('CANVAS');
    const email = page.getByPlaceholder('Enter your email address');
    await email.click();
    await expect(email).toBeFocused();

    const first = await canvasPixels(page);
    const shot = await page.screenshot();
    // At devicePixelRatio 2 the backing store stays at one pixel per CSS px (start-particles.ts),
    // scaled up by the browser to the whole viewport.
    expect([first.width, first.height], 'drawn at 1 px per CSS px').toEqual([1280, 800]);
    expect(
      await canvas.evaluate((el) => [el.clientWidth, el.clientHeight]),
      'shown over the whole viewport',
    ).toEqual([1280, 800]);
    expect(first.painted, 'the canvas is drawn').toBeGreaterThan(0);
    await moved(page, first);
    expect(shot.equals(await page.screenshot()), 'two screenshots differ').toBe(false);
    await page.screenshot({ path: join(outputDir, 'particles-desktop.png') });
  });

  test('without OffscreenCanvas the same renderer animates on the main thread', async ({
    openPage,
  }) => {
    const { page } = await openOn(openPage, 'main');
    await page.goto(shared.server.url);
    await expect(page.locator(running('main'))).toBeVisible();
    const first = await canvasPixels(page);
    const shot = await page.screenshot();
    expect(first.painted, 'the canvas is drawn').toBeGreaterThan(0);
    await moved(page, first);
    expect(shot.equals(await page.screenshot()), 'two screenshots differ').toBe(false);
    expect(await page.evaluate(() => window.workers), 'no worker').toEqual([]);
  });

  test('a crowded field is drawn into pixels by wasm-core, a sparse one as paths', async ({
    openPage,
  }) => {
    const { page } = await openOn(openPage, 'worker');
    await page.goto(shared.server.url);
    await expect(
      page.locator(`${CANVAS}[data-drawn="paths"][data-particles-host="worker"]`),
    ).toBeVisible();

    // The page's 100 particles squeezed onto a 120 px square: thousands of links a frame.
    await page.setViewportSize({ width: 120, height: 120 });
    await expect(page.locator(`${CANVAS}[data-drawn="pixels"]`)).toBeVisible();
    // A frame of the new size reaches the placeholder after the report.
    const first = await untilFrame(
      page,
      () => canvasPixels(page),
      (pixels) => pixels.width === 120 && pixels.painted > 0,
    );
    expect(first.painted, `the links cover the canvas: ${first.painted} pixels`).toBeGreaterThan(
      120 * 120 * 0.5,
    );
    await moved(page, first);
    // The canvas keeps colours premultiplied by opacity, so reading them back may be off by a little.
    const blue = [0x0d, 0x6e, 0xa8];
    expect(
      first.colour.every((value, i) => Math.abs(value - blue[i]) <= 2),
      `drawn in the brand blue: ${first.colour}`,
    ).toBeTruthy();

    await page.setViewportSize({ width: 1280, height: 800 });
    await expect(page.locator(`${CANVAS}[data-drawn="paths"]`)).toBeVisible();
  });

  for (const host of HOSTS) {
    test(`draws one still frame when reduced motion is requested (${host} host)`, async ({
      openPage,
    }) => {
      const { page } = await openOn(openPage, host, { reducedMotion: 'reduce' });
      await page.goto(shared.server.url);
      await expect(
        page.locator(`${CANVAS}[data-particles="still"][data-particles-host="${host}"]`),
      ).toBeVisible();
      const first = await canvasPixels(page);
      await afterFrames(page, STILL_FRAMES);
      const second = await canvasPixels(page);
      expect(first.painted, 'the still frame is drawn').toBeGreaterThan(0);
      expect(second, 'nothing moves').toEqual(first);

      // Turning reduced motion off starts the animation.
      await page.emulateMedia({ reducedMotion: 'no-preference' });
      await expect(page.locator(running(host))).toBeVisible();
    });

    test(`pauses while the tab is hidden (${host} host)`, async ({ openPage }) => {
      const { page } = await openOn(openPage, host);
      await page.goto(shared.server.url);
      await expect(page.locator(running(host))).toBeVisible();
      await setHidden(page, true);
      await expect(page.locator(`${CANVAS}[data-particles="paused"]`)).toBeVisible();
      const first = await canvasPixels(page);
      await afterFrames(page, STILL_FRAMES);
      expect(await canvasPixels(page), 'nothing moves while hidden').toEqual(first);

      await setHidden(page, false);
      await expect(page.locator(running(host))).toBeVisible();
      await moved(page, first);
    });
  }

  test('is behind the 404 page too', async ({ openPage }) => {
    const { page } = await openOn(openPage, 'worker', {
      expectErrors: [/status of 404 .*\/no-such-page:/],
    });
    await page.goto(`${shared.server.url}/no-such-page`);
    await expect(page.locator(running('worker'))).toBeVisible();
  });
});
