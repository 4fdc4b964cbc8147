import { useEffect, useRef, useState } from 'react';
import { cn } from '../../lib/cn';

/** An avatar's default size (px, docs/product.md §4). */
const AVATAR_SIZE_PX = 40;

interface AvatarProps {
  src: string;
  name: string;
  size?: number;
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

/**
 * A round portrait (docs/product.md §4): a plain lazy `<img>` over the initials, so the initials show while
 * the image is idle or loading, and alone, named, once it cannot load. A plain element rather than
 * Radix Avatar, which loads the image from script and so cannot leave it to `loading="lazy"`.
 */
export function Avatar({ src, name, size = AVATAR_SIZE_PX, className }: AvatarProps) {
  const image = useRef<HTMLImageElement>(null);
  const [broken, setBroken] = useState(false);
  // An image that failed before this island hydrated fired its error event to no listener.
  useEffect(() => {
    const img = image.current;
    if (img?.complete && img.naturalWidth === 0) setBroken(true);
  }, []);
  return (
    <span
      className={cn(
        'relative inline-flex shrink-0 overflow-hidden rounded-full bg-brand-700',
        className,
      )}
      style={{ width: size, height: size }}
    >
      <span
        className="flex h-full w-full items-center justify-center font-semibold text-white"
        {...(broken ? { role: 'img', 'aria-label': name } : { 'aria-hidden': true })}
      >
        {initials(name)}
      </span>
      {!broken && (
        <img
          ref={image}
          src={src}
          alt={name}
          width={size}
          height={size}
          loading="lazy"
          decoding="async"
          onError={() => setBroken(true)}
          className="absolute inset-0 h-full w-full object-cover"
        />
      )}
    </span>
  );
}
