import {
  LazyMotion,
  MotionConfig,
  m,
  useIsPresent,
  useReducedMotionConfig,
  type HTMLMotionProps,
} from 'framer-motion';
import type { ReactNode } from 'react';

/** How long the voice island's parts take to enter and leave, in seconds. */
const POP_SECONDS = 0.18;

const loadFeatures = () => import('./motion-features').then((module) => module.default);

/**
 * The voice island's motion: animation features fetched lazily (the island itself is already a
 * lazy chunk, never first-load code), `strict` so a full `motion` component cannot creep in, and
 * the visitor's prefers-reduced-motion honoured.
 */
export function VoiceMotion({ children }: { children: ReactNode }) {
  return (
    <LazyMotion features={loadFeatures} strict>
      <MotionConfig reducedMotion="user">{children}</MotionConfig>
    </LazyMotion>
  );
}

/**
 * One part of the voice island entering (fade and rise) and, inside AnimatePresence, leaving.
 * While it leaves it is inert and hidden from assistive technology: for them it is gone at once,
 * as it was before it animated. Under reduced motion it appears and goes without a transition.
 */
export function Pop(
  props: Omit<HTMLMotionProps<'div'>, 'initial' | 'animate' | 'exit' | 'transition'>,
) {
  const present = useIsPresent();
  const reduced = useReducedMotionConfig() ?? false;
  return (
    <m.div
      {...props}
      inert={!present}
      aria-hidden={present ? undefined : true}
      initial={reduced ? false : { opacity: 0, y: 8, scale: 0.96 }}
      animate={{ opacity: 1, y: 0, scale: 1 }}
      exit={{ opacity: 0, y: 8, scale: 0.96 }}
      transition={reduced ? { duration: 0 } : { duration: POP_SECONDS, ease: 'easeOut' }}
    />
  );
}
