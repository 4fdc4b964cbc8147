import { clsx } from 'clsx';
import { header } from '../../content';
import { NAV_ENTRANCE_DELAY_S, NAV_ENTRANCE_STAGGER_S } from '../../spec-constants';

interface NavLinksProps {
  className?: string;
  linkClassName?: string;
  /** Play the staggered entrance (the header's row; the drawer slides in as a whole). */
  animated?: boolean;
  onNavigate?: () => void;
}

/** The four header links; each leads to the top of the page and does nothing else (docs/product.md §2). */
export function NavLinks({
  className,
  linkClassName,
  animated = false,
  onNavigate,
}: NavLinksProps) {
  return (
    <ul className={className}>
      {header.nav.map((link, index) => (
        <li
          key={link.label}
          className={animated ? 'enter-fade-down' : undefined}
          style={
            animated
              ? { animationDelay: `${NAV_ENTRANCE_DELAY_S + index * NAV_ENTRANCE_STAGGER_S}s` }
              : undefined
          }
        >
          <a
            href={link.href}
            onClick={onNavigate}
            className={clsx(
              'rounded-md font-medium text-slate-800 hover:text-brand-700 focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-brand-600',
              linkClassName,
            )}
          >
            {link.label}
          </a>
        </li>
      ))}
    </ul>
  );
}
