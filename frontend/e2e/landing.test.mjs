// The landing page in Chromium at phone and desktop sizes, against the real built site and server.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { focusReaches, openPage, outputDir, VIEWPORTS } from './support/browser.mjs';
import { afterFrames } from './support/frames.mjs';
import { animationsDone, gotoHydrated, revealAll } from './support/landing.mjs';
import { sharedSite } from './support/site.mjs';

const site = sharedSite();

/** Every text docs/product.md gives, in page order (header, seven sections, footer). */
const TEXTS_IN_ORDER = [
  'Enjoy the Life at Every stage',
  'is committed to providing individuals, employers, health care professionals, producers and others with innovative benefits, products and services',
  'Get Started',
  'Medicare',
  'Family & Individual',
  'Medicaid',
  'Employer',
  "Company that's building a healthier world",
  '200k+',
  'Satisfied Clients',
  '20+',
  'Years Experience',
  '32+',
  'Industry Awards',
  'MEMBERSHIP BENEFITS',
  'Become a member to check your coverage anytime',
  'Find network providers',
  'See claims and coverage',
  'Easy access to mental health providers',
  'Become a Member',
  'Our Super Client Says',
  'Medicare client',
  'Family plan client',
  'Employer plan client',
  'Get a Free Quote to Create Your Desired Insurance',
  "Provide your basic information and we'll connect you with the right insurance plan for your needs.",
  'Get a Quote',
  'About Us',
  'Features',
  'News & Blog',
  'Careers',
  'Our Team',
  'Partner With Us',
  'Privacy & Policy',
  'Licenses',
  'Account',
  'Support Center',
  'Feedback',
  'Contact Us',
];

function assertInOrder(text, expected) {
  let from = 0;
  for (const item of expected) {
    const at = text.indexOf(item, from);
    assert.ok(at !== -1, `"${item}" missing, or out of order after position ${from}`);
    from = at + item.length;
  }
}

const scrollTo = (page, top) =>
  page.evaluate((y) => window.scrollTo({ top: y, behavior: 'instant' }), top);
const headerSolid = (page) => page.locator('header').first().getAttribute('data-solid');

describe('prerendered HTML', () => {
  test('/ holds the content, title, description, canonical, Open Graph and JSON-LD before any script runs', async () => {
    const response = await fetch(site.server.url);
    assert.equal(response.status, 200);
    const html = await response.text();
    assertInOrder(html, [
      'Enjoy the Life at Every stage',
      'Our Super Client Says',
      'Get a Free Quote to Create Your Desired Insurance',
      'Enter your email address',
      'Contact Us',
    ]);
    assert.match(html, /<title>[^<]+<\/title>/);
    assert.match(html, /<meta name="description" content="[^"]{50,}"/);
    assert.match(html, /<link rel="canonical" href="https:\/\/[^"]+"/);
    for (const property of [
      'og:title',
      'og:description',
      'og:url',
      'og:type',
      'og:image',
      'og:image:alt',
    ]) {
      assert.match(html, new RegExp(`<meta property="${property}" content="[^"]+"`));
    }
    // The share card is a PNG the site serves itself, as large as the tags say.
    const card = new URL(html.match(/<meta property="og:image" content="([^"]+)"/)[1]);
    const image = await fetch(new URL(card.pathname, site.server.url));
    assert.equal(image.status, 200);
    assert.equal(image.headers.get('content-type'), 'image/png');
    const png = Buffer.from(await image.arrayBuffer());
    const size = [png.readUInt32BE(16), png.readUInt32BE(20)];
    assert.deepEqual(size, [1200, 630]);
    assert.match(html, new RegExp(`<meta property="og:image:width" content="${size[0]}"`));
    assert.match(html, new RegExp(`<meta property="og:image:height" content="${size[1]}"`));
    const jsonLd = JSON.parse(
      html.match(/<script type="application\/ld\+json">(.*?)<\/script>/s)[1],
    );
    assert.equal(jsonLd['@type'], 'InsuranceAgency');
    assert.ok(jsonLd.name);
  });

  test('an unknown path answers 404 with the prerendered not-found page', async () => {
    const response = await fetch(new URL('/no/such/page', site.server.url));
    assert.equal(response.status, 404);
    const html = await response.text();
    assertInOrder(html, ['404 Page Not Found', 'Did you forget to add the page to the router?']);
    assert.match(html, /<meta name="robots" content="noindex"/);
  });

  test('every image has a width and a height', async () => {
    const html = await (await fetch(site.server.url)).text();
    const images = html.match(/<img\b[^>]*>/g);
    assert.ok(images.length >= 10);
    for (const img of images) assert.match(img, /width="\d+"[^>]*height="\d+"/, img);
  });
});

