// The notices before a conversation, on a phone (390x844), in the page's language (57.2): the one
// before a call (an AI answers, whether the call is recorded, that it is kept) and the chat's,
// shown first in its panel before any message, each with the privacy notice's link of that
// language; the chat panel's labels in the page's language too, while the voice and chat buttons'
// tooltips and labels stay Spanish (docs/product.md §1). Each notice is then accepted (the call's
// by its button, the chat's by writing), and the server keeps the acceptance with the
// conversation: the admin API shows the site's own text of the page's language, its SHA-256 and
// the time, also for a second call whose notice the browser remembered. The voice SDK is the one
// fake and the provider's web chat a stand-in on loopback; the provider's webhook is posted as
// the provider would, after the page recorded the acceptance.
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { outputDir, VIEWPORTS } from './support/browser.mjs';
import { REPLY, SESSION_ID, startChatStandIn } from './support/chat-stand-in.mjs';
import { serveFakeSdk } from './support/fake-voice-sdk.mjs';
import { gotoHydrated } from './support/landing.mjs';
import { startServer } from './support/server.mjs';
import { expect, test } from './support/test.mjs';
import { chatNoticeText, consentText } from './support/voice-consent.mjs';

/** As `openssl rand -hex 32` makes one (ADMIN_TOKEN needs at least 32 characters). */
const ADMIN_TOKEN = 'e2e0notices0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a';
const VOICE_SECRET = 'e2e0notices0voice0secret0a1b2c3d4e5f6071';

const PAGES = {
  '/': {
    lang: 'en',
    callTitle: 'Before you call',
    accept: 'Accept and call',
    call: /^You are about to talk to an artificial intelligence assistant, not a person\. The call is (not )?recorded/,
    chat: /^You are writing to an artificial intelligence assistant, not a person\. We keep the conversation/,
    privacy: 'Privacy notice',
    privacyPath: '/privacy',
    panel: {
      title: 'Chat with the assistant',
      input: 'Your message',
      send: 'Send',
      close: 'Close chat',
    },
  },
  '/es/': {
    lang: 'es',
    callTitle: 'Antes de llamar',
    accept: 'Aceptar y llamar',
    call: /^Vas a hablar con un asistente de inteligencia artificial, no con una persona\. La llamada (no )?se graba/,
    chat: /^Estás escribiendo a un asistente de inteligencia artificial, no a una persona\. Guardamos la conversación/,
    privacy: 'Aviso de privacidad',
    privacyPath: '/es/privacy',
    panel: {
      title: 'Chat con el asistente',
      input: 'Tu mensaje',
      send: 'Enviar',
      close: 'Cerrar chat',
    },
  },
};

const sha256 = (text) => createHash('sha256').update(text).digest('hex');

/** A message of the provider's to the site's webhook, as the provider signs it. */
async function providerSays(server, message) {
  const response = await fetch(new URL('/api/vapi/webhook', server.url), {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-vapi-secret': VOICE_SECRET },
    body: JSON.stringify({ message }),
  });
  expect(response.status, JSON.stringify(message)).toBe(200);
}

/** The conversation's `notice_accepted` in the admin API (null until it is kept). */
async function noticeAccepted(server, callId) {
  const response = await fetch(
    new URL(`/api/admin/conversations/${encodeURIComponent(callId)}`, server.url),
    { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } },
  );
  if (response.status === 404) return null;
  expect(response.status).toBe(200);
  const { notice_accepted: accepted } = await response.json();
  if (!accepted) return null;
  expect(Number.isNaN(Date.parse(accepted.at)), accepted.at).toBe(false);
  return { text: accepted.text, sha256: accepted.sha256, language: accepted.language };
}

