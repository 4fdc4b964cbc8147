import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { launchBrowser, openPage, outputDir } from './support/browser.mjs';
import { startServer } from './support/server.mjs';

let browser;
let server;
before(async () => {
  browser = await launchBrowser();
  server = await startServer();
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

const CANVAS = 'canvas[aria-hidden="true"]';

/** A fingerprint of the canvas pixels and how many are painted. */
function canvasPixels(page) {
  return page.$eval(CANVAS, (canvas) => {
    const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
    let hash = 0;
    let painted = 0;
    for (let i = 3; i < data.length; i += 4) {
      if (data[i] !== 0) painted++;
      hash = (hash * 31 + data[i] + i) | 0;
    }
    return { hash, painted };
  });
}

describe('particle background', () => {
  test('sits behind the content at devicePixelRatio, ignores the pointer and animates', async () => {
    const { page, context, errors } = await openPage(browser, { deviceScaleFactor: 2 });
    await page.goto(server.url);
    await page.locator(`${CANVAS}[data-particles="running"]`).waitFor();

    const box = await page.$eval(CANVAS, (canvas) => {
      const style = getComputedStyle(canvas);
      return { position: style.position, zIndex: Number(style.zIndex), pointerEvents: style.pointerEvents, width: canvas.width, height: canvas.height };
    });
    assert.deepEqual(box, { position: 'fixed', zIndex: -10, pointerEvents: 'none', width: 2560, height: 1600 });

    // Whatever is under the pointer is content, never the canvas, and the form still takes clicks.
    const hits = await page.evaluate(() =>
      [[5, 5], [640, 400], [1270, 790]].map(([x, y]) => document.elementFromPoint(x, y)?.tagName),
    );
    assert.ok(!hits.includes('CANVAS'), `hit ${hits}`);
    await page.getByPlaceholder('Enter your email address').click();
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('placeholder')), 'Enter your email address');

    // The wasm module was fetched only after the page had loaded.
    const timing = await page.evaluate(() => {
      const [navigation] = performance.getEntriesByType('navigation');
      const wasm = performance.getEntriesByType('resource').find((r) => r.name.endsWith('.wasm'));
      return { loaded: navigation.loadEventEnd, wasm: wasm?.startTime };
    });
    assert.ok(timing.wasm >= timing.loaded, `wasm requested at ${timing.wasm} ms, load ended at ${timing.loaded} ms`);

    const first = await canvasPixels(page);
    await page.waitForTimeout(400);
    const second = await canvasPixels(page);
    assert.ok(first.painted > 0, 'the canvas is drawn');
    assert.notEqual(first.hash, second.hash, 'the particles move');
    await page.screenshot({ path: join(outputDir, 'particles-desktop.png') });
    assert.deepEqual(errors, []);
    await context.close();
  });

  test('a crowded field is drawn into pixels by wasm-core, a sparse one as paths', async () => {
    const { page, context, errors } = await openPage(browser);
    await page.goto(server.url);
    await page.locator(`${CANVAS}[data-drawn="paths"]`).waitFor();

    // The page's 100 particles squeezed onto a 120 px square: thousands of links a frame.
    await page.setViewportSize({ width: 120, height: 120 });
    await page.locator(`${CANVAS}[data-drawn="pixels"]`).waitFor();
    const first = await canvasPixels(page);
    await page.waitForTimeout(400);
    const second = await canvasPixels(page);
    assert.ok(first.painted > 120 * 120 * 0.5, `the links cover the canvas: ${first.painted} pixels`);
    assert.notEqual(first.hash, second.hash, 'the particles move');
    const colour = await page.$eval(CANVAS, (canvas) => {
      const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
      const at = data.findIndex((value, i) => i % 4 === 3 && value > 100) - 3;
      return [data[at], data[at + 1], data[at + 2]];
    });
    // The canvas keeps colours premultiplied by opacity, so reading them back may be off by a little.
    const blue = [0x0d, 0x6e, 0xa8];
    assert.ok(colour.every((value, i) => Math.abs(value - blue[i]) <= 2), `drawn in the brand blue: ${colour}`);

    await page.setViewportSize({ width: 1280, height: 800 });
    await page.locator(`${CANVAS}[data-drawn="paths"]`).waitFor();
    assert.deepEqual(errors, []);
    await context.close();
  });

  test('draws one still frame when reduced motion is requested', async () => {
    const { page, context, errors } = await openPage(browser, { reducedMotion: 'reduce' });
    await page.goto(server.url);
    await page.locator(`${CANVAS}[data-particles="still"]`).waitFor();
    const first = await canvasPixels(page);
    await page.waitForTimeout(600);
    const second = await canvasPixels(page);
    assert.ok(first.painted > 0, 'the still frame is drawn');
    assert.deepEqual(second, first, 'nothing moves');

    // Turning reduced motion off starts the animation.
    await page.emulateMedia({ reducedMotion: 'no-preference' });
    await page.locator(`${CANVAS}[data-particles="running"]`).waitFor();
    assert.deepEqual(errors, []);
    await context.close();
  });

  test('is behind the 404 page too', async () => {
    const { page, context } = await openPage(browser, { expectErrors: [/status of 404 .*\/no-such-page:/] });
    await page.goto(`${server.url}/no-such-page`);
    await page.locator(`${CANVAS}[data-particles="running"]`).waitFor();
    await context.close();
  });
});
