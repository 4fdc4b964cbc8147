// The landing page in Chromium at phone and desktop sizes, against the real built site and server.
import { join } from 'node:path';
import { outputDir, VIEWPORTS } from './support/browser.mjs';
import { afterFrames } from './support/frames.mjs';
import { animationsDone, gotoHydrated, revealAll } from './support/landing.mjs';
import { expect, sharedServer, test } from './support/test.mjs';

const shared = sharedServer();

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
  'Do not contact me',
  'Account',
  'Support Center',
  'Feedback',
  'Contact Us',
];

function assertInOrder(text, expected) {
  let from = 0;
  for (const item of expected) {
    const at = text.indexOf(item, from);
    expect(at, `"${item}" missing, or out of order after position ${from}`).not.toBe(-1);
    from = at + item.length;
  }
}

const scrollTo = (page, top) =>
  page.evaluate((y) => window.scrollTo({ top: y, behavior: 'instant' }), top);
const header = (page) => page.locator('header').first();

test.describe('prerendered HTML', () => {
  test('/ holds the content, title, description, canonical, Open Graph and JSON-LD before any script runs', async () => {
    const response = await fetch(shared.server.url);
    expect(response.status).toBe(200);
    const html = await response.text();
    assertInOrder(html, [
      'Enjoy the Life at Every stage',
      'Our Super Client Says',
      'Get a Free Quote to Create Your Desired Insurance',
      'Enter your email address',
      'Contact Us',
    ]);
    expect(html).toMatch(/<title>[^<]+<\/title>/);
    expect(html).toMatch(/<meta name="description" content="[^"]{50,}"/);
    expect(html).toMatch(/<link rel="canonical" href="https:\/\/[^"]+"/);
    for (const property of [
      'og:title',
      'og:description',
      'og:url',
      'og:type',
      'og:image',
      'og:image:alt',
    ]) {
      expect(html).toMatch(new RegExp(`<meta property="${property}" content="[^"]+"`));
    }
    // The share card is a PNG the site serves itself, as large as the tags say.
    const card = new URL(html.match(/<meta property="og:image" content="([^"]+)"/)[1]);
    const image = await fetch(new URL(card.pathname, shared.server.url));
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    const png = Buffer.from(await image.arrayBuffer());
    const size = [png.readUInt32BE(16), png.readUInt32BE(20)];
    expect(size).toEqual([1200, 630]);
    expect(html).toMatch(new RegExp(`<meta property="og:image:width" content="${size[0]}"`));
    expect(html).toMatch(new RegExp(`<meta property="og:image:height" content="${size[1]}"`));
    const jsonLd = JSON.parse(
      html.match(/<script type="application\/ld\+json">(.*?)<\/script>/s)[1],
    );
    expect(jsonLd['@type']).toBe('InsuranceAgency');
    expect(jsonLd.name).toBeTruthy();
  });

  test('an unknown path answers 404 with the prerendered not-found page', async () => {
    const response = await fetch(new URL('/no/such/page', shared.server.url));
    expect(response.status).toBe(404);
    const html = await response.text();
    assertInOrder(html, ['404 Page Not Found', 'Did you forget to add the page to the router?']);
    expect(html).toMatch(/<meta name="robots" content="noindex"/);
  });

  test('every image has a width and a height', async () => {
    const html = await (await fetch(shared.server.url)).text();
    const images = html.match(/<img\b[^>]*>/g);
    expect(images.length).toBeGreaterThanOrEqual(10);
    for (const img of images) expect(img, img).toMatch(/width="\d+"[^>]*height="\d+"/);
  });
});

