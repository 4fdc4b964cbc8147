import { launchBrowser } from './e2e/support/browser.mjs';
import { startServer } from './e2e/support/server.mjs';
const s = await startServer(); const b = await launchBrowser();
const c = await b.newContext({ viewport: {width:412,height:823} }); const p = await c.newPage();
p.on('console', (m) => console.log('console', m.type(), m.text())); p.on('pageerror', (e) => console.log('pageerror', e.message));
await p.goto(s.url); await p.waitForTimeout(4000);
console.log(await p.evaluate(() => [...document.querySelectorAll('[data-island]')].map(e => `${e.dataset.island}:${e.hasAttribute('data-live')}`).join(' ')));
console.log(await p.evaluate(() => document.querySelector('canvas')?.dataset.particles));
await b.close(); await s.stop();
