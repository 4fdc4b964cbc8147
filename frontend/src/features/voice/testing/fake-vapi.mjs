// The one fake: it stands in for the voice provider's cloud, which tests cannot reach. It has
// the SDK's exact event names and its failure behaviour (start() resolves null after emitting
// 'call-start-failed' and 'error'; 'error' with no listener throws, as EventEmitter does).
// Self-contained, so browser tests can serve this file in place of the SDK chunk; the latest
// instance is at globalThis.fakeVapi for them to drive.

export class FakeVapi {
  constructor(publicKey, apiBaseUrl, dailyCallConfig) {
    this.publicKey = publicKey;
    this.apiBaseUrl = apiBaseUrl;
    this.dailyCallConfig = dailyCallConfig;
    this.listeners = new Map();
    this.startCalls = [];
    /** The `assistantOverrides` each start() was given (the page's language). */
    this.startOverrides = [];
    this.stopCalls = 0;
    this.started = false;
    this.inCall = false;
    this.muted = false;
    this.pending = null;
    FakeVapi.instances.push(this);
    globalThis.fakeVapi = this;
  }

  on(event, listener) {
    if (!this.listeners.has(event)) this.listeners.set(event, []);
    this.listeners.get(event).push(listener);
    return this;
  }

  removeListener(event, listener) {
    this.listeners.set(
      event,
      (this.listeners.get(event) ?? []).filter((l) => l !== listener),
    );
    return this;
  }

  listenerCount(event) {
    return (this.listeners.get(event) ?? []).length;
  }

  emit(event, ...args) {
    const listeners = [...(this.listeners.get(event) ?? [])];
    if (event === 'error' && listeners.length === 0)
      throw args[0] instanceof Error ? args[0] : new Error('Unhandled error');
    for (const listener of listeners) listener(...args);
    return listeners.length > 0;
  }

  /** Pends until the test answers for the provider (answerStart, failStart). */
  start(assistant, overrides) {
    if (!assistant) {
      const error = new Error('Assistant or Squad or Workflow must be provided.');
      this.emit('error', {
        type: 'validation-error',
        stage: 'input-validation',
        error: { message: error.message },
      });
      throw error;
    }
    this.startCalls.push(assistant);
    this.startOverrides.push(overrides);
    if (this.started) return Promise.resolve(null);
    this.started = true;
    return new Promise((resolve) => (this.pending = resolve));
  }

  /**
   * The provider created the call `id` and the room was joined: start() resolves the web call.
   */
  answerStart(id = 'call-1') {
    this.inCall = true;
    this.pending?.({ id, webCallUrl: 'https://fake.daily.co/room' });
    this.pending = null;
  }

  /** The assistant says it is listening (the SDK's 'call-start'). */
  assistantListening() {
    this.emit('call-start');
  }

  /** A failed start, as the SDK reports it: two events, cleanup, then null. */
  failStart(error = { message: 'Request failed with status 500' }) {
    this.emit('call-start-failed', {
      stage: 'unknown',
      totalDuration: 5,
      error: error.message,
      timestamp: new Date().toISOString(),
      context: {},
    });
    this.emit('error', {
      type: 'start-method-error',
      stage: 'unknown',
      error,
      timestamp: new Date().toISOString(),
    });
    this.started = false;
    this.pending?.(null);
    this.pending = null;
  }

  /** start() giving up with null and no event (e.g. the SDK thinks a call is already running). */
  returnNull() {
    this.started = false;
    this.pending?.(null);
    this.pending = null;
  }

  /** The assistant hangs up: call-end, the status update, then daily-js's ejection error. */
  assistantEndsCall() {
    this.leave();
    this.emit('error', {
      type: 'daily-error',
      error: {
        message: 'Meeting has ended',
        errorMsg: 'Meeting has ended',
        error: { type: 'ejected', msg: 'Meeting has ended' },
      },
    });
  }

  stop() {
    this.stopCalls++;
    if (this.inCall) this.leave();
    this.started = false;
    return Promise.resolve();
  }

  leave() {
    this.inCall = false;
    this.started = false;
    this.emit('call-end');
    this.emit('message', {
      type: 'status-update',
      status: 'ended',
      endedReason: 'customer-ended-call',
    });
  }

  setMuted(muted) {
    if (!this.inCall) throw new Error('Call object is not available.');
    this.muted = muted;
  }

  isMuted() {
    return this.inCall && this.muted;
  }

  /** A transcript message as the provider sends it. */
  say(role, transcript, transcriptType = 'final') {
    this.emit('message', { type: 'transcript', role, transcriptType, transcript });
  }
}

FakeVapi.instances = [];

export default FakeVapi;
