import { AnimatePresence } from 'framer-motion';
import { MessageSquareText } from 'lucide-react';
import {
  useEffect,
  useId,
  useRef,
  useState,
  type ComponentType,
  type ComponentProps,
  type KeyboardEvent,
} from 'react';
import type ChatPanelComponent from '../../chat/ChatPanel';
import { voiceChat } from 'virtual:site-content';
import { TooltipProvider } from '../../../components/ui/tooltip';
import { spanish } from '../../../content';
import { afterNextPaint } from '../../../lib/after-next-paint';
import { captionsOpenAtStart, rememberCaptionsOpen } from '../preferences/captions-preference';
import { hasAcceptedConsent, rememberConsent } from '../preferences/consent';
import type { VoiceConfig } from '../sdk/client-config';
import { pageVoiceSession } from '../session/page-session';
import { useVoiceSession } from '../session/use-voice-session';
import type { VoiceSession } from '../session/voice-session';
import { consoleLine, controls } from '../texts';
import { CallControls } from './CallControls';
import { CaptionsPanel } from './CaptionsPanel';
import { ConsentNotice } from './ConsentNotice';
import { FailureNotice } from './FailureNotice';
import { Pop, VoiceMotion } from './motion';
import { VoiceButton } from './VoiceButton';

// The chat's code (its panel, Radix Dialog, the stream reader) arrives when the visitor asks to
// type. Loaded by hand rather than with React.lazy: a failed download is logged and the next
// click tries again, instead of throwing through the island.
const loadChatPanel = () => import('../../chat/ChatPanel').then((module) => module.default);
type ChatPanelType = ComponentType<ComponentProps<typeof ChatPanelComponent>>;

/**
 * The floating voice assistant at the bottom right: button, in-call controls and panel. Shown
 * only when it can work: not while the server is being asked, never when voice is not configured.
 */
export function VoiceAssistant({ session = pageVoiceSession() }: { session?: VoiceSession }) {
  const state = useVoiceSession(session);
  const [panelOpen, setPanelOpenState] = useState(false);
  const [consentText, setConsentText] = useState<string | null>(null);
  const mainButton = useRef<HTMLButtonElement>(null);
  const panelToggle = useRef<HTMLButtonElement>(null);
  const chatButton = useRef<HTMLButtonElement>(null);
  const [chat, setChat] = useState<{
    Panel: ChatPanelType;
    config: VoiceConfig;
    open: boolean;
  } | null>(null);
  const focusInExtras = useRef(false);
  const panelId = useId();
  const inCall = state.phase === 'in-call';

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
  const extrasShown = inCall || state.failure !== null || consentText !== null;
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
      if (config.consentText && !hasAcceptedConsent(config.consentText)) {
        setConsentText(config.consentText);
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
    if (accepted && consentText) rememberConsent(consentText);
    setConsentText(null);
    mainButton.current?.focus();
    if (accepted) void session.start();
  }

  function onKeyDown(event: KeyboardEvent) {
    if (event.key !== 'Escape') return;
    if (consentText !== null) closeConsent(false);
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
        {/* eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions */}
        <div
          role="region"
          aria-label={controls.region}
          lang={spanish}
          onKeyDown={onKeyDown}
          onFocus={(e) => (focusInExtras.current = (e.target as Element) !== mainButton.current)}
          className="fixed right-4 bottom-4 z-50 flex flex-col items-end gap-3 sm:right-6 sm:bottom-6"
        >
          <div className="flex flex-col items-end gap-3">
            <AnimatePresence initial={false}>
              {consentText !== null && (
                <Pop key="consent">
                  <ConsentNotice
                    text={consentText}
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
          </div>
          <div className="flex items-center gap-3">
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
              <button
                ref={chatButton}
                type="button"
                aria-label={voiceChat.open}
                title={voiceChat.open}
                aria-haspopup="dialog"
                aria-expanded={chat?.open ?? false}
                onClick={() => void openChat()}
                onPointerEnter={() => void loadChatPanel().catch(() => undefined)}
                onFocus={() => void loadChatPanel().catch(() => undefined)}
                className="flex h-11 w-11 items-center justify-center rounded-full bg-white text-brand-700 shadow-lg ring-1 ring-slate-200 hover:bg-slate-100 focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
              >
                <MessageSquareText aria-hidden className="h-5 w-5" />
              </button>
            )}
            {/* Appears once the button can work (the configuration has arrived), never before. */}
            <Pop>
              <VoiceButton
                state={state}
                buttonRef={mainButton}
                onActivate={() => void activate()}
                onPrefetch={() => session.prefetch()}
              />
            </Pop>
          </div>
        </div>
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
