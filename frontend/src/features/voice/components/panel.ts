/** The card the assistant's panels sit on (the captions, the consent notice). */
export const PANEL_CARD =
  'w-80 max-w-[calc(100vw-2rem)] rounded-2xl bg-white p-4 text-sm text-slate-800 shadow-2xl ring-1 ring-slate-200';
