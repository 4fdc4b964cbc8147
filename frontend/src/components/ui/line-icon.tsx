import type { ComponentProps, ReactNode } from 'react';

// The one way of drawing an icon that comes before lucide-react's runtime (the first screen's,
// `first-screen-icons.tsx`, and the idle voice buttons', `features/voice/components/idle-icons.tsx`):
// lucide's drawing written out as plain SVG, so the runtime stays out of the first load
// (`scripts/first-load-size.mjs`). Every other icon comes from lucide-react.

export type IconProps = Omit<ComponentProps<'svg'>, 'children'>;

/** An icon in lucide's look: 24 px grid, 2 px round strokes in the current colour. */
function LineIcon({ children, ...props }: IconProps & { children: ReactNode }) {
  return (
    <svg
      xmlns="http://www.w3.org/2000/svg"
      width={24}
      height={24}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      {...props}
    >
      {children}
    </svg>
  );
}

/** The icon component for `drawing`, lucide's SVG elements of one icon. */
export function lineIcon(drawing: ReactNode) {
  return (props: IconProps) => <LineIcon {...props}>{drawing}</LineIcon>;
}
