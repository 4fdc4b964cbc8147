import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { toast } from '../../lib/toast-store';
import { Toaster } from './toaster';

// docs/product.md §9: a toast closes by itself after 5000 ms (written here, not imported from the code).
const SPEC_DURATION_MS = 5000;

describe('Toaster', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('closes a notification by itself after the product duration', () => {
    render(<Toaster />);
    act(() => void toast({ title: 'Quote request submitted!' }));
    const open = () =>
      screen.queryByText('Quote request submitted!')?.closest('li')?.dataset.state === 'open';
    expect(open()).toBe(true);
    act(() => vi.advanceTimersByTime(SPEC_DURATION_MS - 1));
    expect(open()).toBe(true);
    act(() => vi.advanceTimersByTime(1));
    expect(open()).toBe(false);
  });
});