for (const [size, viewport] of Object.entries(VIEWPORTS)) {
  const mobile = size === 'mobile';

  test.describe(`landing page at ${viewport.width}x${viewport.height}`, () => {
    test('shows every text in order, hydrates without errors, and saves a full-page screenshot', async ({
      openPage,
    }) => {
      // Page and console errors fail the test (the openPage fixture).
      const { page } = await openPage({ viewport });
      await gotoHydrated(page, shared.server.url);
      await revealAll(page);
      assertInOrder(await page.locator('body').innerText(), TEXTS_IN_ORDER);
      await expect(page.getByRole('link', { name: /^Learn more/ })).toHaveCount(4);
      await page.screenshot({
        path: join(outputDir, `landing-${viewport.width}x${viewport.height}.png`),
        fullPage: true,
      });
    });

    test('the header turns solid after 21 px of scroll and transparent again at 20 px', async ({
      openPage,
    }) => {
      const { page } = await openPage({ viewport });
      await gotoHydrated(page, shared.server.url);
      await expect(header(page)).toHaveAttribute('data-solid', 'false');
      await scrollTo(page, 21);
      await expect(header(page)).toHaveAttribute('data-solid', 'true');
      await scrollTo(page, 20);
      await expect(header(page)).toHaveAttribute('data-solid', 'false');
    });

    test(`the header's logo, links and quote button (${mobile ? 'hidden' : 'shown'})`, async ({
      openPage,
    }) => {
      const { page } = await openPage({ viewport });
      await gotoHydrated(page, shared.server.url);
      const banner = page.getByRole('banner');
      await expect(banner.getByRole('img', { name: 'Clearharbor Health' })).toBeVisible();
      const cta = banner.getByRole('link', { name: 'Obtener Cotización', includeHidden: true });
      await expect(cta).toBeVisible({ visible: !mobile });
      await expect(cta, 'Spanish on an English page is marked (WCAG 3.1.2)').toHaveAttribute(
        'lang',
        'es',
      );
      await expect(banner.getByRole('button', { name: 'Open Menu' })).toBeVisible({
        visible: mobile,
      });
      if (!mobile) {
        for (const name of ['Home', 'Products & Services', 'About', 'Contact']) {
          const link = banner.getByRole('link', { name, exact: true });
          await expect(link).toHaveAttribute('href', '#top');
        }
      }
    });

    test('the testimonial dots move the highlight and all three quotes stay visible', async ({
      openPage,
    }) => {
      const { page } = await openPage({ viewport });
      await gotoHydrated(page, shared.server.url);
      const quotes = page.locator('figure');
      const dots = page.getByRole('button', { name: /^Highlight testimonial/ });
      await expect(dots).toHaveCount(3);
      for (const index of [1, 2, 0]) {
        await dots.nth(index).click();
        await expect
          .poll(() => quotes.evaluateAll((all) => all.map((f) => f.dataset.active)))
          .toEqual([0, 1, 2].map((i) => String(i === index)));
        await expect(dots.nth(index)).toHaveAttribute('aria-pressed', 'true');
        for (let i = 0; i < 3; i++) await expect(quotes.nth(i)).toBeVisible();
      }
    });

    test('the partner strip holds the eight logos twice and loops in 20 s', async ({
      openPage,
    }) => {
      const { page } = await openPage({ viewport });
      await gotoHydrated(page, shared.server.url);
      const strip = page.locator('.partner-strip');
      await expect(strip.locator('li')).toHaveCount(16);
      await expect(strip.locator('li:not([aria-hidden])')).toHaveCount(8);
      await expect(strip).toHaveCSS('animation-duration', '20s');
      await expect(strip).toHaveCSS('animation-timing-function', 'linear');
      await expect(strip).toHaveCSS('animation-iteration-count', 'infinite');
    });

    test('the footer shows the current year and four named social links', async ({ openPage }) => {
      const { page } = await openPage({ viewport });
      await gotoHydrated(page, shared.server.url);
      const footer = page.getByRole('contentinfo');
      await expect(footer).toContainText(
        new RegExp(`© ${new Date().getFullYear()} Clearharbor Health`),
        { useInnerText: true },
      );
      for (const name of ['Facebook', 'Twitter', 'Instagram', 'LinkedIn']) {
        await expect(footer.getByRole('link', { name })).toHaveCount(1);
      }
    });

    test('the 404 route shows its texts with status 404, the header and footer, and a link home', async ({
      openPage,
    }) => {
      // Chromium logs the page's own 404 status as a failed load.
      const { page } = await openPage({
        viewport,
        expectErrors: [/status of 404 .*\/missing-page:/],
      });
      const response = await page.goto(new URL('/missing-page', shared.server.url).href);
      expect(response.status()).toBe(404);
      await expect(
        page.getByRole('heading', { level: 1, name: '404 Page Not Found' }),
      ).toBeVisible();
      await expect(page.getByText('Did you forget to add the page to the router?')).toBeVisible();
      await expect(
        page.getByRole('banner').getByRole('img', { name: 'Clearharbor Health' }),
      ).toBeVisible();
      await expect(page.getByRole('contentinfo')).toContainText(
        new RegExp(`© ${new Date().getFullYear()} Clearharbor Health`),
        { useInnerText: true },
      );
      await page.screenshot({
        path: join(outputDir, `not-found-${viewport.width}x${viewport.height}.png`),
        fullPage: true,
      });
      await page.getByRole('main').getByRole('link', { name: 'Back to the home page' }).click();
      await expect(page).toHaveURL(new URL('/', shared.server.url).href);
      await expect(
        page.getByRole('heading', { level: 1, name: 'Enjoy the Life at Every stage' }),
      ).toBeVisible();
    });

    test('under prefers-reduced-motion the partner strip stands still', async ({ openPage }) => {
      const { page } = await openPage({ viewport, reducedMotion: 'reduce' });
      await gotoHydrated(page, shared.server.url);
      const strip = page.locator('.partner-strip');
      await expect(strip).toHaveCSS('animation-name', 'none');
      const before = await strip.boundingBox();
      await afterFrames(page, 30); // half a second at 60 Hz
      expect(await strip.boundingBox()).toEqual(before);
    });

    test("a portrait that cannot load shows the client's initials", async ({ openPage }) => {
      const portraits = ['margaret', 'daniel', 'sofia'].map(
        (name) => new RegExp(`ERR_FAILED .*/portraits/${name}\\.svg`),
      );
      const { page } = await openPage({ viewport, expectErrors: portraits });
      await page.route('**/images/portraits/**', (route) => route.abort());
      await gotoHydrated(page, shared.server.url);
      for (const [name, initials] of [
        ['Margaret Ellison', 'ME'],
        ['Daniel Okafor', 'DO'],
        ['Sofia Marquez', 'SM'],
      ]) {
        const fallback = page.getByRole('img', { name, exact: true });
        await expect(fallback).toHaveText(initials, { useInnerText: true });
      }
    });
  });
}

