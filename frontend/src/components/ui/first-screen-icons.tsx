import type { ComponentProps, ReactNode } from 'react';

// The icons of the islands that start with the page (the side menu's button, the partner strip's
// pause and play): lucide's drawings, written out as plain SVG, so lucide-react's runtime stays
// out of the page's first load (`scripts/first-load-size.mjs`). Every other icon comes from
// lucide-react, but for the idle voice buttons' (`features/voice/components/idle-icons.tsx`).

export type IconProps = Omit<ComponentProps<'svg'>, 'children'>;

/** An icon in lucide's look: 24 px grid, 2 px round strokes in the current colour. */
export function LineIcon({ children, ...props }: IconProps & { children: ReactNode }) {
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

export const MenuIcon = (props: IconProps) => (
  <LineIcon {...props}>
    <path d="M4 5h16" />
    <path d="M4 12h16" />
    <path d="M4 19h16" />
  </LineIcon>
);

export const PauseIcon = (props: IconProps) => (
  <LineIcon {...props}>
    <rect x="14" y="3" width="5" height="18" rx="1" />
    <rect x="5" y="3" width="5" height="18" rx="1" />
  </LineIcon>
);

export const PlayIcon = (props: IconProps) => (
  <LineIcon {...props}>
    <path d="M5 5a2 2 0 0 1 3.008-1.728l11.997 6.998a2 2 0 0 1 .003 3.458l-12 7A2 2 0 0 1 5 19z" />
  </LineIcon>
);

export const PhoneIcon = (props: IconProps) => (
  <LineIcon {...props}>
    <path d="M22 16.92v3a2 2 0 0 1-2.18 2 19.79 19.79 0 0 1-8.63-3.07 19.5 19.5 0 0 1-6-6 19.79 19.79 0 0 1-3.07-8.67A2 2 0 0 1 4.11 2h3a2 2 0 0 1 2 1.72c.13.96.36 1.9.7 2.81a2 2 0 0 1-.45 2.11L8.09 9.91a16 16 0 0 0 6 6l1.27-1.27a2 2 0 0 1 2.11-.45c.91.34 1.85.57 2.81.7A2 2 0 0 1 22 16.92z" />
  </LineIcon>
);
