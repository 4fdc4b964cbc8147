// Reading the SDK's error payloads. They nest differently by stage (start, daily-js, the
// browser's getUserMedia), so they are matched on their text rather than on one shape.
import type { FailureKind } from '../texts';

/** Error types the SDK reports but continues the call after (noise cancellation, autoplay...). */
const NON_FATAL_TYPES = new Set([
  'audio-processing-setup-error',
  'audio-processor-recovery-error',
  'audio-observer-setup-error',
  'video-recording-setup-error',
  'audio-start-failed',
]);

/** Flattens a payload (Errors included, cycles cut) into one searchable string. */
export function payloadText(payload: unknown): string {
  const seen = new WeakSet<object>();
  try {
    return (
      JSON.stringify(payload, (_key, value: unknown) => {
        // Their name and message are not enumerable, so JSON would drop them.
        if (value instanceof Error || value instanceof DOMException)
          return { ...value, name: value.name, message: value.message };
        if (value && typeof value === 'object') {
          if (seen.has(value)) return undefined;
          seen.add(value);
        }
        return value;
      }) ?? String(payload)
    );
  } catch {
    return String(payload);
  }
}

/** daily-js ejects the visitor with "Meeting has ended" after a normal end: not an error. */
export function isMeetingEndedEjection(payload: unknown): boolean {
  const text = payloadText(payload);
  return /meeting has ended/i.test(text) || /"type":"ejected"/.test(text);
}

export function isNonFatal(payload: unknown): boolean {
  const type = (payload as { type?: unknown } | null)?.type;
  return typeof type === 'string' && NON_FATAL_TYPES.has(type);
}

/** Which short message the visitor sees for a failure. */
export function failureKind(payload: unknown): FailureKind {
  const text = payloadText(payload);
  if (/NotAllowedError|permission denied|"type":"permissions"|not-allowed|blockedBy/i.test(text))
    return 'permission';
  if (
    /NotReadableError|mic-in-use|cam-mic-in-use|device in use|could not start audio source/i.test(
      text,
    )
  )
    return 'micInUse';
  return 'unavailable';
}

/** A camera-error that leaves the call without a microphone ends it; others are warnings. */
export function isMicrophoneFailure(payload: unknown): boolean {
  return failureKind(payload) !== 'unavailable' || /"audioOk":false/.test(payloadText(payload));
}

/**
 * The failure leaves the visitor without a usable microphone (denied, in use, missing): typing to
 * the assistant instead is offered. A missing device reads as 'unavailable' to the voice texts.
 */
export function lacksMicrophone(payload: unknown): boolean {
  return (
    isMicrophoneFailure(payload) ||
    /NotFoundError|DevicesNotFoundError|requested device not found/i.test(payloadText(payload))
  );
}
