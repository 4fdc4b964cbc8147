import { AnimatePresence } from 'framer-motion';
import {
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type ComponentType,
  type ComponentProps,
  type KeyboardEvent,
} from 'react';
import type ChatPanelComponent from '../../chat/ChatPanel';
import { TooltipProvider } from '../../../components/ui/tooltip';
import { afterNextPaint } from '../../../lib/after-next-paint';
import { captionsOpenAtStart, rememberCaptionsOpen } from '../preferences/captions-preference';
import { hasAcceptedConsent, rememberConsent } from '../preferences/consent';
import type { VoiceConfig } from '../../../lib/client-config';
import { pageVoiceSession } from '../session/page-session';
import { useVoiceSession } from '../session/use-voice-session';
import type { VoiceSession } from '../session/voice-session';
import { consentText, consoleLine } from '../texts';
import { CallControls } from './CallControls';
import { CaptionsPanel } from './CaptionsPanel';
import { ConsentNotice } from './ConsentNotice';
import { FailureNotice } from './FailureNotice';
import type { VoiceControl } from './IdleVoice';
import { Pop, VoiceMotion } from './motion';
import { VoiceButton } from './VoiceButton';
import { ChatButton, VoiceFrame } from './VoiceFrame';

// The chat's code (its panel, Radix Dialog, the stream reader) arrives when the visitor asks to
// type. Loaded by hand rather than with React.lazy: a failed download is logged and the next
// click tries again, instead of throwing through the island.
const loadChatPanel = () => import('../../chat/ChatPanel').then((module) => module.default);
type ChatPanelType = ComponentType<ComponentProps<typeof ChatPanelComponent>>;

/** What the idle buttons (VoiceIsland.tsx) hand over as the assistant takes their place. */
export interface Handover {
  /** The button the visitor clicked while the assistant was on its way. */
  action: VoiceControl | null;
  /** The button keyboard focus was on. */
  focus: VoiceControl | null;
  /** The button a mouse rests on, which has not seen it come. */
  hovered: VoiceControl | null;
}

/**
 * The floating voice assistant at the bottom right: button, in-call controls and panel. Shown
 * only when it can work: not while the server is being asked, never when voice is not configured.
 * On the page it takes over from the idle buttons (`handover`), which showed it first.
 */
