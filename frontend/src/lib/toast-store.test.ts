import { afterEach, describe, expect, it, vi } from 'vitest';
import { dismissToast, toast, useToasts } from './toast-store';
import { renderHook, act } from '@testing-library/react';

// docs/product.md §9: a dismissed toast is removed after 1,000,000 ms (written here, not imported from the code).
const SPEC_REMOVE_DELAY_MS = 1_000_000;

describe('toast store', () => {
  afterEach(() => vi.useRealTimers());

  it('keeps one notification at a time, newest first', () => {
    const { result } = renderHook(() => useToasts());
    act(() => {
      toast({ title: 'first' });
      toast({ title: 'second', variant: 'destructive' });
    });
    expect(result.current).toHaveLength(1);
    expect(result.current[0]).toMatchObject({
      title: 'second',
      variant: 'destructive',
      open: true,
    });
  });

  it('closes on dismiss and forgets after the removal delay', () => {
    vi.useFakeTimers();
    const { result } = renderHook(() => useToasts());
    let id = 0;
    act(() => {
      id = toast({ title: 'bye' });
    });
    act(() => dismissToast(id));
    expect(result.current[0]).toMatchObject({ title: 'bye', open: false });
    act(() => vi.advanceTimersByTime(SPEC_REMOVE_DELAY_MS - 1));
    expect(result.current).toHaveLength(1);
    act(() => vi.advanceTimersByTime(1));
    expect(result.current).toHaveLength(0);
  });
});
