// Every number the product spec (§9) fixes for the page, named once.

/** Toasts close by themselves after this long. */
export const TOAST_DURATION_MS = 5000;
/** A rightward swipe this long (px) dismisses a toast. */
export const TOAST_SWIPE_THRESHOLD_PX = 50;
/** Only one notification is shown at a time. */
export const TOAST_LIMIT = 1;
/** A dismissed toast is forgotten after this long. */
export const TOAST_REMOVE_DELAY_MS = 1_000_000;
/** The key that moves focus to the notification area. */
export const TOAST_HOTKEY = 'F8';
/** Tooltips open after hovering or focusing this long (the voice button's). */
export const TOOLTIP_DELAY_MS = 700;
/** Moving between tooltips within this long opens the next one at once. */
export const TOOLTIP_SKIP_DELAY_MS = 300;
