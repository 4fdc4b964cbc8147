import { cleanup, render, screen, within } from '@testing-library/react';
import { createRef } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { disclaimerText } from '../../components/broker/MedicareDisclaimer';
import { leadNotice } from '../../content';
import { language } from '../../language';
import ChatPanel from './ChatPanel';

const config = { publicKey: 'pk', assistantId: 'asst', apiBaseUrl: null, consentText: null };

describe('ChatPanel', () => {
  afterEach(cleanup);

  it("shows the page's Medicare disclaimer as the assistant's first message, marked in the page's language", () => {
    render(<ChatPanel config={config} open onOpenChange={() => {}} returnFocus={createRef()} />);
    const log = screen.getByRole('log');
    const [, first, second, ...others] = log.querySelectorAll('p');
    expect(first).toHaveAttribute('data-role', 'assistant');
    expect(within(first).getByText(disclaimerText()!)).toHaveAttribute('lang', 'en');
    expect(second).toHaveAttribute('data-role', 'assistant');
    expect(within(second).getByText(leadNotice)).toHaveAttribute('lang', 'en');
    // The hint to type still follows, until the visitor writes.
    expect(others.map((line) => line.textContent)).toEqual([
      'Escribe tu pregunta y el asistente te responderá aquí.',
    ]);
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
