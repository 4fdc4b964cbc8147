import { act, cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { StrictMode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { VoiceConfig } from '../../../lib/client-config';
import { createSpeakingDetector } from '../session/speaking';
import { VoiceSession } from '../session/voice-session';
import { FakeVapi } from '../testing/fake-vapi.mjs';
import { VoiceAssistant } from './VoiceAssistant';
import { language } from '../../../language';
import { recording } from 'virtual:site-content/assistant';
import { consentText } from '../texts';

// The texts the visitor and the console get, written out here rather than imported from the
// code under test, so a changed text fails a test: the button's names are docs/product.md §2's,
// the console lines §8's.
const tooltip = {
  idle: 'Habla con nuestro asistente',
  connecting: 'Conectando...',
  inCall: 'Haz clic para finalizar llamada',
};
const failureMessage = {
  permission: 'Permite el acceso al micrófono para hablar con el asistente.',
  micInUse: 'Tu micrófono está en uso por otra aplicación. Ciérrala e inténtalo de nuevo.',
  unavailable: 'El asistente no está disponible ahora. Inténtalo más tarde.',
};
const consoleLine = {
  started: 'Llamada iniciada',
  ended: 'Llamada terminada',
  connectFailed: 'Error connecting to Vapi',
  callError: 'Error en la llamada de voz',
  ejectionIgnored: 'La sala de la llamada se cerró tras terminar (ignorado)',
  configFailed: 'No se pudo leer la configuración del asistente de voz',
};
/** The microphone's silence that brings up the "no te escuchamos" hint (ms). */
const SILENCE_HINT_AFTER_MS = 6000;
/** An exit animation (0.18 s) is long over after this (ms). */
const EXIT_DONE_WITHIN_MS = 1800;

// jsdom lacks ResizeObserver, which Radix's tooltip positioning asks for when it opens on focus.
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};

// framer-motion reads prefers-reduced-motion once per page and then follows the query's change
// events, so the file shares one query whose answer a test can change.
const reducedMotionQuery = Object.assign(new EventTarget(), {
  matches: false,
  media: '(prefers-reduced-motion)',
});
function prefersReducedMotion(matches: boolean) {
  reducedMotionQuery.matches = matches;
  reducedMotionQuery.dispatchEvent(new Event('change'));
}
window.matchMedia = ((query: string) =>
  query === reducedMotionQuery.media
    ? reducedMotionQuery
    : { matches: false, media: query }) as typeof window.matchMedia;

const CONFIG: VoiceConfig = {
  publicKey: 'pk-test',
  assistantId: 'asst-1',
  apiBaseUrl: null,
};

let clock = 0;
type Spy = ReturnType<typeof vi.spyOn>;
let logs: { log: Spy; info: Spy; error: Spy; warn: Spy };
let expectedConsole: Set<'error' | 'warn'>;

/** The test expects console.error or console.warn lines: they are then kept out of the output. */
function expectConsole(method: 'error' | 'warn') {
  expectedConsole.add(method);
  logs[method].mockImplementation(() => {});
}

function setup(
  config: VoiceConfig | null = CONFIG,
  { strict = false, loadConfig = async () => config } = {},
) {
  const loadSdk = vi.fn(async () => FakeVapi);
  const noticeAccepted = vi.fn();
  const session = new VoiceSession({
    loadConfig,
    loadSdk,
    createDetector: createSpeakingDetector,
    noticeAccepted,
    now: () => clock,
  });
  const ui = <VoiceAssistant session={session} />;
  render(strict ? <StrictMode>{ui}</StrictMode> : ui);
  return { session, loadSdk, noticeAccepted, user: userEvent.setup() };
}

const fake = () => FakeVapi.instances.at(-1)!;
const button = (name: string) => screen.getByRole('button', { name });
const act$ = (fn: () => void) => act(async () => fn());

async function startCall(user: ReturnType<typeof userEvent.setup>) {
  const before = FakeVapi.instances.at(-1)?.startCalls.length ?? 0;
  await user.click(await screen.findByRole('button', { name: tooltip.idle }));
  await screen.findByRole('button', { name: tooltip.connecting });
  await vi.waitFor(() => expect(fake().startCalls).toHaveLength(before + 1));
  await act$(() => fake().answerStart());
  return screen.findByRole('button', { name: tooltip.inCall });
}

beforeEach(() => {
  FakeVapi.instances.length = 0;
  clock = 0;
  localStorage.clear();
  // The notice before the first call, accepted: its own tests below take this back.
  localStorage.setItem('voice-consent-accepted', consentText);
  sessionStorage.clear();
  // The Spanish log and info lines are the widget's own output, asserted below; errors and
  // warnings pass through and fail the test unless it expects them (expectConsole).
  logs = {
    log: vi.spyOn(console, 'log').mockImplementation(() => {}),
    info: vi.spyOn(console, 'info').mockImplementation(() => {}),
    error: vi.spyOn(console, 'error'),
    warn: vi.spyOn(console, 'warn'),
  };
  expectedConsole = new Set();
});
afterEach(() => {
  cleanup();
  const unexpected = (['error', 'warn'] as const)
    .filter((method) => !expectedConsole.has(method))
    .flatMap((method) =>
      logs[method].mock.calls.map(
        (call: unknown[]) => `console.${method}: ${call.map(String).join(' ')}`,
      ),
    );
  vi.restoreAllMocks();
  expect(unexpected).toEqual([]);
});

describe('voice button states', () => {
  it('idle -> connecting -> in call -> idle by click, with the Spanish console lines', async () => {
    const { user } = setup();
    const idle = await screen.findByRole('button', { name: tooltip.idle });
    expect(idle).toHaveAttribute('data-phase', 'idle');
    expect(screen.getByRole('region', { name: 'Asistente de voz' })).toHaveAttribute('lang', 'es');
    await user.click(idle);
    // The new phase renders after the tap's own frame has been painted.
    const connecting = await screen.findByRole('button', { name: tooltip.connecting });
    expect(connecting).toHaveAttribute('aria-busy', 'true');
    await vi.waitFor(() => expect(fake().startCalls).toEqual(['asst-1']));
    // In the page's language: this build's (SITE_LANGUAGE=es runs this for /es/).
    expect(fake().startOverrides).toEqual([
      { variableValues: { language }, metadata: { language } },
    ]);
    expect(language).toBe(process.env.SITE_LANGUAGE || 'en');
    expect(fake().publicKey).toBe('pk-test');
    expect(fake().dailyCallConfig).toEqual({ avoidEval: true });

    await act$(() => fake().answerStart());
    const inCall = await screen.findByRole('button', { name: tooltip.inCall });
    expect(screen.getByTestId('voice-status-dot')).toBeInTheDocument();
    expect(logs.log).toHaveBeenCalledWith(consoleLine.started);

    await act$(() => fake().assistantListening());
    expect(
      logs.log.mock.calls.filter((call: unknown[]) => call[0] === consoleLine.started),
    ).toHaveLength(1);

    await user.click(inCall);
    expect(await screen.findByRole('button', { name: tooltip.idle })).toHaveFocus();
    expect(fake().stopCalls).toBe(1);
    expect(logs.log).toHaveBeenCalledWith(consoleLine.ended);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('call-start alone (the assistant is listening) also means in call', async () => {
    const { user } = setup();
    await user.click(await screen.findByRole('button', { name: tooltip.idle }));
    await vi.waitFor(() => expect(fake().startCalls).toHaveLength(1));
    await act$(() => fake().assistantListening());
    await screen.findByRole('button', { name: tooltip.inCall });
  });

  it('goes back to idle on call-end without any message', async () => {
    const { user } = setup();
    await startCall(user);
    await act$(() => fake().leave());
    await screen.findByRole('button', { name: tooltip.idle });
    expect(screen.queryByRole('alert')).toBeNull();
    expect(logs.log).toHaveBeenCalledWith(consoleLine.ended);
  });

  it('does not show the "Meeting has ended" ejection that follows a normal end', async () => {
    const { user } = setup();
    await startCall(user);
    await act$(() => fake().assistantEndsCall());
    await screen.findByRole('button', { name: tooltip.idle });
    expect(screen.queryByRole('alert')).toBeNull();
    expect(logs.error).not.toHaveBeenCalled();
    expect(logs.info).toHaveBeenCalledWith(consoleLine.ejectionIgnored);
  });

  it('an error during a call ends it, stops the SDK and says so', async () => {
    expectConsole('error');
    const { user } = setup();
    await startCall(user);
    await act$(() =>
      fake().emit('error', { type: 'daily-error', error: { message: 'connection lost' } }),
    );
    await screen.findByRole('button', { name: tooltip.idle });
    expect(screen.getByRole('alert')).toHaveTextContent(failureMessage.unavailable);
    expect(logs.error).toHaveBeenCalledWith(consoleLine.callError, expect.anything());
    expect(fake().stopCalls).toBe(1);
  });

  it('a non-fatal SDK error (noise cancellation) keeps the call', async () => {
    expectConsole('warn');
    const { user } = setup();
    await startCall(user);
    await act$(() =>
      fake().emit('error', { type: 'audio-processing-setup-error', error: { message: 'Krisp' } }),
    );
    expect(button(tooltip.inCall)).toBeInTheDocument();
  });

  it('start() returning null is a failure: idle, console line, visible message', async () => {
    expectConsole('error');
    const { user } = setup();
    await user.click(await screen.findByRole('button', { name: tooltip.idle }));
    await vi.waitFor(() => expect(fake().startCalls).toHaveLength(1));
    await act$(() => fake().returnNull());
    await screen.findByRole('button', { name: tooltip.idle });
    expect(logs.error).toHaveBeenCalledWith(consoleLine.connectFailed, expect.anything());
    expect(screen.getByRole('alert')).toHaveTextContent(failureMessage.unavailable);
  });

  it.each([
    [{ message: 'Request failed with status 500' }, failureMessage.unavailable],
    [{ name: 'NotAllowedError', message: 'Permission denied' }, failureMessage.permission],
    [
      { name: 'NotReadableError', message: 'Could not start audio source' },
      failureMessage.micInUse,
    ],
  ])('call-start-failed with %o shows the matching message', async (error, message) => {
    expectConsole('error');
    expectConsole('warn'); // the SDK's 'error' event after call-start-failed
    const { user } = setup();
    await user.click(await screen.findByRole('button', { name: tooltip.idle }));
    await vi.waitFor(() => expect(fake().startCalls).toHaveLength(1));
    await act$(() => fake().failStart(error));
    await screen.findByRole('button', { name: tooltip.idle });
    expect(screen.getByRole('alert')).toHaveTextContent(message);
    expect(logs.error).toHaveBeenCalledWith(consoleLine.connectFailed, expect.anything());
    expect(logs.error).toHaveBeenCalledTimes(1);
  });

  it('a microphone blocked during the call (camera-error) ends it with the permission message', async () => {
    expectConsole('error');
    const { user } = setup();
    await startCall(user);
    await act$(() =>
      fake().emit('camera-error', {
        type: 'camera-error',
        error: { error: { type: 'permissions', blockedBy: 'user', blockedMedia: ['audio'] } },
      }),
    );
    await screen.findByRole('button', { name: tooltip.idle });
    expect(screen.getByRole('alert')).toHaveTextContent(failureMessage.permission);
  });

  it('ignores a second start while connecting', async () => {
    const { user } = setup();
    const idle = await screen.findByRole('button', { name: tooltip.idle });
    await user.click(idle);
    await user.click(idle);
    await user.keyboard('{Enter}');
    await vi.waitFor(() => expect(fake().startCalls).toHaveLength(1));
    expect(FakeVapi.instances).toHaveLength(1);
    expect(button(tooltip.connecting)).toBeInTheDocument();
  });

  it('keeps one SDK instance for the page under StrictMode and across calls', async () => {
    const { user, loadSdk } = setup(CONFIG, { strict: true });
    await startCall(user);
    await user.click(button(tooltip.inCall));
    await startCall(user);
    expect(FakeVapi.instances).toHaveLength(1);
    expect(loadSdk).toHaveBeenCalledTimes(1);
    expect(fake().listenerCount('call-end')).toBe(1);
  });

  it('does not load the SDK before the first click or hover', async () => {
    const { loadSdk, user } = setup();
    await screen.findByRole('button', { name: tooltip.idle });
    expect(loadSdk).not.toHaveBeenCalled();
    await user.hover(button(tooltip.idle));
    await vi.waitFor(() => expect(loadSdk).toHaveBeenCalledTimes(1));
    expect(fake().startCalls).toHaveLength(0);
  });
});

describe('whether the button is shown', () => {
  it('not at all when voice is not configured, and the SDK is never loaded', async () => {
    const loadConfig = vi.fn(async () => null);
    const { session, loadSdk } = setup(null, { loadConfig });
    await act$(() => void session.checkAvailability());
    expect(loadConfig).toHaveBeenCalled();
    expect(screen.queryByRole('region', { name: 'Asistente de voz' })).toBeNull();
    expect(screen.queryByRole('button')).toBeNull();
    expect(loadSdk).not.toHaveBeenCalled();
  });

  it('when the configuration cannot be fetched, idle, and each click asks again', async () => {
    let online = false;
    const loadConfig = vi.fn(async () => {
      if (!online) throw new Error('offline');
      return CONFIG;
    });
    expectConsole('warn');
    const { user } = setup(null, { loadConfig });
    const idle = await screen.findByRole('button', { name: tooltip.idle });
    expect(idle).toHaveAttribute('data-phase', 'idle');
    expect(idle.className).toMatch(/from-brand-600/);

    const asked = loadConfig.mock.calls.length;
    await user.click(idle);
    expect(await screen.findByRole('alert')).toHaveTextContent(failureMessage.unavailable);
    expect(loadConfig.mock.calls.length).toBeGreaterThan(asked);
    expect(logs.warn).toHaveBeenCalledWith(consoleLine.configFailed, new Error('offline'));

    online = true;
    await user.click(button(tooltip.idle));
    await vi.waitFor(() => expect(fake().startCalls).toEqual(['asst-1']));
    expect(screen.queryByRole('alert')).toBeNull();
  });
});

describe('captions panel', () => {
  const phone = (matches: boolean) =>
    vi
      .spyOn(window, 'matchMedia')
      .mockImplementation((query) => ({ matches, media: query }) as MediaQueryList);

  it('starts closed on a phone; the toggle opens it and the choice holds for the next call', async () => {
    phone(true);
    const { user } = setup();
    await startCall(user);
    const toggle = screen.getByRole('button', { name: 'Subtítulos de la conversación' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('region', { name: 'Conversación con el asistente' })).toBeNull();
    await user.click(toggle);
    expect(
      screen.getByRole('region', { name: 'Conversación con el asistente' }),
    ).toBeInTheDocument();

    await user.click(button(tooltip.inCall));
    await startCall(user);
    expect(
      screen.getByRole('region', { name: 'Conversación con el asistente' }),
    ).toBeInTheDocument();
  });

  it('starts open on a wider screen', async () => {
    phone(false);
    const { user } = setup();
    await startCall(user);
    expect(
      screen.getByRole('region', { name: 'Conversación con el asistente' }),
    ).toBeInTheDocument();
  });
});

describe('in-call controls', () => {
  it('mute toggles with aria-pressed', async () => {
    const { user } = setup();
    await startCall(user);
    const mute = screen.getByRole('button', { name: 'Silenciar micrófono' });
    expect(mute).toHaveAttribute('aria-pressed', 'false');
    await user.click(mute);
    expect(mute).toHaveAttribute('aria-pressed', 'true');
    expect(fake().muted).toBe(true);
    expect(screen.getByRole('status')).toHaveTextContent('Tu micrófono está silenciado.');
    await user.click(mute);
    expect(mute).toHaveAttribute('aria-pressed', 'false');
  });

  it('shows live captions from transcript messages in a polite live region', async () => {
    const { user } = setup();
    await startCall(user);
    const panel = screen.getByRole('region', { name: 'Conversación con el asistente' });
    await act$(() => fake().say('assistant', 'Hola, ¿en qué', 'partial'));
    expect(panel).toHaveTextContent('Asistente: Hola, ¿en qué');
    await act$(() => fake().say('assistant', 'Hola, ¿en qué puedo ayudarte?'));
    await act$(() => fake().say('user', 'Quiero un seguro familiar'));
    const live = panel.querySelector('[aria-live="polite"]')!;
    expect(
      within(live as HTMLElement)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Asistente: Hola, ¿en qué puedo ayudarte?', 'Tú: Quiero un seguro familiar']);
  });

  it('Escape closes the panel and focus goes to its toggle; a call end returns focus to the button', async () => {
    const { user } = setup();
    await startCall(user);
    await user.click(screen.getByRole('button', { name: 'Cerrar subtítulos' }));
    const toggle = screen.getByRole('button', { name: 'Subtítulos de la conversación' });
    expect(toggle).toHaveFocus();
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await user.keyboard('{Enter}');
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    screen.getByRole('button', { name: 'Cerrar subtítulos' }).focus();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('region', { name: 'Conversación con el asistente' })).toBeNull();
    expect(toggle).toHaveFocus();
    await act$(() => fake().leave());
    expect(await screen.findByRole('button', { name: tooltip.idle })).toHaveFocus();
  });

  it('the ring follows the assistant level from the wasm-core detector', async () => {
    const { user } = setup();
    await startCall(user);
    await act$(() => fake().emit('volume-level', 0.8));
    const ring = screen.getByTestId('voice-level-ring');
    expect(ring).toHaveAttribute('data-level', '0.8');
    expect(ring).toHaveAttribute('data-speaking', 'true');
    clock = 1000;
    await act$(() => fake().emit('volume-level', 0));
    expect(ring).toHaveAttribute('data-level', '0');
    expect(ring).toHaveAttribute('data-speaking', 'false');
  });

  it('hints "no te escuchamos" after the microphone has been silent, and hides it on sound', async () => {
    const { user } = setup();
    await startCall(user);
    const status = screen.getByRole('status');
    await act$(() => fake().emit('local-volume-level', 0));
    clock = SILENCE_HINT_AFTER_MS - 100;
    await act$(() => fake().emit('local-volume-level', 0.005));
    expect(status).toBeEmptyDOMElement();
    clock = SILENCE_HINT_AFTER_MS;
    await act$(() => fake().emit('local-volume-level', 0));
    expect(status).toHaveTextContent(/No te escuchamos/);
    clock += 100;
    await act$(() => fake().emit('local-volume-level', 0.3));
    expect(status).toBeEmptyDOMElement();
  });
});

describe('consent notice', () => {
  beforeEach(() => localStorage.clear());

  // The page's language, this build's (SITE_LANGUAGE=es runs this for /es/).
  const notice =
    language === 'es'
      ? {
          title: 'Antes de llamar',
          privacy: 'Aviso de privacidad',
          accept: 'Aceptar y llamar',
          start: /^Vas a hablar con un asistente de inteligencia artificial/,
          kept: 'guardamos',
          recorded: 'La llamada se graba',
          unrecorded: 'La llamada no se graba',
        }
      : {
          title: 'Before you call',
          privacy: 'Privacy notice',
          accept: 'Accept and call',
          start: /^You are about to talk to an artificial intelligence assistant/,
          kept: 'we keep',
          recorded: 'The call is recorded',
          unrecorded: 'The call is not recorded',
        };

  it("says in the page's language that an AI answers, that the conversation is kept, and that the call is recorded only when calls are", () => {
    expect(consentText).toMatch(notice.start);
    expect(consentText).toContain(notice.kept);
    // content/assistant.yaml's `recording`, as the build read it.
    expect(consentText).toContain(recording ? notice.recorded : notice.unrecorded);
  });

  it('is shown before the first call, can be cancelled, and is remembered once accepted', async () => {
    const { user } = setup();
    const idle = await screen.findByRole('button', { name: tooltip.idle });
    await user.click(idle);
    const dialog = screen.getByRole('dialog', { name: notice.title });
    expect(dialog).toHaveAccessibleDescription(consentText);
    expect(dialog).toHaveAttribute('lang', language);
    expect(within(dialog).getByRole('link', { name: notice.privacy })).toHaveAttribute(
      'href',
      language === 'es' ? '/es/privacy' : '/privacy',
    );
    // Radix moves focus into the dialog, and back out of it, a task after it opens or closes.
    await vi.waitFor(() =>
      expect(screen.getByRole('button', { name: notice.accept })).toHaveFocus(),
    );
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    await vi.waitFor(() => expect(idle).toHaveFocus());
    expect(fake().startCalls).toHaveLength(0); // loaded by the hover prefetch, not started

    await user.keyboard(' '); // at once, while the cancelled notice is still leaving
    const accept = await screen.findByRole('button', { name: notice.accept });
    await vi.waitFor(() => expect(accept).toHaveFocus());
    await user.click(accept);
    await vi.waitFor(() => expect(fake().startCalls).toHaveLength(1));
    expect(localStorage.getItem('voice-consent-accepted')).toBe(consentText);
    await act$(() => fake().answerStart());
    await user.click(await screen.findByRole('button', { name: tooltip.inCall }));
    await user.click(await screen.findByRole('button', { name: tooltip.idle }));
    expect(screen.queryByRole('dialog')).toBeNull();
    await vi.waitFor(() => expect(fake().startCalls).toHaveLength(2));
  });

  it("is recorded under each call's id once the call has one, accepted now or remembered", async () => {
    const { user, noticeAccepted } = setup();
    await user.click(await screen.findByRole('button', { name: tooltip.idle }));
    await user.click(await screen.findByRole('button', { name: notice.accept }));
    await vi.waitFor(() => expect(fake().startCalls).toHaveLength(1));
    expect(noticeAccepted, 'not before the provider names the call').not.toHaveBeenCalled();
    await act$(() => fake().answerStart());
    await screen.findByRole('button', { name: tooltip.inCall });
    expect(noticeAccepted.mock.calls).toEqual([['call-1']]);
    await user.click(button(tooltip.inCall));

    // The next call, the notice remembered: recorded under the new call's id too.
    await user.click(await screen.findByRole('button', { name: tooltip.idle }));
    await vi.waitFor(() => expect(fake().startCalls).toHaveLength(2));
    await act$(() => fake().answerStart());
    await screen.findByRole('button', { name: tooltip.inCall });
    expect(noticeAccepted).toHaveBeenCalledTimes(2);
  });

  it('is not recorded for a call that never started', async () => {
    expectConsole('error');
    expectConsole('warn');
    localStorage.setItem('voice-consent-accepted', consentText);
    const { user, noticeAccepted } = setup();
    await user.click(await screen.findByRole('button', { name: tooltip.idle }));
    await vi.waitFor(() => expect(fake().startCalls).toHaveLength(1));
    await act$(() => fake().failStart());
    await screen.findByRole('alert');
    expect(noticeAccepted).not.toHaveBeenCalled();
  });

  it('is shown again once its text has changed', async () => {
    localStorage.setItem('voice-consent-accepted', 'Te atiende una IA.');
    const { user } = setup();
    await user.click(await screen.findByRole('button', { name: tooltip.idle }));
    expect(screen.getByRole('dialog', { name: notice.title })).toBeInTheDocument();
    expect(FakeVapi.instances.at(-1)?.startCalls ?? []).toHaveLength(0);
  });
});

describe('motion', () => {
  const panelName = 'Conversación con el asistente';
  afterEach(() => prefersReducedMotion(false));

  it('the captions panel fades in, leaves assistive technology at once when closed, and is removed after its exit', async () => {
    const { user } = setup();
    await startCall(user);
    const panel = screen.getByRole('region', { name: panelName });
    const wrapper = panel.parentElement!;
    expect(Number(wrapper.style.opacity)).toBeLessThan(1);
    await vi.waitFor(() => expect(wrapper.style.opacity).toBe('1'));

    await user.click(screen.getByRole('button', { name: 'Cerrar subtítulos' }));
    expect(screen.queryByRole('region', { name: panelName })).toBeNull();
    expect(panel).toBeInTheDocument();
    expect(wrapper).toHaveAttribute('aria-hidden', 'true');
    expect(wrapper).toHaveAttribute('inert');
    await vi.waitFor(() => expect(panel).not.toBeInTheDocument(), {
      timeout: EXIT_DONE_WITHIN_MS,
    });
  });

  it('the in-call controls leave with their exit when the call ends, focus back on the button', async () => {
    const { user } = setup();
    await startCall(user);
    const mute = screen.getByRole('button', { name: 'Silenciar micrófono' });
    mute.focus();
    await act$(() => fake().leave());
    expect(await screen.findByRole('button', { name: tooltip.idle })).toHaveFocus();
    expect(screen.queryByRole('button', { name: 'Silenciar micrófono' })).toBeNull();
    await vi.waitFor(() => expect(mute).not.toBeInTheDocument(), {
      timeout: EXIT_DONE_WITHIN_MS,
    });
  });

  it('under prefers-reduced-motion the panel is there at once, fully shown, and goes without an exit', async () => {
    expectConsole('warn'); // framer-motion's development notice that reduced motion is on
    prefersReducedMotion(true);
    const { user } = setup();
    await startCall(user);
    const panel = screen.getByRole('region', { name: panelName });
    expect(panel.parentElement!.style.opacity).not.toMatch(/^0/);
    expect(['', 'none']).toContain(panel.parentElement!.style.transform);
    expect(logs.warn).toHaveBeenCalledWith(expect.stringMatching(/Reduced Motion enabled/));

    await user.click(screen.getByRole('button', { name: 'Cerrar subtítulos' }));
    await vi.waitFor(() => expect(panel).not.toBeInTheDocument(), { timeout: 100 });
  });
});

describe('typing instead of talking', () => {
  // The controls beside the voice button stay Spanish; the panel is in the page's language.
  const chatTexts = {
    open: 'Escribir al asistente',
    openInstead: 'Escribir en su lugar',
    ...(language === 'es'
      ? { title: 'Chat con el asistente', inputLabel: 'Tu mensaje' }
      : { title: 'Chat with the assistant', inputLabel: 'Your message' }),
  };
  const sse = (...deltas: string[]) =>
    deltas
      .map(
        (delta) =>
          `data: ${JSON.stringify({ id: 'c', sessionId: 's-1', path: 'chat.output[0].content', delta })}\n\n`,
      )
      .join('') + 'data: [DONE]\n\n';

  it('the microphone denied offers the chat; Enter sends, the reply streams in, Escape returns focus', async () => {
    expectConsole('error');
    expectConsole('warn');
    const fetchMock = vi.fn(
      async () =>
        new Response(sse('Hola, ', '¿en qué te ayudo?'), {
          headers: { 'content-type': 'text/event-stream' },
        }),
    );
    vi.stubGlobal('fetch', fetchMock);
    const { user } = setup();
    await user.click(await screen.findByRole('button', { name: tooltip.idle }));
    await vi.waitFor(() => expect(fake().startCalls).toHaveLength(1));
    await act$(() => fake().failStart({ name: 'NotAllowedError', message: 'Permission denied' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(failureMessage.permission);
    await user.click(button(chatTexts.openInstead));

    const dialog = await screen.findByRole('dialog', { name: chatTexts.title });
    const input = within(dialog).getByRole('textbox', { name: chatTexts.inputLabel });
    await vi.waitFor(() => expect(input).toHaveFocus());
    await user.type(input, 'Quiero una cotización{Enter}');
    const log = within(dialog).getByRole('log');
    await vi.waitFor(() => expect(log).toHaveTextContent('Hola, ¿en qué te ayudo?'));
    expect(log).toHaveTextContent('Quiero una cotización');
    expect(input).toHaveValue('');
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('https://api.vapi.ai/chat/web');
    expect(JSON.parse(init.body as string)).toMatchObject({ assistantId: 'asst-1', stream: true });

    await user.keyboard('{Escape}');
    await vi.waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(button(chatTexts.open)).toHaveFocus();
    vi.unstubAllGlobals();
  });

  it('a failure that is not the microphone offers no chat in its notice; the control still does', async () => {
    expectConsole('error');
    expectConsole('warn');
    const { user } = setup();
    await user.click(await screen.findByRole('button', { name: tooltip.idle }));
    await vi.waitFor(() => expect(fake().startCalls).toHaveLength(1));
    await act$(() => fake().failStart({ message: 'Request failed with status 500' }));
    await screen.findByRole('alert');
    expect(screen.queryByRole('button', { name: chatTexts.openInstead })).toBeNull();
    expect(button(chatTexts.open)).toBeVisible();
  });
});
