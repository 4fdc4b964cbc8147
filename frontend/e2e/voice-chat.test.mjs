// Typing to the assistant in Chromium at a phone's width, against the real built site and backend
// and a stand-in of the provider's `/chat/web` on loopback (VAPI_API_BASE_URL points at it, so
// the page's CSP and client configuration are the real ones). The voice SDK is the one fake, as
// in voice-button.test.mjs: the microphone is denied there, and the chat is offered instead.
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { outputDir, VIEWPORTS } from './support/browser.mjs';
import { REPLY, startChatStandIn } from './support/chat-stand-in.mjs';
import { serveFakeSdk } from './support/fake-voice-sdk.mjs';
import { startServer } from './support/server.mjs';
import { expect, test } from './support/test.mjs';
import { acceptConsent } from './support/voice-consent.mjs';

const CHAT_CHUNK = /\/assets\/ChatPanel-[\w-]+\.js$/;

test.describe('typing to the assistant', () => {
  test('the microphone denied offers the chat; Enter sends, the reply streams in, Escape closes', async ({
    openPage,
  }) => {
    const chat = await startChatStandIn();
    const site = await startServer({
      env: {
        VAPI_PUBLIC_KEY: 'pk-e2e',
        VAPI_ASSISTANT_ID: 'asst-e2e',
        VAPI_API_BASE_URL: chat.url,
      },
    });
    const { page, context, errors } = await openPage({
      viewport: VIEWPORTS.mobile,
      // The fake SDK's failed start is logged by the page, as the product asks.
      allowErrors: [/Error connecting to Vapi/],
    });
    // A visitor who accepted the notice before a call (voice-button.test.mjs tests it).
    await acceptConsent(context);
    const chatChunks = [];
    page.on('request', (r) => CHAT_CHUNK.test(r.url()) && chatChunks.push(r.url()));
    await serveFakeSdk(context);
    try {
      await page.goto(site.url);
      const voice = page.getByRole('button', { name: 'Habla con nuestro asistente', exact: true });
      await expect(voice).toBeVisible();
      await page.waitForLoadState('networkidle');
      expect(chatChunks, 'no chat code before the visitor asks').toEqual([]);

      await voice.click();
      await expect.poll(() => page.evaluate(() => globalThis.fakeVapi?.startCalls.length)).toBe(1);
      await page.evaluate(() =>
        globalThis.fakeVapi.failStart({ name: 'NotAllowedError', message: 'Permission denied' }),
      );
      await expect(
        page.getByRole('alert').filter({ hasText: 'Permite el acceso al micrófono' }),
      ).toBeVisible();
      await page.getByRole('button', { name: 'Escribir en su lugar' }).click();

      const panel = page.getByRole('dialog', { name: 'Chat with the assistant' });
      await expect(panel).toBeVisible();
      expect(chatChunks, 'the chat code arrives when asked for').toHaveLength(1);
      const box = panel.getByRole('textbox', { name: 'Your message' });
      await expect(box).toBeFocused();
      const { width } = await panel.boundingBox();
      expect(Math.round(width), 'the panel spans a phone').toBe(VIEWPORTS.mobile.width);

      // The conversation opens with the page's Medicare disclaimer, the assistant's first line.
      const log = panel.getByRole('log');
      const opening = log.locator('[data-role="assistant"]').first();
      await expect(opening).toHaveText(/We do not offer every plan available in your area\./, {
        useInnerText: true,
      });
      await expect(opening.locator('[lang="en"]')).toHaveCount(1);
      // Then the lead-generation notice the quote form shows.
      await expect(log.locator('[data-role="assistant"]').nth(1)).toHaveText(
        /A licensed insurance agent of Clearharbor Health will contact you about your quote\./,
        { useInnerText: true },
      );

      await box.fill('Quiero una cotización');
      await page.keyboard.press('Enter');
      await expect(log).toHaveAttribute('aria-live', 'polite');
      await expect(log.getByText('Quiero una cotización')).toBeVisible();
      await expect(log.getByText(REPLY)).toBeVisible();
      await expect(box).toHaveValue('');
      expect(chat.received[0]).toEqual({
        authorization: 'Bearer pk-e2e',
        body: {
          assistantId: 'asst-e2e',
          input: 'Quiero una cotización',
          stream: true,
          assistantOverrides: { variableValues: { language: 'en' } },
        },
      });

      const axe = await new AxeBuilder({ page }).include('[role="dialog"]').analyze();
      expect(
        axe.violations.map((v) => v.id),
        'no accessibility violations with the chat open',
      ).toEqual([]);
      await page.screenshot({ path: join(outputDir, 'voice-chat-phone.png') });

      // The next message carries the session the reply named.
      await box.fill('ana@example.com');
      await page.keyboard.press('Enter');
      // The disclaimer, the notice and two replies.
      await expect(page.locator('[data-role="assistant"]')).toHaveCount(4);
      expect(chat.received[1].body.sessionId).toBe('sess-e2e');

      await page.keyboard.press('Escape');
      await expect(panel).not.toBeAttached();
      await expect(
        page.getByRole('button', { name: 'Escribir al asistente' }),
        'focus returns to the chat control',
      ).toBeFocused();
      const region = await new AxeBuilder({ page })
        .include('[role="region"][aria-label="Asistente de voz"]')
        .analyze();
      expect(
        region.violations.map((v) => v.id),
        'the chat control beside the voice button passes axe',
      ).toEqual([]);
      expect(errors, 'no uncaught page errors').toEqual([]);
    } finally {
      await context.close();
      await site.stop();
      await chat.stop();
    }
  });
});
