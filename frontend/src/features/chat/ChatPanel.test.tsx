import { render, screen, within } from '@testing-library/react';
import { createRef } from 'react';
import { describe, expect, it } from 'vitest';
import { disclaimerText } from '../../components/broker/MedicareDisclaimer';
import { leadNotice } from '../../content';
import ChatPanel from './ChatPanel';

const config = { publicKey: 'pk', assistantId: 'asst', apiBaseUrl: null, consentText: null };

describe('ChatPanel', () => {
  it("shows the page's Medicare disclaimer as the assistant's first message, marked in the page's language", () => {
    render(<ChatPanel config={config} open onOpenChange={() => {}} returnFocus={createRef()} />);
    const log = screen.getByRole('log');
    const [first, second, ...others] = log.querySelectorAll('p');
    expect(first).toHaveAttribute('data-role', 'assistant');
    expect(within(first).getByText(disclaimerText()!)).toHaveAttribute('lang', 'en');
    expect(second).toHaveAttribute('data-role', 'assistant');
    expect(within(second).getByText(leadNotice)).toHaveAttribute('lang', 'en');
    // The hint to type still follows, until the visitor writes.
    expect(others.map((line) => line.textContent)).toEqual([
      'Escribe tu pregunta y el asistente te responderá aquí.',
    ]);
  });
});
