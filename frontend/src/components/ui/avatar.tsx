import * as AvatarPrimitive from '@radix-ui/react-avatar';
import { cn } from '../../lib/cn';
import { AVATAR_SIZE_PX } from '../../spec-constants';

interface AvatarProps {
  src: string;
  name: string;
  size?: number;
  /** Wait this long before showing the initials, so a fast image does not flash them. */
  fallbackDelayMs?: number;
  className?: string;
}

/** "Ana María López" → "AL". */
export function initials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return '';
  const first = words[0][0];
  const last = words.length > 1 ? words[words.length - 1][0] : '';
  return (first + last).toUpperCase();
}

/** A round portrait; the initials show while the image is idle, loading or broken (spec §4). */
export function Avatar({ src, name, size = AVATAR_SIZE_PX, fallbackDelayMs, className }: AvatarProps) {
  return (
    <AvatarPrimitive.Root
      className={cn('relative inline-flex shrink-0 overflow-hidden rounded-full bg-brand-700', className)}
      style={{ width: size, height: size }}
    >
      <AvatarPrimitive.Image src={src} alt={name} width={size} height={size} className="h-full w-full object-cover" />
      <AvatarPrimitive.Fallback
        delayMs={fallbackDelayMs}
        className="flex h-full w-full items-center justify-center font-semibold text-white"
        aria-label={name}
        role="img"
      >
        {initials(name)}
      </AvatarPrimitive.Fallback>
    </AvatarPrimitive.Root>
  );
}