test.describe("the notices in the page's language", () => {
  for (const [path, expected] of Object.entries(PAGES)) {
    test(`on ${path} at 390x844, the call's notice and the chat's (first, before any message) are in ${expected.lang}, and each acceptance is kept with its conversation`, async ({
      openPage,
    }) => {
      const chatStandIn = await startChatStandIn();
      const server = await startServer({
        env: {
          VAPI_PUBLIC_KEY: 'pk-e2e',
          VAPI_ASSISTANT_ID: 'asst-e2e',
          VAPI_API_BASE_URL: chatStandIn.url,
          VAPI_WEBHOOK_SECRET: VOICE_SECRET,
          ADMIN_TOKEN,
        },
      });
      const { page, context } = await openPage({
        viewport: VIEWPORTS.mobile,
        hasTouch: true,
        isMobile: true,
      });
      try {
        await serveFakeSdk(context);
        await gotoHydrated(page, new URL(path, server.url).href);

        const voice = page.getByRole('button', {
          name: 'Habla con nuestro asistente',
          exact: true,
        });
        await voice.click();
        const call = page.getByRole('dialog', { name: expected.callTitle });
        await expect(call).toBeVisible();
        await expect(call).toHaveAttribute('lang', expected.lang);
        await expect(call.locator('#voice-consent-text')).toHaveText(expected.call);
        await expect(call.getByRole('link', { name: expected.privacy })).toHaveAttribute(
          'href',
          expected.privacyPath,
        );
        const box = await call.boundingBox();
        expect(box.x >= 0 && box.x + box.width <= VIEWPORTS.mobile.width, 'on the screen').toBe(
          true,
        );
        await page.screenshot({ path: join(outputDir, `notice-call-${expected.lang}.png`) });
        await page.keyboard.press('Escape');
        await expect(call).not.toBeAttached();

        const chatButton = page.getByRole('button', { name: 'Escribir al asistente', exact: true });
        await chatButton.click();
        const chat = page.getByRole('dialog', { name: expected.panel.title });
        await expect(chat).toBeVisible();
        await expect(chat).toHaveAttribute('lang', expected.lang);
        await expect(chat).toHaveAccessibleDescription(expected.chat);
        const log = chat.getByRole('log', { name: expected.panel.title });
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
        await expect(chat.getByRole('button', { name: expected.panel.close })).toBeVisible();
        await expect(chat.getByRole('button', { name: expected.panel.send })).toBeVisible();
        await page.screenshot({ path: join(outputDir, `notice-chat-${expected.lang}.png`) });

        // Writing after the notice accepts it: recorded once the reply names the chat's session.
        const input = chat.getByRole('textbox', { name: expected.panel.input });
        await input.fill('Hola');
        await page.keyboard.press('Enter');
        await expect(log.getByText(REPLY)).toBeVisible();
        await page.keyboard.press('Escape');
        await expect(chat).not.toBeAttached();

        // The call's notice accepted: recorded once the provider names the call.
        await voice.click();
        await call.getByRole('button', { name: expected.accept }).click();
        await expect
          .poll(() => page.evaluate(() => globalThis.fakeVapi?.startCalls.length))
          .toBe(1);
        const firstCall = `call-first-${expected.lang}`;
        await page.evaluate((id) => globalThis.fakeVapi.answerStart(id), firstCall);
        const inCall = page.getByRole('button', {
          name: 'Haz clic para finalizar llamada',
          exact: true,
        });
        await inCall.click();
        // The next call, the notice remembered by the browser: recorded for it too.
        await voice.click();
        await expect
          .poll(() => page.evaluate(() => globalThis.fakeVapi?.startCalls.length))
          .toBe(2);
        await expect(call, 'no notice: the browser remembered it').not.toBeAttached();
        const secondCall = `call-second-${expected.lang}`;
        await page.evaluate((id) => globalThis.fakeVapi.answerStart(id), secondCall);
        await inCall.click();
        await expect(voice).toBeVisible();

        // The provider's reports come after the page's posts; each conversation has its own.
        const callText = consentText(expected.lang);
        const chatText = chatNoticeText(expected.lang);
        const chatTurn = (id) => ({
          type: 'chat.created',
          chat: {
            id,
            sessionId: SESSION_ID,
            input: 'Hola',
            output: [{ role: 'assistant', content: REPLY }],
          },
        });
        await providerSays(server, chatTurn('turn-1'));
        for (const id of [firstCall, secondCall])
          await providerSays(server, {
            type: 'end-of-call-report',
            call: { id },
            endedReason: 'customer-ended-call',
            artifact: { transcript: 'AI: Hola' },
          });
        const accepted = (text) => ({ text, sha256: sha256(text), language: expected.lang });
        for (const id of [firstCall, secondCall])
          await expect.poll(() => noticeAccepted(server, id), id).toEqual(accepted(callText));
        await expect
          .poll(() => noticeAccepted(server, `chat:${SESSION_ID}`))
          .toEqual(accepted(chatText));
      } finally {
        await context.close();
        await server.stop();
        await chatStandIn.stop();
      }
    });
  }
});
