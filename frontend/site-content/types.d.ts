// The modules site-content/plugin.ts makes from the content folder.
declare module 'virtual:site-content' {
  export const brand: import('./schema').SiteContent['brand'];
  export const seo: import('./schema').SiteContent['seo'];
  export const broker: import('./schema').SiteContent['broker'];
  export const medicareDisclaimer: import('./load').BuiltSite['medicareDisclaimer'];
  export const header: import('./schema').SiteContent['header'];
  export const hero: import('./schema').SiteContent['hero'];
  export const partners: import('./schema').SiteContent['partners'];
  export const plans: import('./schema').SiteContent['plans'];
  export const about: import('./schema').SiteContent['about'];
  export const membership: import('./schema').SiteContent['membership'];
  export const testimonials: import('./schema').SiteContent['testimonials'];
  export const products: import('./schema').SiteContent['products'];
  export const quote: import('./schema').SiteContent['quote'];
  export const notifications: import('./schema').SiteContent['notifications'];
  export const voiceTooltip: import('./schema').SiteContent['voiceTooltip'];
  export const voiceFailure: import('./schema').SiteContent['voiceFailure'];
  export const voiceControls: import('./schema').SiteContent['voiceControls'];
  export const voiceChat: import('./schema').SiteContent['voiceChat'];
  export const quoteResult: import('./schema').SiteContent['quoteResult'];
  export const notFound: import('./schema').SiteContent['notFound'];
  export const licencesPage: import('./schema').SiteContent['licencesPage'];
  export const optOutPage: import('./schema').SiteContent['optOutPage'];
  export const privacyPage: import('./schema').SiteContent['privacyPage'];
  export const footer: import('./schema').SiteContent['footer'];
  export const inbox: import('./schema').SiteContent['inbox'];
  export const booking: import('./schema').SiteContent['booking'];
}

declare module 'virtual:site-content/pages' {
  export const pages: Record<import('./load').PageName, string>;
}

declare module 'virtual:site-content/assistant' {
  /** Whether calls are recorded (content/assistant.yaml's `recording`). */
  export const recording: boolean;
}

declare module 'virtual:site-content/language' {
  export const language: import('./translation').Language;
}
