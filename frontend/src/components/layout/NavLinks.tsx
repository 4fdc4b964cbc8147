import { clsx } from 'clsx';
import { header } from '../../content';

/** The header's entrance: the first item's delay and the gap between items (s, docs/product.md §2). */
const NAV_ENTRANCE_DELAY_S = 0.3;
const NAV_ENTRANCE_STAGGER_S = 0.1;

/** The entrance delay of the header's `index`th item (the quote button comes after the links). */
export const navEntranceDelay = (index: number) =>
  `${NAV_ENTRANCE_DELAY_S + index * NAV_ENTRANCE_STAGGER_S}s`;

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
          style={animated ? { animationDelay: navEntranceDelay(index) } : undefined}
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
