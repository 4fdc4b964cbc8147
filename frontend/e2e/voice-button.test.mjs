// The voice button in Chromium against the real built site and backend, with the provider's
// SDK replaced (at the network, in place of its lazy chunk) by the one fake, which the test
// drives through globalThis.fakeVapi. Everything else is real, wasm-core's detector included.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { focusReaches, launchBrowser, openPage, outputDir, VIEWPORTS } from './support/browser.mjs';
import { chooseProduct } from './support/landing.mjs';
import { startServer } from './support/server.mjs';
import { acceptConsent, consentText } from './support/voice-consent.mjs';

const FAKE_SDK = readFileSync(
  new URL('../src/features/voice/testing/fake-vapi.mjs', import.meta.url),
  'utf8',
);
const SDK_CHUNK = /\/assets\/vapi-[\w-]+\.js$/;
const ASSISTANT_CHUNK = /\/assets\/VoiceAssistant-[\w-]+\.js$/;
const VOICE_ENV = { VAPI_PUBLIC_KEY: 'pk-e2e', VAPI_ASSISTANT_ID: 'asst-e2e' };
const NAME = {
  idle: 'Habla con nuestro asistente',
  connecting: 'Conectando...',
  inCall: 'Haz clic para finalizar llamada',
};

let browser;
before(async () => (browser = await launchBrowser()));
after(async () => browser?.close());

/** `consentAccepted: false` opens the page as a visitor who has not accepted the call's notice. */
async function withPage(env, run, { consentAccepted = true, ...pageOptions } = {}) {
  const site = await startServer({ env });
  const { page, context, errors } = await openPage(browser, pageOptions);
  if (consentAccepted) await acceptConsent(context);
  const sdkRequests = [];
  const consoleLines = [];
  page.on('console', (m) => consoleLines.push(`${m.type()}: ${m.text()}`));
  await context.route(SDK_CHUNK, (route) => {
    sdkRequests.push(route.request().url());
    return route.fulfill({ contentType: 'text/javascript', body: FAKE_SDK });
  });
  try {
    await page.goto(site.url);
    await run({ page, context, sdkRequests, consoleLines });
    assert.deepEqual(errors, [], 'no uncaught page errors');
  } finally {
    await context.close();
    await site.stop();
  }
}

const fake = (page, script) => page.evaluate(script);
const voiceButton = (page, name) => page.getByRole('button', { name, exact: true });

/** The idle voice button, once it is there. */
async function idleButton(page) {
  const idle = voiceButton(page, NAME.idle);
  await idle.waitFor();
  return idle;
}

/** Waits until the page has asked the fake SDK to start `count` calls. */
const startCallsMade = (page, count) =>
  page.waitForFunction((count) => globalThis.fakeVapi?.startCalls.length === count, count);

async function startCall(page) {
  await voiceButton(page, NAME.idle).click();
  await voiceButton(page, NAME.connecting).waitFor();
  await page.waitForFunction(() => globalThis.fakeVapi?.startCalls.length > 0);
  await fake(page, () => globalThis.fakeVapi.answerStart());
  await voiceButton(page, NAME.inCall).waitFor();
}

