// The voice widget's own numbers (not from docs/product.md, whose numbers live in spec-constants.ts and
// wasm-core/src/speaking).

/** The visitor's microphone silent this long during a call shows the "no te escuchamos" hint. */
export const SILENCE_HINT_AFTER_MS = 6000;
/** Final caption lines kept in the panel; older ones scroll away. */
export const MAX_CAPTION_LINES = 6;
/** Where an accepted consent notice is remembered (with its text, so a new text asks again). */
export const CONSENT_STORAGE_KEY = 'voice-consent-accepted';
/** The ring grows by at most this fraction of the button at full assistant level. */
export const RING_MAX_GROWTH = 0.45;
/** Below this viewport width (px; Tailwind's sm) a call starts with the captions panel closed:
 * open, it would cover most of a phone's screen. */
export const CAPTIONS_CLOSED_BELOW_PX = 640;
/** Where the visitor's own choice to show or hide the captions is kept for the visit. */
export const CAPTIONS_STORAGE_KEY = 'voice-captions-open';
