// The voice call's state machine, outside React so one SDK instance serves the page's whole
// lifetime, whatever StrictMode or re-renders do (a second instance breaks daily-js with
// "Duplicate DailyIframe instances are not allowed").
import type { VoiceConfig } from '../../../lib/client-config';
import { DAILY_CALL_CONFIG, type VapiClass, type VapiEvent, type VapiLike } from '../sdk/vapi';
import { consoleLine, type FailureKind } from '../texts';
import {
  failureKind,
  isMeetingEndedEjection,
  isMicrophoneFailure,
  isNonFatal,
  lacksMicrophone,
} from './failure';
import type { SpeakingDetector } from './speaking';
import { pageLanguageOverrides } from '../sdk/page-language';

/** The visitor's microphone silent this long during a call shows the "no te escuchamos" hint. */
const SILENCE_HINT_AFTER_MS = 6000;
/** Final caption lines kept in the panel; older ones scroll away. */
const MAX_CAPTION_LINES = 6;

/**
 * What the server said about voice: configured, not configured (then the button is not shown at
 * all), or it could not be asked (the button shows, and the next click asks again).
 */
export type Availability = 'checking' | 'available' | 'not-configured' | 'unreachable';
export type CallPhase = 'idle' | 'connecting' | 'in-call';

export interface Caption {
  id: number;
  role: 'assistant' | 'user';
  text: string;
}

export interface VoiceSnapshot {
  availability: Availability;
  phase: CallPhase;
  muted: boolean;
  failure: FailureKind | null;
  /** The failure left the visitor without a microphone: the chat is offered instead. */
  microphoneFailed: boolean;
  /** Final lines, oldest first. */
  captions: readonly Caption[];
  /** The line being spoken now, replaced as the transcript grows. */
  partial: Caption | null;
  /** The assistant's level, 0..1, and whether it is speaking (wasm-core detector). */
  assistantLevel: number;
  assistantSpeaking: boolean;
  /** The visitor's microphone has been silent long enough to suggest checking it. */
  visitorSilent: boolean;
}

export interface VoiceSessionDeps {
  loadConfig: () => Promise<VoiceConfig | null>;
  loadSdk: () => Promise<VapiClass>;
  createDetector: () => Promise<SpeakingDetector>;
  /**
   * Told the id of each call the SDK starts. A call only starts once its notice was accepted
   * (VoiceAssistant shows it until it is, or remembers it), so the page records the acceptance
   * on the server under that id (lib/notice-acceptance.ts).
   */
  noticeAccepted?: (callId: string) => void;
  now?: () => number;
}

const INITIAL: VoiceSnapshot = {
  availability: 'checking',
  phase: 'idle',
  muted: false,
  failure: null,
  microphoneFailed: false,
  captions: [],
  partial: null,
  assistantLevel: 0,
  assistantSpeaking: false,
  visitorSilent: false,
};

/** What a call leaves behind when it ends, however it ends. */
const AFTER_CALL = {
  phase: 'idle',
  muted: false,
  partial: null,
  assistantLevel: 0,
  assistantSpeaking: false,
  visitorSilent: false,
} as const satisfies Partial<VoiceSnapshot>;

export class VoiceSession {
  private snapshot = INITIAL;
  private readonly listeners = new Set<() => void>();
  private config: Promise<VoiceConfig | null> | undefined;
  private vapi: Promise<VapiLike> | undefined;
  private assistant: SpeakingDetector | undefined;
  private visitor: SpeakingDetector | undefined;
  /** Bumped on every start and stop, so late answers of an abandoned attempt are ignored. */
  private attempt = 0;
  private announcedStart = false;
  private captionId = 0;
  private readonly now: () => number;

  constructor(private readonly deps: VoiceSessionDeps) {
    this.now = deps.now ?? (() => performance.now());
  }

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = () => this.snapshot;

