import { describe, expect, it } from 'vitest';
import { cn } from './cn';

describe('cn', () => {
  it('lets a later utility override an earlier one', () => {
    expect(cn('h-11 px-6', 'h-12')).toBe('px-6 h-12');
    expect(cn('inline-flex', false, 'hidden')).toBe('hidden');
  });

  it('returns a single input unchanged', () => {
    expect(cn('h-11 px-6 text-base', undefined)).toBe('h-11 px-6 text-base');
    expect(cn({ 'font-bold': true, italic: false })).toBe('font-bold');
  });
});
