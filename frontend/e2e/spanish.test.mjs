// The site in Spanish at /es/ (issue 32): the language switch and hreflang both ways, with and
// without JavaScript; the quote form on /es/ with and without JavaScript, ending in Spanish, the
// server's own refusals included; the Spanish privacy notice and 404; axe on /es/. No
// Accept-Language redirect.
import { join } from 'node:path';
import { VIEWPORTS } from './support/browser.mjs';
import { holdDatabase } from './support/database.mjs';
import { axeViolations, gotoHydrated, revealAll } from './support/landing.mjs';
import { startServer } from './support/server.mjs';
import { expect, sharedServer, test } from './support/test.mjs';
import { callsRecorded } from './support/voice-consent.mjs';

const shared = sharedServer();

const SITE = 'https://www.clearharbor.example';

/** The page's `<html lang>`, canonical link and hreflang alternates. */
const languageLinks = (page) =>
  page.evaluate(() => ({
    lang: document.documentElement.lang,
    canonical: document.querySelector('link[rel=canonical]')?.getAttribute('href'),
    alternates: Object.fromEntries(
      [...document.querySelectorAll('link[rel=alternate][hreflang]')].map((link) => [
        link.getAttribute('hreflang'),
        link.getAttribute('href'),
      ]),
    ),
  }));

const ALTERNATES = (path) => ({
  en: `${SITE}${path}`,
  es: `${SITE}/es${path}`,
  'x-default': `${SITE}${path}`,
});

test.describe('the language switch', () => {
  for (const javaScriptEnabled of [true, false]) {
    test(`leads from / to /es/ and back ${javaScriptEnabled ? 'with' : 'without'} JavaScript`, async ({
      openPage,
    }) => {
      const { page, context } = await openPage({
        javaScriptEnabled,
        // A Spanish browser still gets the page it asked for.
        locale: 'es-US',
        extraHTTPHeaders: { 'Accept-Language': 'es-US,es;q=0.9' },
      });
      const response = await page.goto(shared.server.url);
      expect(response.status()).toBe(200);
      await expect
        .poll(() => languageLinks(page))
        .toEqual({
          lang: 'en',
          canonical: `${SITE}/`,
          alternates: ALTERNATES('/'),
        });
      // The header's (desktop) and the footer's, both plain links.
      const toSpanish = page.getByRole('link', { name: 'Español' });
      await expect(toSpanish).toHaveCount(2);
      await Promise.all([page.waitForURL(/\/es\/$/), toSpanish.first().click()]);
      await expect
        .poll(() => languageLinks(page))
        .toEqual({
          lang: 'es',
          canonical: `${SITE}/es/`,
          alternates: ALTERNATES('/'),
        });
      await expect(
        page.getByRole('heading', { level: 1, name: 'Disfrute la vida en cada etapa' }),
      ).toBeVisible();
      const toEnglish = page.getByRole('link', { name: 'English' });
      await expect(toEnglish).toHaveCount(2);
      await Promise.all([page.waitForURL((url) => url.pathname === '/'), toEnglish.last().click()]);
      await expect.poll(async () => (await languageLinks(page)).lang).toBe('en');
      await context.close();
    });
  }

  test('is in the menu on phones', async ({ openPage }) => {
    const { page, context } = await openPage({ viewport: VIEWPORTS.mobile });
    await gotoHydrated(page, `${shared.server.url}/es/`);
    await page.getByRole('button', { name: 'Abrir menú' }).click();
    const link = page.getByRole('dialog').getByRole('link', { name: 'English' });
    await expect(link).toHaveAttribute('href', '/');
    await expect(link).toHaveAttribute('hreflang', 'en');
    await context.close();
  });
});