  private set(patch: Partial<VoiceSnapshot>) {
    const next = { ...this.snapshot, ...patch };
    const changed = (Object.keys(patch) as (keyof VoiceSnapshot)[]).some(
      (k) => next[k] !== this.snapshot[k],
    );
    if (!changed) return;
    this.snapshot = next;
    for (const listener of this.listeners) listener();
  }

  /** Asks the server whether voice is configured (once). */
  checkAvailability(): Promise<VoiceConfig | null> {
    this.config ??= this.deps.loadConfig().then(
      (config) => {
        this.set({ availability: config ? 'available' : 'not-configured' });
        return config;
      },
      (error) => {
        console.warn(consoleLine.configFailed, error);
        this.config = undefined; // asked again on the next click
        this.set({ availability: 'unreachable' });
        return null;
      },
    );
    return this.config;
  }

  /** Starts the downloads a call needs, without starting one (hover, focus). */
  prefetch() {
    void this.checkAvailability().then(
      (config) =>
        config &&
        Promise.all([
          this.instance(config),
          this.deps.createDetector().then((d) => d.free()),
        ]).catch(() => undefined),
    );
  }

  private instance(config: VoiceConfig): Promise<VapiLike> {
    this.vapi ??= this.deps.loadSdk().then(
      (Vapi) => {
        const vapi = new Vapi(config.publicKey, config.apiBaseUrl ?? undefined, DAILY_CALL_CONFIG);
        this.listen(vapi);
        return vapi;
      },
      (error) => {
        this.vapi = undefined;
        throw error;
      },
    );
    return this.vapi;
  }

  /** Fresh detectors for each call, so one call's silence does not carry into the next. */
  private async resetDetectors() {
    const [assistant, visitor] = await Promise.all([
      this.deps.createDetector(),
      this.deps.createDetector(),
    ]);
    this.assistant?.free();
    this.visitor?.free();
    this.assistant = assistant;
    this.visitor = visitor;
  }

  /** The one button's action: start when idle, stop in a call, nothing while connecting. */
  toggle() {
    if (this.snapshot.phase === 'in-call') void this.stop();
    else if (this.snapshot.phase === 'idle') void this.start();
  }

  async start() {
    if (this.snapshot.phase !== 'idle') return;
    const attempt = ++this.attempt;
    this.announcedStart = false;
    this.set({
      phase: 'connecting',
      failure: null,
      microphoneFailed: false,
      captions: [],
      partial: null,
      muted: false,
      visitorSilent: false,
    });
    const config = await this.checkAvailability();
    if (attempt !== this.attempt) return;
    if (!config) {
      this.set({ phase: 'idle' });
      this.reportMissingConfig();
      return;
    }
    let call: unknown;
    try {
      const [vapi] = await Promise.all([this.instance(config), this.resetDetectors()]);
      if (attempt !== this.attempt) return;
      call = await vapi.start(config.assistantId, pageLanguageOverrides);
    } catch (error) {
      if (attempt === this.attempt && this.snapshot.phase !== 'idle') this.fail(error);
      return;
    }
    if (attempt !== this.attempt || this.snapshot.phase === 'idle') return;
    if (call == null) {
      this.fail('start() returned null');
      return;
    }
    const { id } = call as { id?: unknown };
    if (typeof id === 'string' && id) this.deps.noticeAccepted?.(id);
    this.callStarted();
  }

  async stop() {
    if (this.snapshot.phase === 'idle') return;
    this.attempt++;
    this.ended();
    const vapi = await this.vapi?.catch(() => undefined);
    await vapi?.stop();
  }

  async setMuted(muted: boolean) {
    if (this.snapshot.phase !== 'in-call') return;
    const vapi = await this.vapi;
    try {
      vapi?.setMuted(muted);
      this.set({ muted: vapi?.isMuted() ?? muted, visitorSilent: false });
    } catch (error) {
      console.warn(consoleLine.muteFailed, error);
    }
  }

  /**
   * An attempt found no configuration. Not configured: the button goes away, nothing to say.
   * The server could not be asked: say so; the next attempt asks again.
   */
  reportMissingConfig() {
    if (this.snapshot.availability === 'unreachable')
      this.set({ failure: 'unavailable', microphoneFailed: false });
  }