export function VoiceAssistant({
  session = pageVoiceSession(),
  handover,
}: {
  session?: VoiceSession;
  handover?: Handover;
}) {
  const state = useVoiceSession(session);
  const [panelOpen, setPanelOpenState] = useState(false);
  const [consentOpen, setConsentOpen] = useState(false);
  const mainButton = useRef<HTMLButtonElement>(null);
  const panelToggle = useRef<HTMLButtonElement>(null);
  const chatButton = useRef<HTMLButtonElement>(null);
  const [chat, setChat] = useState<{
    Panel: ChatPanelType;
    config: VoiceConfig;
    open: boolean;
  } | null>(null);
  const focusInExtras = useRef(false);
  const handedOver = useRef(false);
  const panelId = useId();
  const inCall = state.phase === 'in-call';

  // Before the first paint, so the focus ring and the hover never leave the button.
  useLayoutEffect(() => {
    if (!handover || handedOver.current) return; // once, though StrictMode runs effects twice
    handedOver.current = true;
    const button = { call: mainButton, chat: chatButton };
    if (handover.focus) button[handover.focus].current?.focus({ preventScroll: true });
    // What the mouse's arrival on a button starts: the downloads it would need, and the voice
    // button's tooltip, which opens on a pointer's move that a resting mouse would not make.
    if (handover.hovered === 'chat') void loadChatPanel().catch(() => undefined);
    if (handover.hovered === 'call') {
      session.prefetch();
      // In a task of its own: StrictMode's second run of the effects (development) would clear
      // the tooltip's timer started in this one.
      setTimeout(() =>
        mainButton.current?.dispatchEvent(
          new PointerEvent('pointermove', { bubbles: true, pointerType: 'mouse' }),
        ),
      );
    }
    if (handover.action === 'call') void activate();
    else if (handover.action === 'chat') void openChat();
    // Only what the idle buttons saw, on arrival; later renders have nothing to hand over.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    // The visitor's remembered choice lives in localStorage, outside React: read when a call
    // starts, not during render (the prerendered HTML has no storage).
    // eslint-disable-next-line react-hooks/set-state-in-effect
    if (inCall) setPanelOpenState(captionsOpenAtStart());
  }, [inCall]);
  const setPanelOpen = (open: boolean) => {
    rememberCaptionsOpen(open);
    setPanelOpenState(open);
  };

  // The in-call controls and notices disappear when a call ends or a notice closes; focus
  // that was on them goes back to the main button instead of being lost to the page.
  const extrasShown = inCall || state.failure !== null || consentOpen;
  useEffect(() => {
    if (!extrasShown && focusInExtras.current) {
      focusInExtras.current = false;
      mainButton.current?.focus();
    }
  }, [extrasShown]);

  async function activate() {
    if (state.phase === 'idle') {
      const config = await session.checkAvailability();
      if (!config) {
        session.reportMissingConfig();
        return;
      }
      // The notice before the first call (the content's), until the visitor accepts this text.
      if (!hasAcceptedConsent(consentText)) {
        setConsentOpen(true);
        return;
      }
    }
    // The tap's own frame (the pressed button) is painted before the new phase's render, the
    // costliest part of the tap on a slow phone.
    await afterNextPaint();
    session.toggle();
  }

  /** Typing instead of talking: the same assistant, through the provider's web chat. */
  async function openChat() {
    session.dismissFailure();
    const config = await session.checkAvailability();
    if (!config) {
      session.reportMissingConfig();
      return;
    }
    try {
      const Panel = await loadChatPanel();
      setChat({ Panel, config, open: true });
    } catch (error) {
      console.error(consoleLine.chatLoadFailed, error);
    }
  }

  function closeConsent(accepted: boolean) {
    if (accepted) rememberConsent(consentText);
    setConsentOpen(false);
    mainButton.current?.focus();
    if (accepted) void session.start();
  }

  function onKeyDown(event: KeyboardEvent) {
    if (event.key !== 'Escape') return;
    if (consentOpen) closeConsent(false);
    else if (state.failure) {
      session.dismissFailure();
      mainButton.current?.focus();
    } else if (inCall && panelOpen) {
      setPanelOpen(false);
      panelToggle.current?.focus();
    } else return;
    event.stopPropagation();
  }

  if (state.availability === 'checking' || state.availability === 'not-configured') return null;
  return (
    <VoiceMotion>
      {/* Not hoverable: the tooltip must never sit over the in-call controls and catch their clicks. */}
      <TooltipProvider disableHoverableContent>
        {/* The region only delegates its controls' keys and focus (Escape, arrows); it is not a
            control itself. */}
        <VoiceFrame
          onKeyDown={onKeyDown}
          onFocus={(e) => (focusInExtras.current = (e.target as Element) !== mainButton.current)}
          notices={
            <AnimatePresence initial={false}>
              {consentOpen && (
                <Pop key="consent">
                  <ConsentNotice
                    onAccept={() => closeConsent(true)}
                    onCancel={() => closeConsent(false)}
                  />
                </Pop>
              )}
              {state.failure && state.phase === 'idle' && (
                <Pop key="failure">
                  <FailureNotice
                    failure={state.failure}
                    onType={state.microphoneFailed ? () => void openChat() : undefined}
                    onDismiss={() => {
                      session.dismissFailure();
                      mainButton.current?.focus();
                    }}
                  />
                </Pop>
              )}
              {inCall && panelOpen && (
                <Pop key="captions" className="origin-bottom-right">
                  <CaptionsPanel
                    id={panelId}
                    state={state}
                    onClose={() => {
                      setPanelOpen(false);
                      panelToggle.current?.focus();
                    }}
                  />
                </Pop>
              )}
            </AnimatePresence>
          }
          row={
            <>
              <AnimatePresence initial={false}>
                {inCall && (
                  <Pop key="controls" className="flex gap-2">
                    <CallControls
                      muted={state.muted}
                      panelOpen={panelOpen}
                      panelId={panelId}
                      panelToggleRef={panelToggle}
                      onToggleMute={() => void session.setMuted(!state.muted)}
                      onTogglePanel={() => setPanelOpen(!panelOpen)}
                    />
                  </Pop>
                )}
              </AnimatePresence>
              {!inCall && (
                <ChatButton
                  ref={chatButton}
                  expanded={chat?.open ?? false}
                  onClick={() => void openChat()}
                  onPointerEnter={() => void loadChatPanel().catch(() => undefined)}
                  onFocus={() => void loadChatPanel().catch(() => undefined)}
                />
              )}
              {/* It entered as an idle button (IdleVoice.tsx), before the assistant came. */}
              <VoiceButton
                state={state}
                buttonRef={mainButton}
                onActivate={() => void activate()}
                onPrefetch={() => session.prefetch()}
              />
            </>
          }
        />
        {chat && (
          <chat.Panel
            config={chat.config}
            open={chat.open}
            onOpenChange={(open) => setChat({ ...chat, open })}
            returnFocus={chatButton}
          />
        )}
      </TooltipProvider>
    </VoiceMotion>
  );
}
