import { m } from 'framer-motion';
import type { ReactNode } from 'react';

interface RevealProps {
  children: ReactNode;
  className?: string;
  /** Seconds to wait after the element enters the viewport (for staggered cards). */
  delay?: number;
}

/**
 * Fades and slides its content in once, when it is first scrolled into view (spec §4). Under
 * prefers-reduced-motion MotionConfig drops the slide and only the fade remains. Without
 * JavaScript a <noscript> rule in index.html shows the content as it is.
 */
export function Reveal({ children, className, delay = 0 }: RevealProps) {
  return (
    <m.div
      data-reveal=""
      className={className}
      initial={{ opacity: 0, y: 24 }}
      whileInView={{ opacity: 1, y: 0 }}
      viewport={{ once: true, amount: 0.2 }}
      transition={{ duration: 0.5, ease: 'easeOut', delay }}
    >
      {children}
    </m.div>
  );
}