describe('voice button with the fake SDK', () => {
  test('tooltips, keyboard, in-call controls, captions, ring, and the Spanish console lines', async () => {
    await withPage(VOICE_ENV, async ({ page, sdkRequests, consoleLines }) => {
      const idle = await idleButton(page);
      await page.waitForLoadState('networkidle');
      assert.deepEqual(sdkRequests, [], 'no SDK chunk before the visitor shows interest');

      await idle.hover();
      await page.waitForTimeout(300);
      assert.equal(await page.getByRole('tooltip').count(), 0, 'the tooltip waits 700 ms');
      await page.getByRole('tooltip').filter({ hasText: NAME.idle }).waitFor();
      assert.equal(sdkRequests.length, 1, 'hovering prefetches the SDK');
      assert.equal(await fake(page, () => globalThis.fakeVapi.startCalls.length), 0);

      await page.mouse.move(0, 0);
      await idle.focus();
      await page.keyboard.press('Enter');
      const connecting = voiceButton(page, NAME.connecting);
      await connecting.waitFor();
      assert.equal(await connecting.getAttribute('aria-busy'), 'true');
      await page.keyboard.press('Enter'); // a second start while connecting is ignored
      await connecting.hover(); // activating closes a tooltip; hovering shows it again
      await page.getByRole('tooltip').filter({ hasText: NAME.connecting }).waitFor();
      await startCallsMade(page, 1);
      assert.deepEqual(
        await fake(page, () => [globalThis.fakeVapi.publicKey, ...globalThis.fakeVapi.startCalls]),
        ['pk-e2e', 'asst-e2e'],
      );

      await fake(page, () => globalThis.fakeVapi.answerStart());
      const inCall = voiceButton(page, NAME.inCall);
      await inCall.waitFor();
      await page.getByTestId('voice-status-dot').waitFor();
      assert.match(await inCall.getAttribute('class'), /bg-red-600/);
      await page.getByRole('button', { name: 'Silenciar micrófono' }).focus();
      await inCall.focus(); // keyboard focus shows the tooltip at once
      await page.getByRole('tooltip').filter({ hasText: NAME.inCall }).waitFor();

      await fake(page, () => {
        globalThis.fakeVapi.say('assistant', 'Hola, soy el asistente. ¿En qué puedo ayudarte?');
        globalThis.fakeVapi.say('user', 'Busco un plan familiar');
        globalThis.fakeVapi.emit('volume-level', 1);
      });
      const live = page.locator('[aria-live="polite"]');
      await live.getByText('Busco un plan familiar').waitFor();
      assert.equal(
        await page.getByTestId('voice-level-ring').getAttribute('data-speaking'),
        'true',
      );
      assert.match(
        await page.getByTestId('voice-level-ring').getAttribute('style'),
        /scale\(1\.45\)/,
      );

      const mute = page.getByRole('button', { name: 'Silenciar micrófono' });
      await mute.click();
      assert.equal(await mute.getAttribute('aria-pressed'), 'true');
      assert.equal(await fake(page, () => globalThis.fakeVapi.muted), true);
      await page.getByRole('status').getByText('Tu micrófono está silenciado.').waitFor();

      const axe = await new AxeBuilder({ page })
        .include('[role="region"][aria-label="Asistente de voz"]')
        .analyze();
      assert.deepEqual(
        axe.violations.map((v) => v.id),
        [],
        'no accessibility violations in a call',
      );
      await page.screenshot({ path: join(outputDir, 'voice-in-call.png') });

      await page.getByRole('button', { name: 'Cerrar subtítulos' }).focus();
      await page.keyboard.press('Escape');
      assert.equal(
        await page.getByRole('region', { name: 'Conversación con el asistente' }).count(),
        0,
      );
      assert.ok(
        await focusReaches(page.getByRole('button', { name: 'Subtítulos de la conversación' })),
        'focus is back on the captions toggle',
      );

      await inCall.focus();
      await page.keyboard.press('Space');
      await voiceButton(page, NAME.idle).waitFor();
      assert.ok(await focusReaches(voiceButton(page, NAME.idle)), 'focus stays on the button');
      assert.equal(await fake(page, () => globalThis.fakeVapi.stopCalls), 1);
      assert.ok(consoleLines.includes('log: Llamada iniciada'), consoleLines.join('\n'));
      assert.ok(consoleLines.includes('log: Llamada terminada'), consoleLines.join('\n'));
      assert.equal(sdkRequests.length, 1);
    });
  });

  test('call-end, the ejection after it, an error, and start() returning null', async () => {
    await withPage(
      VOICE_ENV,
      async ({ page, consoleLines }) => {
        await startCall(page);
        await fake(page, () => globalThis.fakeVapi.assistantEndsCall());
        await voiceButton(page, NAME.idle).waitFor();
        assert.equal(
          await page.getByRole('alert').count(),
          0,
          'the "Meeting has ended" ejection is not shown',
        );

        await startCall(page);
        await fake(page, () =>
          globalThis.fakeVapi.emit('error', {
            type: 'daily-error',
            error: { message: 'network down' },
          }),
        );
        await voiceButton(page, NAME.idle).waitFor();
        assert.equal(
          await page.getByRole('alert').textContent(),
          'El asistente no está disponible ahora. Inténtalo más tarde.',
        );

        await voiceButton(page, NAME.idle).click();
        // A new attempt clears the old message (with the new phase, a frame after the tap).
        await page.getByRole('alert').waitFor({ state: 'detached' });
        await startCallsMade(page, 3);
        await fake(page, () =>
          globalThis.fakeVapi.failStart({ name: 'NotAllowedError', message: 'Permission denied' }),
        );
        await voiceButton(page, NAME.idle).waitFor();
        assert.equal(
          await page.getByRole('alert').textContent(),
          'Permite el acceso al micrófono para hablar con el asistente.',
        );
        await page.screenshot({ path: join(outputDir, 'voice-permission-denied.png') });

        await voiceButton(page, NAME.idle).click();
        await startCallsMade(page, 4);
        await fake(page, () => globalThis.fakeVapi.returnNull());
        await page.getByRole('alert').waitFor();
        assert.equal(
          await fake(page, () => globalThis.fakeVapi.constructor.instances.length),
          1,
          'one SDK instance for the page',
        );
        assert.ok(
          consoleLines.some((l) => l.startsWith('error: Error connecting to Vapi')),
          consoleLines.join('\n'),
        );
      },
      {
        // The widget's console lines for the in-call error, the failed start and the null start.
        expectErrors: [
          /Error en la llamada de voz/,
          /Error connecting to Vapi .*Permission denied/,
          /Error connecting to Vapi start\(\) returned null/,
        ],
      },
    );
  });

  test('the notice before the first call: an AI, recording and keeping as the content says, a link to the privacy notice, remembered once accepted', async () => {
    await withPage(
      VOICE_ENV,
      async ({ page, context }) => {
        const idle = await idleButton(page);
        await idle.click();
        const notice = page.getByRole('dialog', { name: 'Antes de llamar' });
        await notice.waitFor();
        assert.equal(await notice.locator('#voice-consent-text').textContent(), consentText());
        assert.equal(
          await notice.getByRole('link', { name: 'Aviso de privacidad' }).getAttribute('href'),
          '/privacy',
        );
        assert.equal(await fake(page, () => globalThis.fakeVapi?.startCalls.length ?? 0), 0);
        const axe = await new AxeBuilder({ page })
          .include('[role="region"][aria-label="Asistente de voz"]')
          .analyze();
        assert.deepEqual(
          axe.violations.map((v) => v.id),
          [],
          'no accessibility violations in the notice',
        );
        await page.screenshot({ path: join(outputDir, 'voice-consent.png') });

        // Cancelled: no call, and the next click asks again; accepted: the call starts.
        await page.getByRole('button', { name: 'Cancelar' }).click();
        await notice.waitFor({ state: 'detached' });
        await idle.click();
        await notice.waitFor();
        assert.ok(
          await focusReaches(page.getByRole('button', { name: 'Aceptar y llamar' })),
          'the notice takes the focus to its accept button',
        );
        await page.keyboard.press('Enter');
        await startCallsMade(page, 1);
        await fake(page, () => globalThis.fakeVapi.answerStart());
        await voiceButton(page, NAME.inCall).click();
        await voiceButton(page, NAME.idle).waitFor();

        // Remembered with its text: after a reload the call starts at once.
        await page.reload();
        await voiceButton(page, NAME.idle).click();
        await voiceButton(page, NAME.connecting).waitFor();
        assert.equal(await notice.count(), 0);

        // The Spanish page's notice, with the Spanish privacy notice's link.
        const spanish = await context.newPage();
        await spanish.goto(new URL('/es/', page.url()).href);
        await spanish.evaluate(() => localStorage.clear());
        await spanish.getByRole('button', { name: NAME.idle, exact: true }).click();
        const aviso = spanish.getByRole('dialog', { name: 'Antes de llamar' });
        assert.equal(await aviso.locator('#voice-consent-text').textContent(), consentText('es'));
        assert.equal(
          await aviso.getByRole('link', { name: 'Aviso de privacidad' }).getAttribute('href'),
          '/es/privacy',
        );
      },
      { consentAccepted: false },
    );
  });

  test("not configured: no voice button at all, and neither the SDK nor the assistant's code is loaded", async () => {
    await withPage({}, async ({ page, sdkRequests }) => {
      const answer = await page.waitForResponse((r) => r.url().endsWith('/api/client-config'));
      assert.equal((await answer.json()).voice ?? null, null);
      await page.locator('[data-island="voice"][data-live]').waitFor({ state: 'attached' });
      await page.waitForLoadState('networkidle');
      assert.equal(await page.getByRole('region', { name: 'Asistente de voz' }).count(), 0);
      assert.equal(await page.locator('[data-island="voice"] button').count(), 0);
      assert.deepEqual(sdkRequests, []);
      const assistantCode = await page.evaluate(() =>
        performance
          .getEntriesByType('resource')
          .filter((entry) => /\/VoiceAssistant-[^/]+\.js$/.test(entry.name)),
      );
      assert.deepEqual(assistantCode, [], "nor the assistant's own code");
    });
  });

  test('configured: the button appears in its idle state, entering unless motion is reduced', async () => {
    // The entrance's length in ms, as Chromium runs it.
    const entrance = (button) =>
      button.evaluate((el) => el.getAnimations()[0]?.effect.getComputedTiming().duration ?? 0);
    await withPage(VOICE_ENV, async ({ page }) => {
      const idle = await idleButton(page);
      assert.equal(await idle.getAttribute('data-phase'), 'idle');
      assert.match(await idle.getAttribute('class'), /from-brand-600/);
      assert.equal(await entrance(idle), 180);
    });
    await withPage(
      VOICE_ENV,
      async ({ page }) => {
        const idle = await idleButton(page);
        assert.ok((await entrance(idle)) < 1, 'no entrance under prefers-reduced-motion');
      },
      { reducedMotion: 'reduce' },
    );
  });

  describe("before the visitor comes near, only the idle buttons' code", () => {
    /** The assistant's own chunk, held back until `release()` so a test acts before it arrives. */
    async function holdAssistant(context) {
      let release;
      const held = new Promise((resolve) => (release = resolve));
      const requests = [];
      await context.route(ASSISTANT_CHUNK, async (route) => {
        requests.push(route.request().url());
        await held;
        await route.continue();
      });
      return { requests, release };
    }

    /** The scripts the page has fetched, with whether each holds framer-motion's code. */
    const scriptsFetched = (page) =>
      page.evaluate(() =>
        Promise.all(
          performance
            .getEntriesByType('resource')
            .filter((entry) => /\.js$/.test(new URL(entry.name).pathname))
            .map(async (entry) => ({
              path: new URL(entry.name).pathname,
              framerMotion: (await (await fetch(entry.name)).text()).includes(
                'data-framer-appear-id',
              ),
            })),
        ),
      );

    test('no assistant, motion, chat or SDK code without interaction; the first click, made before the assistant arrives, starts the call', async () => {
      await withPage(VOICE_ENV, async ({ page, context, sdkRequests }) => {
        const idle = await idleButton(page);
        await page.waitForLoadState('networkidle');
        const fetched = await scriptsFetched(page);
        assert.ok(fetched.some(({ path }) => /\/VoiceIsland-[\w-]+\.js$/.test(path)));
        assert.deepEqual(
          fetched.filter(
            ({ path, framerMotion }) =>
              framerMotion || /\/(VoiceAssistant|page-session|ChatPanel)-[\w-]+\.js$/.test(path),
          ),
          [],
        );
        assert.deepEqual(sdkRequests, []);

        const assistant = await holdAssistant(context);
        await idle.click();
        assert.equal(assistant.requests.length, 1, "the approach fetches the assistant's code");
        assert.equal(await fake(page, () => globalThis.fakeVapi), undefined, 'no call yet');
        assistant.release();
        await voiceButton(page, NAME.connecting).waitFor();
        await startCallsMade(page, 1);
        await fake(page, () => globalThis.fakeVapi.answerStart());
        await voiceButton(page, NAME.inCall).waitFor();
      });
    });

    test('keyboard: focus stays on the button and Enter pressed before the assistant arrives starts the call', async () => {
      await withPage(VOICE_ENV, async ({ page, context }) => {
        const idle = await idleButton(page);
        const assistant = await holdAssistant(context);
        await idle.focus();
        await page.keyboard.press('Enter');
        assistant.release();
        await voiceButton(page, NAME.connecting).waitFor();
        await startCallsMade(page, 1);
        assert.equal(
          await page.evaluate(() => document.activeElement?.getAttribute('data-phase')),
          'connecting',
          "the assistant's button has the focus",
        );
      });
    });

    test('touch: a tap on a phone before the assistant arrives starts the call', async () => {
      await withPage(
        VOICE_ENV,
        async ({ page, context }) => {
          const idle = await idleButton(page);
          const assistant = await holdAssistant(context);
          await idle.tap();
          assistant.release();
          await startCallsMade(page, 1);
          assert.equal(await page.getByRole('tooltip').count(), 0, 'a tap shows no tooltip');
        },
        { viewport: VIEWPORTS.mobile, hasTouch: true, isMobile: true },
      );
    });

    test('a press that begins before the assistant arrives and ends after is still a click', async () => {
      await withPage(VOICE_ENV, async ({ page, context }) => {
        const idle = await idleButton(page);
        const assistant = await holdAssistant(context);
        await idle.hover();
        await page.mouse.down();
        assistant.release();
        await page.waitForResponse(ASSISTANT_CHUNK);
        await page.waitForTimeout(300); // the assistant is ready, and waits for the press to end
        await page.mouse.up();
        await startCallsMade(page, 1);
      });
    });

    test('the chat control clicked first opens the chat', async () => {
      await withPage(VOICE_ENV, async ({ page, context }) => {
        const chat = page.getByRole('button', { name: 'Escribir al asistente' });
        await chat.waitFor();
        const assistant = await holdAssistant(context);
        await chat.click();
        assistant.release();
        await page.getByRole('dialog', { name: 'Chat con el asistente' }).waitFor();
      });
    });
  });

  test('on a phone a call starts with the captions closed; the toggle opens them, for the next call too', async () => {
    await withPage(
      VOICE_ENV,
      async ({ page }) => {
        await startCall(page);
        const panel = page.getByRole('region', { name: 'Conversación con el asistente' });
        const toggle = page.getByRole('button', { name: 'Subtítulos de la conversación' });
        assert.equal(await panel.count(), 0);
        assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
        await page.screenshot({ path: join(outputDir, 'voice-in-call-390x844.png') });
        await toggle.click();
        await panel.waitFor();

        await voiceButton(page, NAME.inCall).click();
        await voiceButton(page, NAME.idle).waitFor();
        await page.reload();
        await startCall(page);
        await panel.waitFor();
      },
      { viewport: VIEWPORTS.mobile },
    );
  });

  test('on the landing page only, its tooltip marked Spanish, and never under a notification', async () => {
    await withPage(
      VOICE_ENV,
      async ({ page }) => {
        const idle = voiceButton(page, NAME.idle);
        await idle.focus();
        const tip = page.getByRole('tooltip').filter({ hasText: NAME.idle });
        assert.equal(await tip.evaluate((el) => el.closest('[lang]').getAttribute('lang')), 'es');

        // A quote's success toast shows in the same corner, above the button, which stays clickable.
        // The form hydrates as it comes near the viewport.
        await page.locator('form').scrollIntoViewIfNeeded();
        await page.locator('form[data-hydrated]').waitFor();
        await chooseProduct(page, 'Medicare');
        await page.getByPlaceholder('Enter your email address').fill('corner@example.com');
        await page.getByRole('button', { name: 'Get a Quote' }).click();
        await page.getByRole('status').filter({ hasText: 'Quote request submitted!' }).waitFor();
        const box = await idle.boundingBox();
        const hits = await page.evaluate(
          ({ x, y, width, height }) =>
            [
              [x + width / 2, y + height / 2],
              [x + width / 2, y + 3],
              [x + width / 2, y + height - 3],
            ].map(([px, py]) =>
              document.elementFromPoint(px, py)?.closest('button')?.getAttribute('aria-label'),
            ),
          box,
        );
        assert.deepEqual(hits, [NAME.idle, NAME.idle, NAME.idle]);

        await page.goto(new URL('/no-such-page', page.url()).href);
        await page.locator('canvas[data-particles="running"]').waitFor();
        await page.waitForLoadState('networkidle');
        assert.equal(
          await page.getByRole('region', { name: 'Asistente de voz' }).count(),
          0,
          'no voice button on the 404 page',
        );
      },
      { expectErrors: [/status of 404 .*\/no-such-page:/] },
    ); // the 404 page's own status, as Chromium logs it
  });
});
