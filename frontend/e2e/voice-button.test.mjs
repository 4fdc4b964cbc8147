// The voice button in Chromium against the real built site and backend, with the provider's
// SDK replaced (at the network, in place of its lazy chunk) by the one fake, which the test
// drives through globalThis.fakeVapi. Everything else is real, wasm-core's detector included.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { outputDir, VIEWPORTS } from './support/browser.mjs';
import { chooseProduct } from './support/landing.mjs';
import { startServer } from './support/server.mjs';
import { expect, test } from './support/test.mjs';
import { acceptConsent, consentText } from './support/voice-consent.mjs';

const FAKE_SDK = readFileSync(
  new URL('../src/features/voice/testing/fake-vapi.mjs', import.meta.url),
  'utf8',
);
const SDK_CHUNK = /\/assets\/vapi-[\w-]+\.js$/;
const ASSISTANT_CHUNK = /\/assets\/VoiceAssistant-[\w-]+\.js$/;
const SESSION_CHUNK = /\/assets\/page-session-[\w-]+\.js$/;
const VOICE_ENV = { VAPI_PUBLIC_KEY: 'pk-e2e', VAPI_ASSISTANT_ID: 'asst-e2e' };
const NAME = {
  idle: 'Habla con nuestro asistente',
  connecting: 'Conectando...',
  inCall: 'Haz clic para finalizar llamada',
};

/**
 * A page of the test's `openPage` fixture on a server of its own with `env`.
 * `consentAccepted: false` opens the page as a visitor who has not accepted the call's notice.
 */
async function withPage(openPage, env, run, { consentAccepted = true, ...pageOptions } = {}) {
  const site = await startServer({ env });
  const { page, context, errors } = await openPage(pageOptions);
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
    expect(errors, 'no uncaught page errors').toEqual([]);
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
  await expect(idle).toBeVisible();
  return idle;
}

/** Waits until the page has asked the fake SDK to start `count` calls. */
const startCallsMade = (page, count) =>
  expect
    .poll(() => page.evaluate(() => globalThis.fakeVapi?.startCalls.length), {
      message: `the page asked the SDK to start ${count} call(s)`,
    })
    .toBe(count);

async function startCall(page) {
  await voiceButton(page, NAME.idle).click();
  await expect(voiceButton(page, NAME.connecting)).toBeVisible();
  await expect
    .poll(() => page.evaluate(() => globalThis.fakeVapi?.startCalls.length ?? 0))
    .toBeGreaterThan(0);
  await fake(page, () => globalThis.fakeVapi.answerStart());
  await expect(voiceButton(page, NAME.inCall)).toBeVisible();
}

