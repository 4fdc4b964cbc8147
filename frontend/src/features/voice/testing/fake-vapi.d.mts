import type { VapiEvent, VapiLike } from '../sdk/vapi';

export declare class FakeVapi implements VapiLike {
  static instances: FakeVapi[];
  constructor(publicKey: string, apiBaseUrl?: string, dailyCallConfig?: object);
  publicKey: string;
  apiBaseUrl: string | undefined;
  dailyCallConfig: object | undefined;
  startCalls: string[];
  startOverrides: unknown[];
  stopCalls: number;
  started: boolean;
  inCall: boolean;
  muted: boolean;
  on(event: VapiEvent, listener: (...args: never[]) => void): this;
  removeListener(event: VapiEvent, listener: (...args: never[]) => void): this;
  listenerCount(event: VapiEvent): number;
  emit(event: VapiEvent, ...args: unknown[]): boolean;
  start(assistantId: string, overrides?: object): Promise<unknown>;
  answerStart(id?: string): void;
  assistantListening(): void;
  failStart(error?: object): void;
  returnNull(): void;
  assistantEndsCall(): void;
  stop(): Promise<void>;
  leave(): void;
  setMuted(muted: boolean): void;
  isMuted(): boolean;
  say(role: 'assistant' | 'user', transcript: string, transcriptType?: 'partial' | 'final'): void;
}
export default FakeVapi;
