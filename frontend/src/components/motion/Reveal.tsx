import type { CSSProperties, ReactNode } from 'react';

interface RevealProps {
  children: ReactNode;
  className?: string;
  /** Seconds to wait after the element enters the viewport (for staggered cards). */
  delay?: number;
}

/**
 * Fades and slides its content in once, when it is first scrolled into view (docs/product.md §4): a CSS
 * transition (index.css) started by lib/reveal-on-scroll.ts, so it works in static sections and
 * islands alike. Under prefers-reduced-motion it appears at once; without JavaScript a
 * <noscript> rule in index.html shows the content as it is.
 */
export function Reveal({ children, className, delay = 0 }: RevealProps) {
  const style = delay ? ({ '--reveal-delay': `${delay}s` } as CSSProperties) : undefined;
  return (
    // In an island, the observer may mark the element revealed before React hydrates it: an
    // attribute React does not own and leaves alone, so the difference is expected.
    <div data-reveal="" className={className} style={style} suppressHydrationWarning>
      {children}
    </div>
  );
}
