// Renders a page to HTML at build time (scripts/prerender.mjs); the browser then hydrates it.
import { StrictMode } from 'react';
import { prerenderToNodeStream } from 'react-dom/static';
import { App } from './App';
import { headTags, type PageKind } from './head';

async function streamToString(stream: NodeJS.ReadableStream): Promise<string> {
  let html = '';
  for await (const chunk of stream) html += chunk.toString();
  return html;
}

/** The whole page's HTML, lazy parts included, in reading order. */
export async function render(path: string, page: PageKind): Promise<{ html: string; head: string }> {
  const { prelude } = await prerenderToNodeStream(
    <StrictMode>
      <App path={path} />
    </StrictMode>,
    // Never split a large part out to be appended later and moved into place by a script.
    { progressiveChunkSize: Number.POSITIVE_INFINITY },
  );
  return { html: await streamToString(prelude), head: headTags(page) };
}
