// Every number docs/product.md (§9) fixes for the page, named once.

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

/** The header turns solid once the page is scrolled further than this (px). */
export const HEADER_SOLID_AFTER_PX = 20;
/** Header navigation entrance: first item's delay and the gap between items (s). */
export const NAV_ENTRANCE_DELAY_S = 0.3;
export const NAV_ENTRANCE_STAGGER_S = 0.1;
/** Hero entrance: gap between the headline, text and button (spec: 0.15–0.2 s). */
export const HERO_STAGGER_S = 0.15;
/** The mobile side menu's width, and from the sm breakpoint up (px). */
export const MOBILE_MENU_WIDTH_PX = 240;
export const MOBILE_MENU_WIDTH_SM_PX = 300;
/** One full loop of the partner logo strip (s, linear). */
export const PARTNER_STRIP_LOOP_S = 20;
/** Tooltips open after this hover delay; moving to another within the skip delay opens it at once. */
export const TOOLTIP_DELAY_MS = 700;
export const TOOLTIP_SKIP_DELAY_MS = 300;
/** An avatar's default size (px). */
export const AVATAR_SIZE_PX = 40;