test.describe('side menu at 390x844', () => {
  const openMenu = async (page) => {
    await page.getByRole('button', { name: 'Open Menu' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toBeVisible();
    return dialog;
  };
  const closed = (page) => expect(page.getByRole('dialog')).not.toBeAttached();

  test('slides in from the right at 240 px and closes by Escape, a link, the button and a click outside', async ({
    openPage,
  }) => {
    const { page } = await openPage({ viewport: VIEWPORTS.mobile });
    await gotoHydrated(page, shared.server.url);

    let dialog = await openMenu(page);
    await animationsDone(dialog);
    const box = await dialog.boundingBox();
    expect(Math.round(box.width)).toBe(240);
    expect(Math.round(box.x + box.width)).toBe(VIEWPORTS.mobile.width);
    for (const name of ['Home', 'Products & Services', 'About', 'Contact']) {
      await expect(dialog.getByRole('link', { name, exact: true })).toBeVisible();
    }
    await expect(dialog.getByRole('link', { name: 'Obtener Cotización' })).toBeVisible();
    const spanishParts = dialog.locator('[lang="es"]');
    expect(
      await spanishParts.evaluateAll((els) =>
        els.map((el) => el.textContent || el.getAttribute('aria-label')),
      ),
    ).toEqual(
      // The language switch names Spanish in Spanish.
      ['Menú', 'Cerrar menú', 'Obtener Cotización', 'Español'],
    );
    await page.keyboard.press('Escape');
    await closed(page);
    await expect(
      page.getByRole('button', { name: 'Open Menu' }),
      'focus is back on the menu button',
    ).toBeFocused();

    dialog = await openMenu(page);
    await dialog.getByRole('link', { name: 'About', exact: true }).click();
    await closed(page);

    dialog = await openMenu(page);
    await dialog.getByRole('link', { name: 'Obtener Cotización' }).click();
    await closed(page);

    await openMenu(page);
    await page.mouse.click(20, 400);
    await closed(page);
  });

  test('keeps keyboard focus inside while open', async ({ openPage }) => {
    const { page } = await openPage({ viewport: VIEWPORTS.mobile });
    await gotoHydrated(page, shared.server.url);
    const dialog = await openMenu(page);
    await animationsDone(dialog);
    for (let i = 0; i < 12; i++) {
      await page.keyboard.press('Tab');
      await expect(page.locator('[role="dialog"]:focus-within')).toHaveCount(1);
    }
    await page.screenshot({ path: join(outputDir, 'landing-390x844-menu-open.png') });
  });

  test('is 300 px wide from the sm breakpoint', async ({ openPage }) => {
    const { page } = await openPage({ viewport: { width: 700, height: 900 } });
    await gotoHydrated(page, shared.server.url);
    const dialog = await openMenu(page);
    await animationsDone(dialog);
    expect(Math.round((await dialog.boundingBox()).width)).toBe(300);
  });
});

test.describe("product dropdown (the platform's <select>)", () => {
  test('has the placeholder and the five labels, and finds options by type-ahead', async ({
    openPage,
  }) => {
    const { page } = await openPage({ viewport: VIEWPORTS.mobile });
    await gotoHydrated(page, shared.server.url);
    const select = page.getByRole('combobox', { name: 'Product' });
    expect(
      await select.evaluate((el) => [...el.options].map((option) => [option.value, option.label])),
    ).toEqual([
      ['', 'Select Product'],
      ['medicare', 'Medicare'],
      ['individual', 'Individual Health'],
      ['family', 'Family Health'],
      ['medicaid', 'Medicaid'],
      ['employer', 'Employer Plan'],
    ]);
    await expect(select).toHaveValue('');
    // The browser's own type-ahead (its list keeps inside the viewport by itself).
    await select.focus();
    await page.keyboard.type('Emp');
    await expect(select).toHaveValue('employer');
  });
});
