// The site in Spanish at /es/ (issue 32): the language switch and hreflang both ways, with and
// without JavaScript; the quote form on /es/ with and without JavaScript, ending in Spanish, the
// server's own refusals included; the Spanish privacy notice and 404; axe on /es/. No
// Accept-Language redirect.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { openPage, VIEWPORTS } from './support/browser.mjs';
import { holdDatabase } from './support/database.mjs';
import { axeViolations, gotoHydrated, revealAll } from './support/landing.mjs';
import { startServer } from './support/server.mjs';
import { sharedSite } from './support/site.mjs';
import { callsRecorded } from './support/voice-consent.mjs';

const site = sharedSite();

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

describe('the language switch', () => {
  for (const javaScriptEnabled of [true, false]) {
    test(`leads from / to /es/ and back ${javaScriptEnabled ? 'with' : 'without'} JavaScript`, async () => {
      const { page, context } = await openPage(site.browser, {
        javaScriptEnabled,
        // A Spanish browser still gets the page it asked for.
        locale: 'es-US',
        extraHTTPHeaders: { 'Accept-Language': 'es-US,es;q=0.9' },
      });
      const response = await page.goto(site.server.url);
      assert.equal(response.status(), 200);
      assert.deepEqual(await languageLinks(page), {
        lang: 'en',
        canonical: `${SITE}/`,
        alternates: ALTERNATES('/'),
      });
      // The header's (desktop) and the footer's, both plain links.
      const toSpanish = page.getByRole('link', { name: 'Español' });
      assert.equal(await toSpanish.count(), 2);
      await Promise.all([page.waitForURL(/\/es\/$/), toSpanish.first().click()]);
      assert.deepEqual(await languageLinks(page), {
        lang: 'es',
        canonical: `${SITE}/es/`,
        alternates: ALTERNATES('/'),
      });
      await page
        .getByRole('heading', { level: 1, name: 'Disfrute la vida en cada etapa' })
        .waitFor();
      const toEnglish = page.getByRole('link', { name: 'English' });
      assert.equal(await toEnglish.count(), 2);
      await Promise.all([page.waitForURL((url) => url.pathname === '/'), toEnglish.last().click()]);
      assert.equal((await languageLinks(page)).lang, 'en');
      await context.close();
    });
  }

  test('is in the menu on phones', async () => {
    const { page, context } = await openPage(site.browser, { viewport: VIEWPORTS.mobile });
    await gotoHydrated(page, `${site.server.url}/es/`);
    await page.getByRole('button', { name: 'Abrir menú' }).click();
    const link = page.getByRole('dialog').getByRole('link', { name: 'English' });
    assert.equal(await link.getAttribute('href'), '/');
    assert.equal(await link.getAttribute('hreflang'), 'en');
    await context.close();
  });
});

test('the privacy notice is in both languages, each pointing at the other', async () => {
  const { page, context } = await openPage(site.browser);
  await page.goto(`${site.server.url}/es/privacy`);
  assert.deepEqual(await languageLinks(page), {
    lang: 'es',
    canonical: `${SITE}/es/privacy`,
    alternates: ALTERNATES('/privacy'),
  });
  await page.getByRole('heading', { name: 'Aviso de privacidad' }).waitFor();
  // The footer's switch leads to the same notice in English.
  assert.equal(
    await page.getByRole('contentinfo').getByRole('link', { name: 'English' }).getAttribute('href'),
    '/privacy',
  );
  // The server's retention, in the Spanish words.
  await page
    .getByText(/Conservamos una solicitud de cotización (hasta que usted|\d+ días)/)
    .waitFor();
  // The server's other settings and what the build read of the assistant, written in: the
  // conversations' retention (3653 days by default), no forwarding (LEAD_WEBHOOK_URL unset), the
  // recording and the AI services of content/assistant.yaml.
  const main = page.getByRole('main');
  const spanish = await main.textContent();
  assert.match(spanish, /nuestro asistente .*\) 3653 días después de la conversación/s);
  assert.match(spanish, /El sistema de clientes del agente: no hay ninguno conectado/);
  assert.match(
    spanish,
    callsRecorded() ? /Las llamadas se graban:/ : /Las llamadas no se graban\./,
  );
  assert.match(spanish, /OpenAI \(el modelo de lenguaje/);
  assert.doesNotMatch(spanish, /\{\{|\}\}/);

  await page.goto(`${site.server.url}/privacy`);
  const english = await main.textContent();
  assert.match(english, /We keep a quote request (until you ask|\d+ days)/);
  assert.match(english, /with our assistant .*\) 3653 days after the conversation/s);
  assert.match(english, /The broker's customer system: none is connected/);
  assert.match(english, callsRecorded() ? /Calls are recorded:/ : /Calls are not recorded\./);
  assert.match(
    english,
    /OpenAI \(the language model .*\), Microsoft Azure \(the voice .*\) and Deepgram/,
  );
  assert.doesNotMatch(english, /\{\{|\}\}/);
  await context.close();
});

