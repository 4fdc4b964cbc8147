// The voice widget's own numbers (not from the spec; the spec's live in spec-constants.ts and
// wasm-core/src/speaking).

/** The visitor's microphone silent this long during a call shows the "no te escuchamos" hint. */
export const SILENCE_HINT_AFTER_MS = 6000;
/** Final caption lines kept in the panel; older ones scroll away. */
export const MAX_CAPTION_LINES = 6;
/** Where an accepted consent notice is remembered (with its text, so a new text asks again). */
export const CONSENT_STORAGE_KEY = 'voice-consent-accepted';
/** The ring grows by at most this fraction of the button at full assistant level. */
export const RING_MAX_GROWTH = 0.45;