test.describe('voice button with the fake SDK', () => {
  test('tooltips, keyboard, in-call controls, captions, ring, and the Spanish console lines', async ({
    openPage,
  }) => {
    await withPage(openPage, VOICE_ENV, async ({ page, sdkRequests, consoleLines }) => {
      const idle = await idleButton(page);
      await page.waitForLoadState('networkidle');
      expect(sdkRequests, 'no SDK chunk before the visitor shows interest').toEqual([]);

      await idle.hover();
      await page.waitForTimeout(300);
      await expect(page.getByRole('tooltip'), 'the tooltip waits 700 ms').toHaveCount(0);
      await expect(page.getByRole('tooltip').filter({ hasText: NAME.idle })).toBeVisible();
      expect(sdkRequests, 'hovering prefetches the SDK').toHaveLength(1);
      expect(await fake(page, () => globalThis.fakeVapi.startCalls.length)).toBe(0);

      await page.mouse.move(0, 0);
      await idle.focus();
      await page.keyboard.press('Enter');
      const connecting = voiceButton(page, NAME.connecting);
      await expect(connecting).toHaveAttribute('aria-busy', 'true');
      await page.keyboard.press('Enter'); // a second start while connecting is ignored
      await connecting.hover(); // activating closes a tooltip; hovering shows it again
      await expect(page.getByRole('tooltip').filter({ hasText: NAME.connecting })).toBeVisible();
      await startCallsMade(page, 1);
      expect(
        await fake(page, () => [globalThis.fakeVapi.publicKey, ...globalThis.fakeVapi.startCalls]),
      ).toEqual(['pk-e2e', 'asst-e2e']);

      await fake(page, () => globalThis.fakeVapi.answerStart());
      const inCall = voiceButton(page, NAME.inCall);
      await expect(inCall).toBeVisible();
      await expect(page.getByTestId('voice-status-dot')).toBeVisible();
      await expect(inCall).toHaveClass(/bg-red-600/);
      await page.getByRole('button', { name: 'Silenciar micrófono' }).focus();
      await inCall.focus(); // keyboard focus shows the tooltip at once
      await expect(page.getByRole('tooltip').filter({ hasText: NAME.inCall })).toBeVisible();

      await fake(page, () => {
        globalThis.fakeVapi.say('assistant', 'Hola, soy el asistente. ¿En qué puedo ayudarte?');
        globalThis.fakeVapi.say('user', 'Busco un plan familiar');
        globalThis.fakeVapi.emit('volume-level', 1);
      });
      const live = page.locator('[aria-live="polite"]');
      await expect(live.getByText('Busco un plan familiar')).toBeVisible();
      await expect(page.getByTestId('voice-level-ring')).toHaveAttribute('data-speaking', 'true');
      await expect(page.getByTestId('voice-level-ring')).toHaveAttribute('style', /scale\(1\.45\)/);

      const mute = page.getByRole('button', { name: 'Silenciar micrófono' });
      await mute.click();
      await expect(mute).toHaveAttribute('aria-pressed', 'true');
      expect(await fake(page, () => globalThis.fakeVapi.muted)).toBe(true);
      await expect(
        page.getByRole('status').getByText('Tu micrófono está silenciado.'),
      ).toBeVisible();

      const axe = await new AxeBuilder({ page })
        .include('[role="region"][aria-label="Asistente de voz"]')
        .analyze();
      expect(
        axe.violations.map((v) => v.id),
        'no accessibility violations in a call',
      ).toEqual([]);
      await page.screenshot({ path: join(outputDir, 'voice-in-call.png') });

      await page.getByRole('button', { name: 'Cerrar subtítulos' }).focus();
      await page.keyboard.press('Escape');
      await expect(page.getByRole('region', { name: 'Conversación con el asistente' })).toHaveCount(
        0,
      );
      await expect(
        page.getByRole('button', { name: 'Subtítulos de la conversación' }),
        'focus is back on the captions toggle',
      ).toBeFocused();

      await inCall.focus();
      await page.keyboard.press('Space');
      await expect(voiceButton(page, NAME.idle)).toBeVisible();
      await expect(voiceButton(page, NAME.idle), 'focus stays on the button').toBeFocused();
      expect(await fake(page, () => globalThis.fakeVapi.stopCalls)).toBe(1);
      expect(consoleLines, consoleLines.join('\n')).toContain('log: Llamada iniciada');
      expect(consoleLines, consoleLines.join('\n')).toContain('log: Llamada terminada');
      expect(sdkRequests).toHaveLength(1);
    });
  });

  test('call-end, the ejection after it, an error, and start() returning null', async ({
    openPage,
  }) => {
    await withPage(
      openPage,
      VOICE_ENV,
      async ({ page, consoleLines }) => {
        await startCall(page);
        await fake(page, () => globalThis.fakeVapi.assistantEndsCall());
        await expect(voiceButton(page, NAME.idle)).toBeVisible();
        await expect(
          page.getByRole('alert'),
          'the "Meeting has ended" ejection is not shown',
        ).toHaveCount(0);

        await startCall(page);
        await fake(page, () =>
          globalThis.fakeVapi.emit('error', {
            type: 'daily-error',
            error: { message: 'network down' },
          }),
        );
        await expect(voiceButton(page, NAME.idle)).toBeVisible();
        await expect(page.getByRole('alert')).toHaveText(
          'El asistente no está disponible ahora. Inténtalo más tarde.',
        );

        await voiceButton(page, NAME.idle).click();
        // A new attempt clears the old message (with the new phase, a frame after the tap).
        await expect(page.getByRole('alert')).not.toBeAttached();
        await startCallsMade(page, 3);
        await fake(page, () =>
          globalThis.fakeVapi.failStart({ name: 'NotAllowedError', message: 'Permission denied' }),
        );
        await expect(voiceButton(page, NAME.idle)).toBeVisible();
        await expect(page.getByRole('alert')).toHaveText(
          'Permite el acceso al micrófono para hablar con el asistente.',
        );
        await page.screenshot({ path: join(outputDir, 'voice-permission-denied.png') });

        await voiceButton(page, NAME.idle).click();
        await startCallsMade(page, 4);
        await fake(page, () => globalThis.fakeVapi.returnNull());
        await expect(page.getByRole('alert')).toBeVisible();
        expect(
          await fake(page, () => globalThis.fakeVapi.constructor.instances.length),
          'one SDK instance for the page',
        ).toBe(1);
        expect(
          consoleLines.some((l) => l.startsWith('error: Error connecting to Vapi')),
          consoleLines.join('\n'),
        ).toBeTruthy();
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

  test('the notice before the first call: an AI, recording and keeping as the content says, a link to the privacy notice, remembered once accepted', async ({
    openPage,
  }) => {
    await withPage(
      openPage,
      VOICE_ENV,
      async ({ page, context }) => {
        const idle = await idleButton(page);
        await idle.click();
        const notice = page.getByRole('dialog', { name: 'Before you call' });
        await expect(notice).toBeVisible();
        await expect(notice.locator('#voice-consent-text')).toHaveText(consentText());
        await expect(notice.getByRole('link', { name: 'Privacy notice' })).toHaveAttribute(
          'href',
          '/privacy',
        );
        expect(await fake(page, () => globalThis.fakeVapi?.startCalls.length ?? 0)).toBe(0);
        const axe = await new AxeBuilder({ page })
          .include('[role="region"][aria-label="Asistente de voz"]')
          .analyze();
        expect(
          axe.violations.map((v) => v.id),
          'no accessibility violations in the notice',
        ).toEqual([]);
        await page.screenshot({ path: join(outputDir, 'voice-consent.png') });

        // Cancelled: no call, and the next click asks again; accepted: the call starts.
        await page.getByRole('button', { name: 'Cancel' }).click();
        await expect(notice).not.toBeAttached();
        await idle.click();
        await expect(notice).toBeVisible();
        await expect(
          page.getByRole('button', { name: 'Accept and call' }),
          'the notice takes the focus to its accept button',
        ).toBeFocused();
        await page.keyboard.press('Enter');
        await startCallsMade(page, 1);
        await fake(page, () => globalThis.fakeVapi.answerStart());
        await voiceButton(page, NAME.inCall).click();
        await expect(voiceButton(page, NAME.idle)).toBeVisible();

        // Remembered with its text: after a reload the call starts at once.
        await page.reload();
        await voiceButton(page, NAME.idle).click();
        await expect(voiceButton(page, NAME.connecting)).toBeVisible();
        await expect(notice).toHaveCount(0);

        // The Spanish page's notice, with the Spanish privacy notice's link.
        const spanish = await context.newPage();
        await spanish.goto(new URL('/es/', page.url()).href);
        await spanish.evaluate(() => localStorage.clear());
        await spanish.getByRole('button', { name: NAME.idle, exact: true }).click();
        const aviso = spanish.getByRole('dialog', { name: 'Antes de llamar' });
        await expect(aviso.locator('#voice-consent-text')).toHaveText(consentText('es'));
        await expect(aviso.getByRole('link', { name: 'Aviso de privacidad' })).toHaveAttribute(
          'href',
          '/es/privacy',
        );
      },
      { consentAccepted: false },
    );
  });

  test("not configured: no voice button at all, and neither the SDK nor the assistant's code is loaded", async ({
    openPage,
  }) => {
    await withPage(openPage, {}, async ({ page, sdkRequests }) => {
      const answer = await page.waitForResponse((r) => r.url().endsWith('/api/client-config'));
      expect((await answer.json()).voice ?? null).toBe(null);
      await expect(page.locator('[data-island="voice"][data-live]')).toBeAttached();
      await page.waitForLoadState('networkidle');
      await expect(page.getByRole('region', { name: 'Asistente de voz' })).toHaveCount(0);
      await expect(page.locator('[data-island="voice"] button')).toHaveCount(0);
      expect(sdkRequests).toEqual([]);
      const assistantCode = await page.evaluate(() =>
        performance
          .getEntriesByType('resource')
          .filter((entry) => /\/VoiceAssistant-[^/]+\.js$/.test(entry.name)),
      );
      expect(assistantCode, "nor the assistant's own code").toEqual([]);
    });
  });

  test('configured: the button appears in its idle state, entering unless motion is reduced', async ({
    openPage,
  }) => {
    // The entrance's length in ms, as Chromium runs it.
    const entrance = (button) =>
      button.evaluate((el) => el.getAnimations()[0]?.effect.getComputedTiming().duration ?? 0);
    await withPage(openPage, VOICE_ENV, async ({ page }) => {
      const idle = await idleButton(page);
      await expect(idle).toHaveAttribute('data-phase', 'idle');
      await expect(idle).toHaveClass(/from-brand-600/);
      expect(await entrance(idle)).toBe(180);
    });
    await withPage(
      openPage,
      VOICE_ENV,
      async ({ page }) => {
        const idle = await idleButton(page);
        expect(await entrance(idle), 'no entrance under prefers-reduced-motion').toBeLessThan(1);
      },
      { reducedMotion: 'reduce' },
    );
  });

  test.describe("before the visitor comes near, only the idle buttons' code", () => {
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

    /**
     * Once the assistant's code (`responses`, its chunks) has run and the assistant is with the
     * idle buttons: the same modules imported again resolve once they are evaluated, and a task
     * after that comes after the promises that waited on them.
     */
    const assistantArrived = (page, responses) =>
      page.evaluate(
        async (urls) => {
          await Promise.all(urls.map((url) => import(url)));
          await new Promise((resolve) => setTimeout(resolve));
        },
        responses.map((response) => response.url()),
      );

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

    test('no assistant, motion, chat or SDK code without interaction; the first click, made before the assistant arrives, starts the call', async ({
      openPage,
    }) => {
      await withPage(openPage, VOICE_ENV, async ({ page, context, sdkRequests }) => {
        const idle = await idleButton(page);
        await page.waitForLoadState('networkidle');
        const fetched = await scriptsFetched(page);
        expect(fetched.some(({ path }) => /\/VoiceIsland-[\w-]+\.js$/.test(path))).toBeTruthy();
        expect(
          fetched.filter(
            ({ path, framerMotion }) =>
              framerMotion || /\/(VoiceAssistant|page-session|ChatPanel)-[\w-]+\.js$/.test(path),
          ),
        ).toEqual([]);
        expect(sdkRequests).toEqual([]);

        const assistant = await holdAssistant(context);
        await idle.click();
        expect(assistant.requests, "the approach fetches the assistant's code").toHaveLength(1);
        expect(await fake(page, () => globalThis.fakeVapi), 'no call yet').toBeUndefined();
        assistant.release();
        await expect(voiceButton(page, NAME.connecting)).toBeVisible();
        await startCallsMade(page, 1);
        await fake(page, () => globalThis.fakeVapi.answerStart());
        await expect(voiceButton(page, NAME.inCall)).toBeVisible();
      });
    });

    test('keyboard: focus stays on the button and Enter pressed before the assistant arrives starts the call', async ({
      openPage,
    }) => {
      await withPage(openPage, VOICE_ENV, async ({ page, context }) => {
        const idle = await idleButton(page);
        const assistant = await holdAssistant(context);
        await idle.focus();
        await page.keyboard.press('Enter');
        assistant.release();
        await expect(voiceButton(page, NAME.connecting)).toBeVisible();
        await startCallsMade(page, 1);
        expect(
          await page.evaluate(() => document.activeElement?.getAttribute('data-phase')),
          "the assistant's button has the focus",
        ).toBe('connecting');
      });
    });

    test('touch: a tap on a phone before the assistant arrives starts the call', async ({
      openPage,
    }) => {
      await withPage(
        openPage,
        VOICE_ENV,
        async ({ page, context }) => {
          const idle = await idleButton(page);
          const assistant = await holdAssistant(context);
          await idle.tap();
          assistant.release();
          await startCallsMade(page, 1);
          await expect(page.getByRole('tooltip'), 'a tap shows no tooltip').toHaveCount(0);
        },
        { viewport: VIEWPORTS.mobile, hasTouch: true, isMobile: true },
      );
    });

    test('a press that begins before the assistant arrives and ends after is still a click', async ({
      openPage,
    }) => {
      await withPage(openPage, VOICE_ENV, async ({ page, context }) => {
        const idle = await idleButton(page);
        const assistant = await holdAssistant(context);
        const code = [ASSISTANT_CHUNK, SESSION_CHUNK].map((chunk) => page.waitForResponse(chunk));
        await idle.hover();
        await page.mouse.down();
        assistant.release();
        // The assistant is ready, and waits for the press to end.
        await assistantArrived(page, await Promise.all(code));
        await page.mouse.up();
        await startCallsMade(page, 1);
      });
    });

    test('the chat control clicked first opens the chat', async ({ openPage }) => {
      await withPage(openPage, VOICE_ENV, async ({ page, context }) => {
        const chat = page.getByRole('button', { name: 'Escribir al asistente' });
        await expect(chat).toBeVisible();
        const assistant = await holdAssistant(context);
        await chat.click();
        assistant.release();
        await expect(page.getByRole('dialog', { name: 'Chat with the assistant' })).toBeVisible();
      });
    });
  });

  test('on a phone a call starts with the captions closed; the toggle opens them, for the next call too', async ({
    openPage,
  }) => {
    await withPage(
      openPage,
      VOICE_ENV,
      async ({ page }) => {
        await startCall(page);
        const panel = page.getByRole('region', { name: 'Conversación con el asistente' });
        const toggle = page.getByRole('button', { name: 'Subtítulos de la conversación' });
        await expect(panel).toHaveCount(0);
        await expect(toggle).toHaveAttribute('aria-expanded', 'false');
        await page.screenshot({ path: join(outputDir, 'voice-in-call-390x844.png') });
        await toggle.click();
        await expect(panel).toBeVisible();

        await voiceButton(page, NAME.inCall).click();
        await expect(voiceButton(page, NAME.idle)).toBeVisible();
        await page.reload();
        await startCall(page);
        await expect(panel).toBeVisible();
      },
      { viewport: VIEWPORTS.mobile },
    );
  });

  test('on the landing page only, its tooltip marked Spanish, and never under a notification', async ({
    openPage,
  }) => {
    await withPage(
      openPage,
      VOICE_ENV,
      async ({ page }) => {
        const idle = voiceButton(page, NAME.idle);
        await idle.focus();
        const tip = page.getByRole('tooltip').filter({ hasText: NAME.idle });
        expect(await tip.evaluate((el) => el.closest('[lang]').getAttribute('lang'))).toBe('es');

        // A quote's success toast shows in the same corner, above the button, which stays clickable.
        // The form hydrates as it comes near the viewport.
        await page.locator('form').scrollIntoViewIfNeeded();
        await expect(page.locator('form[data-hydrated]')).toBeVisible();
        await chooseProduct(page, 'Medicare');
        await page.getByPlaceholder('Enter your email address').fill('corner@example.com');
        await page.getByRole('button', { name: 'Get a Quote' }).click();
        await expect(
          page.getByRole('status').filter({ hasText: 'Quote request submitted!' }),
        ).toBeVisible();
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
        expect(hits).toEqual([NAME.idle, NAME.idle, NAME.idle]);

        await page.goto(new URL('/no-such-page', page.url()).href);
        await expect(page.locator('canvas[data-particles="running"]')).toBeVisible();
        await page.waitForLoadState('networkidle');
        await expect(
          page.getByRole('region', { name: 'Asistente de voz' }),
          'no voice button on the 404 page',
        ).toHaveCount(0);
      },
      { expectErrors: [/status of 404 .*\/no-such-page:/] },
    ); // the 404 page's own status, as Chromium logs it
  });
});
