import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createRef } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { disclaimerText } from '../../components/broker/MedicareDisclaimer';
import { leadNotice } from '../../content';
import { language } from '../../language';
import ChatPanel from './ChatPanel';

const config = { publicKey: 'pk', assistantId: 'asst', apiBaseUrl: null, consentText: null };

// The panel's texts in this build's language (SITE_LANGUAGE=es runs this for /es/), written out
// so a changed text fails a test.
const panel =
  language === 'es'
    ? {
        title: 'Chat con el asistente',
        close: 'Cerrar chat',
        empty: 'Escribe tu pregunta y el asistente te responderá aquí.',
        input: 'Tu mensaje',
        placeholder: 'Escribe y pulsa Intro',
        send: 'Enviar',
        visitor: 'Tú',
        assistant: 'Asistente',
      }
    : {
        title: 'Chat with the assistant',
        close: 'Close chat',
        empty: 'Type your question and the assistant will answer here.',
        input: 'Your message',
        placeholder: 'Type and press Enter',
        send: 'Send',
        visitor: 'You',
        assistant: 'Assistant',
      };

/** The provider's streamed reply naming session `s-1`. */
const reply = (text: string) =>
  new Response(
    `data: ${JSON.stringify({ id: 'c', sessionId: 's-1', path: 'chat.output[0].content', delta: text })}\n\ndata: [DONE]\n\n`,
    { headers: { 'content-type': 'text/event-stream' } },
  );

describe('ChatPanel', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it("shows the page's Medicare disclaimer as the assistant's first message, marked in the page's language", () => {
    render(<ChatPanel config={config} open onOpenChange={() => {}} returnFocus={createRef()} />);
    const log = screen.getByRole('log');
    const [, first, second, ...others] = log.querySelectorAll('p');
    expect(first).toHaveAttribute('data-role', 'assistant');
    expect(within(first).getByText(disclaimerText()!)).toHaveAttribute('lang', 'en');
    expect(second).toHaveAttribute('data-role', 'assistant');
    expect(within(second).getByText(leadNotice)).toHaveAttribute('lang', 'en');
    // The hint to type still follows, until the visitor writes.
    expect(others.map((line) => line.textContent)).toEqual([panel.empty]);
  });

  it("names every part of the panel in the page's language", () => {
    render(<ChatPanel config={config} open onOpenChange={() => {}} returnFocus={createRef()} />);
    const dialog = screen.getByRole('dialog', { name: panel.title });
    expect(dialog).toHaveAttribute('lang', language);
    expect(within(dialog).getByRole('log', { name: panel.title })).toBeVisible();
    expect(within(dialog).getByRole('button', { name: panel.close })).toBeVisible();
    expect(within(dialog).getByRole('textbox', { name: panel.input })).toHaveAttribute(
      'placeholder',
      panel.placeholder,
    );
    expect(within(dialog).getByRole('button', { name: panel.send })).toBeVisible();
    const [, disclaimer] = within(dialog).getByRole('log').querySelectorAll('p');
    expect(disclaimer).toHaveTextContent(new RegExp(`^${panel.assistant}: `));
  });

  it("records the notice's acceptance under the chat's session once a reply names it, once", async () => {
    const fetchMock = vi.fn(async (url: RequestInfo | URL) =>
      String(url).endsWith('/chat/web') ? reply('Hello') : new Response(null, { status: 204 }),
    );
    vi.stubGlobal('fetch', fetchMock);
    const user = userEvent.setup();
    render(<ChatPanel config={config} open onOpenChange={() => {}} returnFocus={createRef()} />);
    const input = screen.getByRole('textbox', { name: panel.input });
    await user.type(input, 'Hi{Enter}');
    const posts = () =>
      fetchMock.mock.calls.filter(([url]) => url === '/api/notice-acceptance') as unknown as [
        string,
        RequestInit,
      ][];
    await vi.waitFor(() => expect(posts()).toHaveLength(1));
    expect(JSON.parse(posts()[0][1].body as string)).toEqual({ chat_id: 's-1', lang: language });
    expect(screen.getByRole('log')).toHaveTextContent(`${panel.visitor}: Hi`);

    await vi.waitFor(() => expect(input).toBeEnabled());
    await user.type(input, 'Again{Enter}');
    await vi.waitFor(() =>
      expect(
        fetchMock.mock.calls.filter(([url]) => String(url).endsWith('/chat/web')),
      ).toHaveLength(2),
    );
    expect(posts(), 'the same session is recorded once').toHaveLength(1);
  });

  it("shows its notice first, before any message, in the page's language, with the privacy notice's link", () => {
    render(<ChatPanel config={config} open onOpenChange={() => {}} returnFocus={createRef()} />);
    // This build's language (SITE_LANGUAGE=es runs this for /es/).
    const [notice, privacy, path] =
      language === 'es'
        ? [
            /^Estás escribiendo a un asistente de inteligencia artificial, no a una persona\. Guardamos la conversación/,
            'Aviso de privacidad',
            '/es/privacy',
          ]
        : [
            /^You are writing to an artificial intelligence assistant, not a person\. We keep the conversation/,
            'Privacy notice',
            '/privacy',
          ];
    const dialog = screen.getByRole('dialog');
    expect(dialog).toHaveAccessibleDescription(notice);
    const first = screen.getByRole('log').querySelector('p')!;
    expect(first).toHaveTextContent(notice);
    expect(first.closest('[lang]')).toHaveAttribute('lang', language);
    const link = within(dialog).getByRole('link', { name: privacy });
    expect(link).toHaveAttribute('href', path);
    expect(link.closest('[lang]')).toHaveAttribute('lang', language);
  });
});