for (const [size, viewport] of Object.entries(VIEWPORTS)) {
  const mobile = size === 'mobile';

  describe(`landing page at ${viewport.width}x${viewport.height}`, () => {
    test('shows every text in order, hydrates without errors, and saves a full-page screenshot', async () => {
      const { page, context, errors, consoleErrors } = await openPage(site.browser, { viewport });
      await gotoHydrated(page, site.server.url);
      await revealAll(page);
      assertInOrder(await page.locator('body').innerText(), TEXTS_IN_ORDER);
      assert.equal(await page.getByRole('link', { name: /^Learn more/ }).count(), 4);
      await page.screenshot({
        path: join(outputDir, `landing-${viewport.width}x${viewport.height}.png`),
        fullPage: true,
      });
      assert.deepEqual(errors, []);
      assert.deepEqual(consoleErrors, []);
      await context.close();
    });

    test('the header turns solid after 21 px of scroll and transparent again at 20 px', async () => {
      const { page, context } = await openPage(site.browser, { viewport });
      await gotoHydrated(page, site.server.url);
      assert.equal(await headerSolid(page), 'false');
      await scrollTo(page, 21);
      await page.waitForFunction(() => document.querySelector('header').dataset.solid === 'true');
      await scrollTo(page, 20);
      await page.waitForFunction(() => document.querySelector('header').dataset.solid === 'false');
      await context.close();
    });

    test(`the header's logo, links and quote button (${mobile ? 'hidden' : 'shown'})`, async () => {
      const { page, context } = await openPage(site.browser, { viewport });
      await gotoHydrated(page, site.server.url);
      const banner = page.getByRole('banner');
      assert.equal(await banner.getByRole('img', { name: 'Clearharbor Health' }).isVisible(), true);
      const cta = banner.getByRole('link', { name: 'Obtener Cotización', includeHidden: true });
      assert.equal(await cta.isVisible(), !mobile);
      assert.equal(
        await cta.getAttribute('lang'),
        'es',
        'Spanish on an English page is marked (WCAG 3.1.2)',
      );
      assert.equal(await banner.getByRole('button', { name: 'Open Menu' }).isVisible(), mobile);
      if (!mobile) {
        for (const name of ['Home', 'Products & Services', 'About', 'Contact']) {
          const link = banner.getByRole('link', { name, exact: true });
          assert.equal(await link.getAttribute('href'), '#top');
        }
      }
      await context.close();
    });

    test('the testimonial dots move the highlight and all three quotes stay visible', async () => {
      const { page, context } = await openPage(site.browser, { viewport });
      await gotoHydrated(page, site.server.url);
      const quotes = page.locator('figure');
      const dots = page.getByRole('button', { name: /^Highlight testimonial/ });
      assert.equal(await dots.count(), 3);
      for (const index of [1, 2, 0]) {
        await dots.nth(index).click();
        const active = await quotes.evaluateAll((all) => all.map((f) => f.dataset.active));
        assert.deepEqual(
          active,
          [0, 1, 2].map((i) => String(i === index)),
        );
        assert.equal(await dots.nth(index).getAttribute('aria-pressed'), 'true');
        for (let i = 0; i < 3; i++) assert.equal(await quotes.nth(i).isVisible(), true);
      }
      await context.close();
    });

    test('the partner strip holds the eight logos twice and loops in 20 s', async () => {
      const { page, context } = await openPage(site.browser, { viewport });
      await gotoHydrated(page, site.server.url);
      const strip = page.locator('.partner-strip');
      assert.equal(await strip.locator('li').count(), 16);
      assert.equal(await strip.locator('li:not([aria-hidden])').count(), 8);
      const style = await strip.evaluate((el) => {
        const s = getComputedStyle(el);
        return {
          duration: s.animationDuration,
          timing: s.animationTimingFunction,
          count: s.animationIterationCount,
        };
      });
      assert.deepEqual(style, { duration: '20s', timing: 'linear', count: 'infinite' });
      await context.close();
    });

    test('the footer shows the current year and four named social links', async () => {
      const { page, context } = await openPage(site.browser, { viewport });
      await gotoHydrated(page, site.server.url);
      const footer = page.getByRole('contentinfo');
      assert.match(
        await footer.innerText(),
        new RegExp(`© ${new Date().getFullYear()} Clearharbor Health`),
      );
      for (const name of ['Facebook', 'Twitter', 'Instagram', 'LinkedIn']) {
        assert.equal(await footer.getByRole('link', { name }).count(), 1);
      }
      await context.close();
    });

    test('the 404 route shows its texts with status 404, the header and footer, and a link home', async () => {
      // Chromium logs the page's own 404 status as a failed load.
      const { page, context, errors } = await openPage(site.browser, {
        viewport,
        expectErrors: [/status of 404 .*\/missing-page:/],
      });
      const response = await page.goto(new URL('/missing-page', site.server.url).href);
      assert.equal(response.status(), 404);
      await page.getByRole('heading', { level: 1, name: '404 Page Not Found' }).waitFor();
      await page.getByText('Did you forget to add the page to the router?').waitFor();
      assert.equal(
        await page.getByRole('banner').getByRole('img', { name: 'Clearharbor Health' }).isVisible(),
        true,
      );
      assert.match(
        await page.getByRole('contentinfo').innerText(),
        new RegExp(`© ${new Date().getFullYear()} Clearharbor Health`),
      );
      await page.screenshot({
        path: join(outputDir, `not-found-${viewport.width}x${viewport.height}.png`),
        fullPage: true,
      });
      await page.getByRole('main').getByRole('link', { name: 'Back to the home page' }).click();
      await page.waitForURL(new URL('/', site.server.url).href);
      await page
        .getByRole('heading', { level: 1, name: 'Enjoy the Life at Every stage' })
        .waitFor();
      assert.deepEqual(errors, []);
      await context.close();
    });

    test('under prefers-reduced-motion the partner strip stands still', async () => {
      const { page, context } = await openPage(site.browser, { viewport, reducedMotion: 'reduce' });
      await gotoHydrated(page, site.server.url);
      const strip = page.locator('.partner-strip');
      assert.equal(await strip.evaluate((el) => getComputedStyle(el).animationName), 'none');
      const before = await strip.boundingBox();
      await afterFrames(page, 30); // half a second at 60 Hz
      assert.deepEqual(await strip.boundingBox(), before);
      await context.close();
    });

    test("a portrait that cannot load shows the client's initials", async () => {
      const portraits = ['margaret', 'daniel', 'sofia'].map(
        (name) => new RegExp(`ERR_FAILED .*/portraits/${name}\\.svg`),
      );
      const { page, context } = await openPage(site.browser, { viewport, expectErrors: portraits });
      await page.route('**/images/portraits/**', (route) => route.abort());
      await gotoHydrated(page, site.server.url);
      for (const [name, initials] of [
        ['Margaret Ellison', 'ME'],
        ['Daniel Okafor', 'DO'],
        ['Sofia Marquez', 'SM'],
      ]) {
        const fallback = page.getByRole('img', { name, exact: true });
        assert.equal((await fallback.innerText()).trim(), initials);
      }
      await context.close();
    });
  });
}

