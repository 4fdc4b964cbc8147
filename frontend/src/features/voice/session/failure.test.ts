import { describe, expect, it } from 'vitest';
import {
  failureKind,
  isMeetingEndedEjection,
  isMicrophoneFailure,
  isNonFatal,
  lacksMicrophone,
  payloadText,
} from './failure';

describe('reading SDK error payloads', () => {
  it('recognises the ejection daily-js raises after a normal end', () => {
    expect(
      isMeetingEndedEjection({
        type: 'daily-error',
        error: { message: 'Meeting has ended', errorMsg: 'Meeting has ended' },
      }),
    ).toBe(true);
    expect(isMeetingEndedEjection({ error: { type: 'ejected', msg: 'x' } })).toBe(true);
    expect(
      isMeetingEndedEjection({ type: 'daily-error', error: { message: 'connection-error' } }),
    ).toBe(false);
  });

  it('classifies microphone permission, microphone in use and the rest', () => {
    expect(failureKind({ error: new DOMException('Permission denied', 'NotAllowedError') })).toBe(
      'permission',
    );
    expect(
      failureKind({
        error: Object.assign(new Error('Permission denied'), { name: 'NotAllowedError' }),
      }),
    ).toBe('permission');
    expect(failureKind({ error: { error: { type: 'permissions', blockedBy: 'browser' } } })).toBe(
      'permission',
    );
    expect(failureKind({ error: { error: { type: 'mic-in-use', msg: 'in use' } } })).toBe(
      'micInUse',
    );
    expect(failureKind({ error: { name: 'NotReadableError' } })).toBe('micInUse');
    expect(failureKind('start() returned null')).toBe('unavailable');
    expect(failureKind({ error: { message: 'Request failed with status 401' } })).toBe(
      'unavailable',
    );
  });

  it('keeps the call for the SDK’s non-fatal errors only', () => {
    expect(isNonFatal({ type: 'audio-processing-setup-error' })).toBe(true);
    expect(isNonFatal({ type: 'audio-start-failed' })).toBe(true);
    expect(isNonFatal({ type: 'daily-error' })).toBe(false);
    expect(isNonFatal(null)).toBe(false);
  });

  it('a camera-error ends the call only when the microphone is affected', () => {
    expect(
      isMicrophoneFailure({ error: { errorMsg: { audioOk: false }, error: { type: 'unknown' } } }),
    ).toBe(true);
    expect(
      isMicrophoneFailure({ error: { error: { type: 'not-found' }, errorMsg: { audioOk: true } } }),
    ).toBe(false);
  });

  it('flattens cyclic payloads and errors without throwing', () => {
    const cyclic: Record<string, unknown> = { message: 'loop' };
    cyclic.self = cyclic;
    expect(payloadText(cyclic)).toContain('loop');
    expect(payloadText(new Error('boom'))).toContain('boom');
    expect(payloadText(undefined)).toBe('undefined');
  });

  it('a microphone denied, in use or missing offers the chat; a server error does not', () => {
    const missing = { error: new DOMException('Requested device not found', 'NotFoundError') };
    expect(failureKind(missing)).toBe('unavailable');
    expect(lacksMicrophone(missing)).toBe(true);
    expect(lacksMicrophone({ name: 'NotAllowedError', message: 'Permission denied' })).toBe(true);
    expect(
      lacksMicrophone({ name: 'NotReadableError', message: 'Could not start audio source' }),
    ).toBe(true);
    expect(lacksMicrophone({ message: 'Request failed with status 500' })).toBe(false);
  });
});
