import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { StrictMode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createSpeakingDetector } from '../session/speaking';
import { VoiceSession } from '../session/voice-session';
import { FakeVapi } from '../testing/fake-vapi.mjs';
import { VoiceAssistant, type Handover } from './VoiceAssistant';
import { VoiceIsland } from './VoiceIsland';
import { consentText } from '../texts';
import { language } from '../../../language';

// The names docs/product.md §2 gives the button, and the content's for the chat, written out so a
// changed text fails a test.
const IDLE = 'Habla con nuestro asistente';
const CONNECTING = 'Conectando...';
const CHAT = 'Escribir al asistente';

// jsdom lacks ResizeObserver, which Radix's tooltip positioning asks for when it opens on focus.
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};
// Nor PointerEvent, which the handover of a resting mouse dispatches.
globalThis.PointerEvent ??= class extends MouseEvent {
  readonly pointerType: string;
  constructor(type: string, init: PointerEventInit = {}) {
    super(type, init);
    this.pointerType = init.pointerType ?? '';
  }
} as typeof PointerEvent;

/**
 * The island with the real assistant and session (the SDK is the one fake), whose code arrives
 * when the test says: `arrive()`.
 */
function setup() {
  const session = new VoiceSession({
    loadConfig: async () => ({
      publicKey: 'pk-test',
      assistantId: 'asst-1',
      apiBaseUrl: null,
    }),
    loadSdk: async () => FakeVapi,
    createDetector: createSpeakingDetector,
  });
  let arrive = () => {};
  const arrived = new Promise<void>((resolve) => (arrive = resolve));
  const loadAssistant = vi.fn(async () => {
    await arrived;
    await session.checkAvailability();
    return (props: { handover: Handover }) => <VoiceAssistant session={session} {...props} />;
  });
  render(
    <StrictMode>
      <VoiceIsland loadAssistant={loadAssistant} />
    </StrictMode>,
  );
  return {
    loadAssistant,
    arrive: () => act(async () => arrive()),
    user: userEvent.setup(),
  };
}

const idleButton = () => screen.getByRole('button', { name: IDLE });
const startCalls = () => FakeVapi.instances.at(-1)?.startCalls ?? [];

// The notice before the first call, accepted (VoiceAssistant.test.tsx tests it).
beforeEach(() => localStorage.setItem('voice-consent-accepted', consentText));
afterEach(() => {
  cleanup();
  FakeVapi.instances.length = 0;
  vi.restoreAllMocks();
});

describe('the voice island before and after the visitor comes near', () => {
  it('shows the idle buttons in the region without fetching the assistant', () => {
    const { loadAssistant } = setup();
    expect(screen.getByRole('region', { name: 'Asistente de voz' })).toBeInTheDocument();
    expect(idleButton()).toHaveAttribute('data-phase', 'idle');
    expect(idleButton().className).toMatch(/from-brand-600/);
    // Its entrance is CSS, cut under prefers-reduced-motion (index.css).
    expect(idleButton()).toHaveClass('voice-enter');
    expect(screen.getByRole('button', { name: CHAT })).toHaveAttribute('aria-expanded', 'false');
    expect(loadAssistant).not.toHaveBeenCalled();
  });

  it('a pointer over the region fetches the assistant, which takes the same place', async () => {
    const { loadAssistant, arrive, user } = setup();
    const idle = idleButton();
    await user.hover(idle);
    expect(loadAssistant).toHaveBeenCalledTimes(1);
    await arrive();
    expect(idle).not.toBeInTheDocument();
    expect(idleButton()).toHaveAttribute('data-phase', 'idle');
    expect(idleButton().className).toBe(idle.className.replace(/ voice-enter$/, ''));
    // The mouse resting there opens the tooltip after its delay, as if it had just moved.
    expect(await screen.findByRole('tooltip', {}, { timeout: 2000 })).toHaveTextContent(IDLE);
  });

  it('a click before the assistant arrives starts the call once it is there, once', async () => {
    const { arrive, user } = setup();
    await user.click(idleButton());
    await user.click(idleButton()); // a second tap while waiting asks for the same call
    await arrive();
    await screen.findByRole('button', { name: CONNECTING });
    await vi.waitFor(() => expect(startCalls()).toEqual(['asst-1']));
  });

  it('keyboard focus moves to the assistant’s button', async () => {
    const { arrive, user } = setup();
    await user.tab();
    await user.tab();
    const idle = idleButton();
    expect(idle).toHaveFocus();
    await arrive();
    expect(idle).not.toBeInTheDocument();
    expect(idleButton()).toHaveFocus();
    expect(await screen.findByRole('tooltip')).toHaveTextContent(IDLE);
  });

  it('waits for a press to end, so its click lands where it began', async () => {
    const { arrive, user } = setup();
    const idle = idleButton();
    await user.pointer({ keys: '[MouseLeft>]', target: idle });
    await arrive();
    expect(idle).toBeInTheDocument();
    await user.pointer({ keys: '[/MouseLeft]', target: idle });
    await screen.findByRole('button', { name: CONNECTING });
    await vi.waitFor(() => expect(startCalls()).toEqual(['asst-1']));
  });

  it('a click on the chat control before the assistant arrives opens the chat', async () => {
    const { arrive, user } = setup();
    await user.click(screen.getByRole('button', { name: CHAT }));
    await arrive();
    const title = language === 'es' ? 'Chat con el asistente' : 'Chat with the assistant';
    expect(await screen.findByRole('dialog', { name: title })).toBeVisible();
    expect(screen.getByRole('button', { name: CHAT, hidden: true })).toHaveAttribute(
      'aria-expanded',
      'true',
    );
  });
});