test('a path under /es/ that does not exist gets the Spanish 404 page', async () => {
  const { page, context } = await openPage(site.browser, {
    expectErrors: [/status of 404 .*\/es\/no-such-page:/],
  });
  const response = await page.goto(`${site.server.url}/es/no-such-page`);
  assert.equal(response.status(), 404);
  assert.equal((await languageLinks(page)).lang, 'es');
  await page.getByRole('heading', { name: '404 Página no encontrada' }).waitFor();
  assert.equal(
    await page.getByRole('link', { name: 'Volver a la página de inicio' }).getAttribute('href'),
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
const rowsFor = (email) => site.server.rows().filter((row) => row.email === email);

describe('the quote form on /es/', () => {
  test('without JavaScript: each error and the success on Spanish result pages', async () => {
    const { page, context } = await openPage(site.browser, { javaScriptEnabled: false });
    await page.goto(`${site.server.url}/es/`);
    const submit = () =>
      Promise.all([
        page.waitForURL(/\/es\/quote-result$/),
        page.getByRole('button', { name: 'Obtener cotización' }).click(),
      ]);
    await emailField(page).fill('ana@');
    await submit();
    assert.equal((await languageLinks(page)).lang, 'es');
    assert.equal(await messageOf(productField(page)), 'Seleccione un producto');
    assert.equal(await messageOf(emailField(page)), 'Escriba un correo electrónico válido');

    await productField(page).selectOption({ label: 'Salud familiar' });
    await emailField(page).fill('ana@');
    await submit();
    assert.equal(await messageOf(emailField(page)), 'Escriba un correo electrónico válido');
    assert.equal(await productField(page).getAttribute('aria-invalid'), null);

    await page.goto(`${site.server.url}/es/`);
    await emailField(page).fill('ana.es.nojs@example.com');
    await submit();
    assert.equal(await messageOf(productField(page)), 'Seleccione un producto');

    await productField(page).selectOption({ label: 'Salud familiar' });
    await emailField(page).fill('ana.es.nojs@example.com');
    await submit();
    await page.getByRole('heading', { name: '¡Solicitud de cotización enviada!' }).waitFor();
    const back = page.getByRole('link', { name: 'Volver al formulario de cotización' });
    assert.equal(await back.getAttribute('href'), '/es/#quote');
    // The lead records the page's language, for the broker to answer in.
    assert.deepEqual(
      rowsFor('ana.es.nojs@example.com').map((row) => row.language),
      ['es'],
    );
    // A reload leads back to the Spanish form.
    await page.reload();
    assert.equal(new URL(page.url()).pathname, '/es/');
    await context.close();
  });

  test('with JavaScript: Spanish messages beside the fields and a Spanish toast', async () => {
    const { page, context } = await openPage(site.browser);
    await gotoHydrated(page, `${site.server.url}/es/`);
    const button = page.getByRole('button', { name: 'Obtener cotización' });
    await button.click();
    assert.equal(await messageOf(productField(page)), 'Seleccione un producto');
    assert.equal(await messageOf(emailField(page)), 'Escriba un correo electrónico válido');
    await productField(page).selectOption({ label: 'Plan para empleadores' });
    await emailField(page).fill('ana.es.js@example.com');
    await button.click();
    await page.getByText('¡Solicitud de cotización enviada!', { exact: true }).waitFor();
    // Screen readers hear it announced in Spanish too.
    await page.getByText(/^Notificación ¡Solicitud/).waitFor({ state: 'attached' });
    await page
      .getByText('Nos pondremos en contacto con usted pronto con más información.', { exact: true })
      .waitFor();
    assert.deepEqual(
      rowsFor('ana.es.js@example.com').map((row) => row.language),
      ['es'],
    );
    await context.close();
  });
});

describe("the server's refusals on /es/", () => {
  const UNAVAILABLE =
    '503: El servicio no está disponible por un momento. Inténtelo de nuevo en unos segundos.';
  const RATE_LIMITED =
    /^429: Demasiadas solicitudes de cotización desde su red\. Inténtelo de nuevo en \d+ segundos\.$/;

  test('a 503 and a 429 are Spanish in the toast and on the result page', async () => {
    // Its own server: two quotes at once, then one a minute, both spent on the outage.
    const limited = await startServer({
      env: { RATE_LIMIT_PER_MINUTE: '1', RATE_LIMIT_BURST: '2' },
    });
    const lock = await holdDatabase(join(limited.dir, 'quotes.db'));
    const live = await openPage(site.browser, {
      expectErrors: [
        /status of 503 .*\/api\/quote-requests:/,
        /status of 429 .*\/api\/quote-requests:/,
      ],
    });
    const plain = await openPage(site.browser, { javaScriptEnabled: false });
    try {
      const { page } = live;
      await gotoHydrated(page, `${limited.url}/es/`);
      await productField(page).selectOption({ label: 'Medicaid' });
      await emailField(page).fill('ana.es.refused@example.com');
      const button = page.getByRole('button', { name: 'Obtener cotización' });
      // The failure toast: its title, and the server's message as the text.
      const toast = page.getByRole('listitem').filter({ hasText: 'No se pudo enviar' });
      await button.click();
      await toast.getByText(UNAVAILABLE, { exact: true }).waitFor();

      const { page: without } = plain;
      await without.goto(`${limited.url}/es/`);
      const send = async () => {
        await productField(without).selectOption({ label: 'Medicaid' });
        await emailField(without).fill('bea.es.refused@example.com');
        await Promise.all([
          without.waitForURL(/\/es\/quote-result$/),
          without.getByRole('button', { name: 'Obtener cotización' }).click(),
        ]);
        await without.getByRole('heading', { name: 'No se pudo enviar' }).waitFor();
      };
      await send();
      await without.getByText(UNAVAILABLE, { exact: true }).waitFor();

      await lock.release();
      await button.click();
      await toast.getByText(RATE_LIMITED).waitFor();
      assert.equal(await emailField(page).inputValue(), 'ana.es.refused@example.com', 'kept');
      await send();
      await without.getByText(RATE_LIMITED).waitFor();
      assert.deepEqual(limited.rows(), []);
    } finally {
      await live.context.close();
      await plain.context.close();
      await lock.release();
      await limited.stop();
    }
  });
});

test('axe finds nothing on /es/', async () => {
  const { page, context } = await openPage(site.browser);
  await gotoHydrated(page, `${site.server.url}/es/`);
  await revealAll(page);
  assert.deepEqual(await axeViolations(page), []);
  await context.close();
});