  dismissFailure() {
    this.set({ failure: null, microphoneFailed: false });
  }

  private callStarted() {
    if (!this.announcedStart) console.log(consoleLine.started);
    this.announcedStart = true;
    this.set({ phase: 'in-call' });
  }

  private ended() {
    if (this.announcedStart) console.log(consoleLine.ended);
    this.announcedStart = false;
    this.set(AFTER_CALL);
  }

  /** Any failure: back to idle, the product's console line, a short message for the visitor. */
  private fail(detail: unknown) {
    const wasConnecting = this.snapshot.phase === 'connecting';
    this.attempt++;
    console.error(wasConnecting ? consoleLine.connectFailed : consoleLine.callError, detail);
    this.announcedStart = false;
    this.set({
      ...AFTER_CALL,
      failure: failureKind(detail),
      microphoneFailed: lacksMicrophone(detail),
    });
    // Stopping is harmless when the SDK already cleaned up, and never leaves a microphone open
    // if it had not.
    void this.vapi?.then((vapi) => vapi.stop()).catch(() => undefined);
  }

  private listen(vapi: VapiLike) {
    const on = (event: VapiEvent, listener: (...args: never[]) => void) => vapi.on(event, listener);
    on('call-start', () => {
      if (this.snapshot.phase !== 'idle') this.callStarted();
    });
    on('call-end', () => {
      if (this.snapshot.phase !== 'idle') this.ended();
    });
    on('call-start-failed', (event: unknown) => {
      if (this.snapshot.phase !== 'idle') this.fail(event);
    });
    on('error', (error: unknown) => this.onError(error));
    on('camera-error', (error: unknown) => {
      if (this.snapshot.phase !== 'idle' && isMicrophoneFailure(error)) this.fail(error);
      else console.warn(consoleLine.warning, error);
    });
    on('volume-level', (level: number) => this.onAssistantLevel(level));
    on('local-volume-level', (level: number) => this.onVisitorLevel(level));
    on('message', (message: unknown) => this.onMessage(message));
  }

  private onError(error: unknown) {
    if (isMeetingEndedEjection(error)) {
      console.info(consoleLine.ejectionIgnored);
      if (this.snapshot.phase !== 'idle') this.ended();
    } else if (isNonFatal(error)) {
      console.warn(consoleLine.warning, error);
    } else if (this.snapshot.phase !== 'idle') {
      this.fail(error);
    } else {
      // The echo of a failure already handled (the SDK reports a failed start twice).
      console.warn(consoleLine.warning, error);
    }
  }

  private onAssistantLevel(level: number) {
    if (this.snapshot.phase !== 'in-call' || !this.assistant) return;
    const speaking = this.assistant.feedLevel(level, this.now());
    this.set({
      assistantLevel: Math.round(this.assistant.level * 20) / 20,
      assistantSpeaking: speaking,
    });
  }

  private onVisitorLevel(level: number) {
    if (this.snapshot.phase !== 'in-call' || !this.visitor) return;
    this.visitor.feedLevel(level, this.now());
    this.set({
      visitorSilent: !this.snapshot.muted && this.visitor.silentForMs >= SILENCE_HINT_AFTER_MS,
    });
  }

  private onMessage(message: unknown) {
    const m = message as {
      type?: unknown;
      role?: unknown;
      transcriptType?: unknown;
      transcript?: unknown;
    } | null;
    if (m?.type !== 'transcript' || typeof m.transcript !== 'string' || !m.transcript.trim())
      return;
    const role = m.role === 'user' ? 'user' : 'assistant';
    const line = { id: ++this.captionId, role, text: m.transcript.trim() } as const;
    if (m.transcriptType === 'final') {
      this.set({
        captions: [...this.snapshot.captions, line].slice(-MAX_CAPTION_LINES),
        partial: null,
      });
    } else {
      this.set({ partial: line });
    }
  }
}
