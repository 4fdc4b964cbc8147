/** The year the site was built, set by vite.config.ts (the prerendered footer shows it). */
declare const __BUILD_YEAR__: number;