test('the privacy notice is in both languages, each pointing at the other', async ({
  openPage,
}) => {
  const { page, context } = await openPage();
  await page.goto(`${shared.server.url}/es/privacy`);
  await expect
    .poll(() => languageLinks(page))
    .toEqual({
      lang: 'es',
      canonical: `${SITE}/es/privacy`,
      alternates: ALTERNATES('/privacy'),
    });
  await expect(page.getByRole('heading', { name: 'Aviso de privacidad' })).toBeVisible();
  // The footer's switch leads to the same notice in English.
  await expect(
    page.getByRole('contentinfo').getByRole('link', { name: 'English' }),
  ).toHaveAttribute('href', '/privacy');
  // The server's retention, in the Spanish words.
  await expect(
    page.getByText(/Conservamos una solicitud de cotización (hasta que usted|\d+ días)/),
  ).toBeVisible();
  // The server's other settings and what the build read of the assistant, written in: the
  // conversations' retention (3653 days by default), no forwarding (LEAD_WEBHOOK_URL unset), the
  // recording and the AI services of content/assistant.yaml.
  const main = page.getByRole('main');
  await expect(main).toContainText(/nuestro asistente .*\) 3653 días después de la conversación/s);
  await expect(main).toContainText(/El sistema de clientes del agente: no hay ninguno conectado/);
  await expect(main).toContainText(
    callsRecorded() ? /Las llamadas se graban:/ : /Las llamadas no se graban\./,
  );
  await expect(main).toContainText(/OpenAI \(el modelo de lenguaje/);
  await expect(main).not.toContainText(/\{\{|\}\}/);

  await page.goto(`${shared.server.url}/privacy`);
  await expect(main).toContainText(/We keep a quote request (until you ask|\d+ days)/);
  await expect(main).toContainText(/with our assistant .*\) 3653 days after the conversation/s);
  await expect(main).toContainText(/The broker's customer system: none is connected/);
  await expect(main).toContainText(
    callsRecorded() ? /Calls are recorded:/ : /Calls are not recorded\./,
  );
  await expect(main).toContainText(
    /OpenAI \(the language model .*\), Microsoft Azure \(the voice .*\) and Deepgram/,
  );
  await expect(main).not.toContainText(/\{\{|\}\}/);
  await context.close();
});