describe('side menu at 390x844', () => {
  const openMenu = async (page) => {
    await page.getByRole('button', { name: 'Open Menu' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    return dialog;
  };
  const closed = (page) => page.getByRole('dialog').waitFor({ state: 'detached' });

  test('slides in from the right at 240 px and closes by Escape, a link, the button and a click outside', async () => {
    const { page, context } = await openPage(site.browser, { viewport: VIEWPORTS.mobile });
    await gotoHydrated(page, site.server.url);

    let dialog = await openMenu(page);
    await animationsDone(dialog);
    const box = await dialog.boundingBox();
    assert.equal(Math.round(box.width), 240);
    assert.equal(Math.round(box.x + box.width), VIEWPORTS.mobile.width);
    for (const name of ['Home', 'Products & Services', 'About', 'Contact']) {
      assert.equal(await dialog.getByRole('link', { name, exact: true }).isVisible(), true);
    }
    assert.equal(await dialog.getByRole('link', { name: 'Obtener Cotización' }).isVisible(), true);
    const spanishParts = dialog.locator('[lang="es"]');
    assert.deepEqual(
      await spanishParts.evaluateAll((els) =>
        els.map((el) => el.textContent || el.getAttribute('aria-label')),
      ),
      // The language switch names Spanish in Spanish.
      ['Menú', 'Cerrar menú', 'Obtener Cotización', 'Español'],
    );
    await page.keyboard.press('Escape');
    await closed(page);
    assert.ok(
      await focusReaches(page.getByRole('button', { name: 'Open Menu' })),
      'focus is back on the menu button',
    );

    dialog = await openMenu(page);
    await dialog.getByRole('link', { name: 'About', exact: true }).click();
    await closed(page);

    dialog = await openMenu(page);
    await dialog.getByRole('link', { name: 'Obtener Cotización' }).click();
    await closed(page);

    await openMenu(page);
    await page.mouse.click(20, 400);
    await closed(page);
    await context.close();
  });

  test('keeps keyboard focus inside while open', async () => {
    const { page, context } = await openPage(site.browser, { viewport: VIEWPORTS.mobile });
    await gotoHydrated(page, site.server.url);
    const dialog = await openMenu(page);
    await animationsDone(dialog);
    for (let i = 0; i < 12; i++) {
      await page.keyboard.press('Tab');
      assert.equal(
        await page.evaluate(() => !!document.activeElement?.closest('[role="dialog"]')),
        true,
      );
    }
    await page.screenshot({ path: join(outputDir, 'landing-390x844-menu-open.png') });
    await context.close();
  });

  test('is 300 px wide from the sm breakpoint', async () => {
    const { page, context } = await openPage(site.browser, {
      viewport: { width: 700, height: 900 },
    });
    await gotoHydrated(page, site.server.url);
    const dialog = await openMenu(page);
    await animationsDone(dialog);
    assert.equal(Math.round((await dialog.boundingBox()).width), 300);
    await context.close();
  });
});

describe("product dropdown (the platform's <select>)", () => {
  test('has the placeholder and the five labels, and finds options by type-ahead', async () => {
    const { page, context } = await openPage(site.browser, { viewport: VIEWPORTS.mobile });
    await gotoHydrated(page, site.server.url);
    const select = page.getByRole('combobox', { name: 'Product' });
    assert.deepEqual(
      await select.evaluate((el) => [...el.options].map((option) => [option.value, option.label])),
      [
        ['', 'Select Product'],
        ['medicare', 'Medicare'],
        ['individual', 'Individual Health'],
        ['family', 'Family Health'],
        ['medicaid', 'Medicaid'],
        ['employer', 'Employer Plan'],
      ],
    );
    assert.equal(await select.inputValue(), '');
    // The browser's own type-ahead (its list keeps inside the viewport by itself).
    await select.focus();
    await page.keyboard.type('Emp');
    assert.equal(await select.inputValue(), 'employer');
    await context.close();
  });
});
