// Text written into HTML, by the build's HTML entries (plugin.ts) and the prerendered pages'
// heads (src/head.ts).

/** `text` as HTML text or a double-quoted attribute's value. */
export const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
