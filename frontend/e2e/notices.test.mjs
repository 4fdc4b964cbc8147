// The notices before a conversation, on a phone (390x844), in the page's language (57.2): the one
// before a call (an AI answers, whether the call is recorded, that it is kept) and the chat's,
// shown first in its panel before any message, each with the privacy notice's link of that
// language. The voice and chat buttons' tooltips and labels stay Spanish (docs/product.md §1).
// Voice is configured so the buttons show; no call is started and nothing is sent to a provider.
import { join } from 'node:path';
import { outputDir, VIEWPORTS } from './support/browser.mjs';
import { gotoHydrated } from './support/landing.mjs';
import { expect, sharedServer, test } from './support/test.mjs';

const VOICE_ENV = { VAPI_PUBLIC_KEY: 'pk-e2e', VAPI_ASSISTANT_ID: 'asst-e2e' };

const shared = sharedServer({ env: VOICE_ENV });

const PAGES = {
  '/': {
    lang: 'en',
    callTitle: 'Before you call',
    call: /^You are about to talk to an artificial intelligence assistant, not a person\. The call is (not )?recorded/,
    chat: /^You are writing to an artificial intelligence assistant, not a person\. We keep the conversation/,
    privacy: 'Privacy notice',
    privacyPath: '/privacy',
  },
  '/es/': {
    lang: 'es',
    callTitle: 'Antes de llamar',
    call: /^Vas a hablar con un asistente de inteligencia artificial, no con una persona\. La llamada (no )?se graba/,
    chat: /^Estás escribiendo a un asistente de inteligencia artificial, no a una persona\. Guardamos la conversación/,
    privacy: 'Aviso de privacidad',
    privacyPath: '/es/privacy',
  },
};

test.describe("the notices in the page's language", () => {
  for (const [path, expected] of Object.entries(PAGES)) {
    test(`on ${path} at 390x844, the call's notice and the chat's (first, before any message) are in ${expected.lang}`, async ({
      openPage,
    }) => {
      const { page, context } = await openPage({
        viewport: VIEWPORTS.mobile,
        hasTouch: true,
        isMobile: true,
      });
      await gotoHydrated(page, new URL(path, shared.server.url).href);

      await page.getByRole('button', { name: 'Habla con nuestro asistente', exact: true }).click();
      const call = page.getByRole('dialog', { name: expected.callTitle });
      await expect(call).toBeVisible();
      await expect(call).toHaveAttribute('lang', expected.lang);
      await expect(call.locator('#voice-consent-text')).toHaveText(expected.call);
      await expect(call.getByRole('link', { name: expected.privacy })).toHaveAttribute(
        'href',
        expected.privacyPath,
      );
      const box = await call.boundingBox();
      expect(box.x >= 0 && box.x + box.width <= VIEWPORTS.mobile.width, 'on the screen').toBe(true);
      await page.screenshot({ path: join(outputDir, `notice-call-${expected.lang}.png`) });
      await page.keyboard.press('Escape');
      await expect(call).not.toBeAttached();

      await page.getByRole('button', { name: 'Escribir al asistente', exact: true }).click();
      const chat = page.getByRole('dialog');
      await expect(chat).toBeVisible();
      await expect(chat).toHaveAccessibleDescription(expected.chat);
      const log = chat.getByRole('log');
      const notice = log.locator('p').first();
      await expect(notice, 'the notice before the first message').toHaveText(expected.chat);
      await expect(notice.locator('xpath=ancestor-or-self::*[@lang][1]')).toHaveAttribute(
        'lang',
        expected.lang,
      );
      await expect(log.getByRole('link', { name: expected.privacy })).toHaveAttribute(
        'href',
        expected.privacyPath,
      );
      await expect(notice).toBeInViewport();
      await page.screenshot({ path: join(outputDir, `notice-chat-${expected.lang}.png`) });
      await context.close();
    });
  }
});
