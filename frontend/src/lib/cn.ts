import { clsx, type ClassValue } from 'clsx';
import { twMerge } from 'tailwind-merge';

/**
 * Joins class names, letting later Tailwind utilities override earlier ones. tailwind-merge
 * builds a large lookup table on its first call (tens of milliseconds on a phone, during
 * hydration), so a single input, which has nothing to override, is returned as it is.
 */
export function cn(...inputs: ClassValue[]) {
  const parts = inputs.filter(Boolean);
  return parts.length > 1 ? twMerge(clsx(parts)) : clsx(parts);
}
