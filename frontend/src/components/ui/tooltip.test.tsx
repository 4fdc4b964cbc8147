import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Tooltip, TooltipProvider } from './tooltip';

// jsdom has no layout and so no ResizeObserver; the tooltip's positioning only needs it to exist.
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};

// docs/product.md §9: tooltip delay 700 ms, skip delay 300 ms (written here, not imported from the code).
const SPEC_DELAY_MS = 700;
const SPEC_SKIP_DELAY_MS = 300;

describe('Tooltip', () => {
  beforeEach(() => vi.useFakeTimers({ shouldAdvanceTime: true }));
  afterEach(() => vi.useRealTimers());

  it('opens only after the product delay of hovering', async () => {
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    render(
      <TooltipProvider>
        <Tooltip label="Habla con nuestro asistente">
          <button type="button">Voice</button>
        </Tooltip>
      </TooltipProvider>,
    );
    await user.hover(screen.getByRole('button', { name: 'Voice' }));
    act(() => vi.advanceTimersByTime(SPEC_DELAY_MS - 50));
    expect(screen.queryByRole('tooltip')).toBeNull();
    act(() => vi.advanceTimersByTime(100));
    expect(await screen.findByRole('tooltip')).toHaveTextContent('Habla con nuestro asistente');
  });

  it('opens the next one at once within the skip delay, and waits the full delay after it', async () => {
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    render(
      <TooltipProvider>
        {['first', 'second', 'third'].map((label) => (
          <Tooltip key={label} label={`${label} tip`}>
            <button type="button">{label}</button>
          </Tooltip>
        ))}
      </TooltipProvider>,
    );
    // A closing tooltip may linger in the DOM for a moment; what matters is which one is showing.
    const showing = () => screen.queryAllByRole('tooltip').map((tip) => tip.textContent);
    await user.hover(screen.getByRole('button', { name: 'first' }));
    act(() => vi.advanceTimersByTime(SPEC_DELAY_MS));
    expect(await screen.findByRole('tooltip')).toHaveTextContent('first tip');

    await user.keyboard('{Escape}'); // jsdom has no layout for leaving by pointer; Escape closes it as well
    act(() => vi.advanceTimersByTime(SPEC_SKIP_DELAY_MS - 100));
    await user.hover(screen.getByRole('button', { name: 'second' }));
    expect(showing()).toContain('second tip');

    await user.keyboard('{Escape}');
    act(() => vi.advanceTimersByTime(SPEC_SKIP_DELAY_MS + 100));
    await user.hover(screen.getByRole('button', { name: 'third' }));
    act(() => vi.advanceTimersByTime(SPEC_DELAY_MS - 100));
    expect(showing()).not.toContain('third tip');
    act(() => vi.advanceTimersByTime(100));
    expect(await screen.findByRole('tooltip')).toHaveTextContent('third tip');
  });
});