test('a path under /es/ that does not exist gets the Spanish 404 page', async ({ openPage }) => {
  const { page, context } = await openPage({
    expectErrors: [/status of 404 .*\/es\/no-such-page:/],
  });
  const response = await page.goto(`${shared.server.url}/es/no-such-page`);
  expect(response.status()).toBe(404);
  await expect.poll(async () => (await languageLinks(page)).lang).toBe('es');
  await expect(page.getByRole('heading', { name: '404 Página no encontrada' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Volver a la página de inicio' })).toHaveAttribute(
    'href',
    '/es/',
  );
  await context.close();
});

const productField = (page) => page.getByRole('combobox', { name: 'Producto' });
const emailField = (page) => page.getByPlaceholder('Escriba su correo electrónico');
const messageOf = (field) =>
  field.evaluate(
    (el) => document.getElementById(el.getAttribute('aria-describedby') ?? '')?.textContent ?? null,
  );
/** Waits until the field's own message (aria-describedby) is `expected`. */
const expectMessage = (field, expected) => expect.poll(() => messageOf(field)).toBe(expected);
const rowsFor = (email) => shared.server.rows().filter((row) => row.email === email);

test.describe('the quote form on /es/', () => {
  test('without JavaScript: each error and the success on Spanish result pages', async ({
    openPage,
  }) => {
    const { page, context } = await openPage({ javaScriptEnabled: false });
    await page.goto(`${shared.server.url}/es/`);
    const submit = () =>
      Promise.all([
        page.waitForURL(/\/es\/quote-result$/),
        page.getByRole('button', { name: 'Obtener cotización' }).click(),
      ]);
    await emailField(page).fill('ana@');
    await submit();
    await expect.poll(async () => (await languageLinks(page)).lang).toBe('es');
    await expectMessage(productField(page), 'Seleccione un producto');
    await expectMessage(emailField(page), 'Escriba un correo electrónico válido');

    await productField(page).selectOption({ label: 'Salud familiar' });
    await emailField(page).fill('ana@');
    await submit();
    await expectMessage(emailField(page), 'Escriba un correo electrónico válido');
    await expect(productField(page)).not.toHaveAttribute('aria-invalid');

    await page.goto(`${shared.server.url}/es/`);
    await emailField(page).fill('ana.es.nojs@example.com');
    await submit();
    await expectMessage(productField(page), 'Seleccione un producto');

    await productField(page).selectOption({ label: 'Salud familiar' });
    await emailField(page).fill('ana.es.nojs@example.com');
    await submit();
    await expect(
      page.getByRole('heading', { name: '¡Solicitud de cotización enviada!' }),
    ).toBeVisible();
    const back = page.getByRole('link', { name: 'Volver al formulario de cotización' });
    await expect(back).toHaveAttribute('href', '/es/#quote');
    // The lead records the page's language, for the broker to answer in.
    expect(rowsFor('ana.es.nojs@example.com').map((row) => row.language)).toEqual(['es']);
    // A reload leads back to the Spanish form.
    await page.reload();
    expect(new URL(page.url()).pathname).toBe('/es/');
    await context.close();
  });

  test('with JavaScript: Spanish messages beside the fields and a Spanish toast', async ({
    openPage,
  }) => {
    const { page, context } = await openPage();
    await gotoHydrated(page, `${shared.server.url}/es/`);
    const button = page.getByRole('button', { name: 'Obtener cotización' });
    await button.click();
    await expectMessage(productField(page), 'Seleccione un producto');
    await expectMessage(emailField(page), 'Escriba un correo electrónico válido');
    await productField(page).selectOption({ label: 'Plan para empleadores' });
    await emailField(page).fill('ana.es.js@example.com');
    await button.click();
    await expect(
      page.getByText('¡Solicitud de cotización enviada!', { exact: true }),
    ).toBeVisible();
    // Screen readers hear it announced in Spanish too.
    await expect(page.getByText(/^Notificación ¡Solicitud/)).toBeAttached();
    await expect(
      page.getByText('Nos pondremos en contacto con usted pronto con más información.', {
        exact: true,
      }),
    ).toBeVisible();
    expect(rowsFor('ana.es.js@example.com').map((row) => row.language)).toEqual(['es']);
    await context.close();
  });
});

test.describe("the server's refusals on /es/", () => {
  const UNAVAILABLE =
    '503: El servicio no está disponible por un momento. Inténtelo de nuevo en unos segundos.';
  const RATE_LIMITED =
    /^429: Demasiadas solicitudes de cotización desde su red\. Inténtelo de nuevo en \d+ segundos\.$/;

  test('a 503 and a 429 are Spanish in the toast and on the result page', async ({ openPage }) => {
    // Its own server: two quotes at once, then one a minute, both spent on the outage.
    const limited = await startServer({
      env: { RATE_LIMIT_PER_MINUTE: '1', RATE_LIMIT_BURST: '2' },
    });
    const lock = await holdDatabase(join(limited.dir, 'quotes.db'));
    const live = await openPage({
      expectErrors: [
        /status of 503 .*\/api\/quote-requests:/,
        /status of 429 .*\/api\/quote-requests:/,
      ],
    });
    const plain = await openPage({ javaScriptEnabled: false });
    try {
      const { page } = live;
      await gotoHydrated(page, `${limited.url}/es/`);
      await productField(page).selectOption({ label: 'Medicaid' });
      await emailField(page).fill('ana.es.refused@example.com');
      const button = page.getByRole('button', { name: 'Obtener cotización' });
      // The failure toast: its title, and the server's message as the text.
      const toast = page.getByRole('listitem').filter({ hasText: 'No se pudo enviar' });
      await button.click();
      await expect(toast.getByText(UNAVAILABLE, { exact: true })).toBeVisible();

      const { page: without } = plain;
      await without.goto(`${limited.url}/es/`);
      const send = async () => {
        await productField(without).selectOption({ label: 'Medicaid' });
        await emailField(without).fill('bea.es.refused@example.com');
        await Promise.all([
          without.waitForURL(/\/es\/quote-result$/),
          without.getByRole('button', { name: 'Obtener cotización' }).click(),
        ]);
        await expect(without.getByRole('heading', { name: 'No se pudo enviar' })).toBeVisible();
      };
      await send();
      await expect(without.getByText(UNAVAILABLE, { exact: true })).toBeVisible();

      await lock.release();
      await button.click();
      await expect(toast.getByText(RATE_LIMITED)).toBeVisible();
      await expect(emailField(page), 'kept').toHaveValue('ana.es.refused@example.com');
      await send();
      await expect(without.getByText(RATE_LIMITED)).toBeVisible();
      expect(limited.rows()).toEqual([]);
    } finally {
      await live.context.close();
      await plain.context.close();
      await lock.release();
      await limited.stop();
    }
  });
});

test('axe finds nothing on /es/', async ({ openPage }) => {
  const { page, context } = await openPage();
  await gotoHydrated(page, `${shared.server.url}/es/`);
  await revealAll(page);
  expect(await axeViolations(page)).toEqual([]);
  await context.close();
});
