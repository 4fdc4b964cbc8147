import { clsx } from 'clsx';
import { lazy, Suspense, useRef, useState } from 'react';
import { brand, broker, header, spanish, telHref } from '../../content';
import { QUOTE_HREF } from '../../lib/quote-link';
import { useScrolledPast } from '../../lib/use-scrolled-past';
import { buttonVariants } from '../ui/button-variants';
import { MenuIcon, PhoneIcon } from '../ui/first-screen-icons';
import { LanguageSwitch } from './LanguageSwitch';
import { NavLinks, navEntranceDelay } from './NavLinks';

/** The header turns solid once the page is scrolled further than this (px, docs/product.md §9). */
const HEADER_SOLID_AFTER_PX = 20;

const MobileMenu = lazy(() => import('./MobileMenu'));

/** Fixed header: transparent at the top, solid white with blur once scrolled past 20 px. */
export function SiteHeader() {
  const solid = useScrolledPast(HEADER_SOLID_AFTER_PX);
  const [menuOpen, setMenuOpen] = useState(false);
  // The drawer's code is fetched on the first open and kept mounted after that.
  const [menuWanted, setMenuWanted] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);

  return (
    <header
      data-solid={solid}
      className={clsx(
        'fixed inset-x-0 top-0 z-40 transition-[background-color,box-shadow] duration-300',
        solid ? 'bg-white/85 shadow-md backdrop-blur-md' : 'bg-transparent',
      )}
    >
      <a
        href="#main"
        className="sr-only rounded-md bg-white px-4 py-2 font-semibold text-brand-700 focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus-visible:outline-3 focus-visible:outline-brand-600"
      >
        {header.skipLink}
      </a>
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4 md:h-20">
        <a
          href="#top"
          className="rounded-md focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
        >
          {/* Low priority: the page's largest paint is the hero's text, which needs no request. */}
          <img
            src={brand.logo.src}
            alt={brand.name}
            width={brand.logo.width}
            height={brand.logo.height}
            fetchPriority="low"
          />
        </a>
        <nav aria-label={header.navLabel} className="hidden md:block">
          <NavLinks animated className="flex items-center gap-8" />
        </nav>
        <div
          className="enter-fade-down hidden items-center gap-6 md:flex"
          style={{ animationDelay: navEntranceDelay(header.nav.length) }}
        >
          <LanguageSwitch className="rounded-md font-medium text-slate-700 hover:text-brand-700 focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-brand-600" />
          <a href={QUOTE_HREF} lang={spanish} className={buttonVariants()}>
            {header.cta}
          </a>
        </div>
        <div className="flex items-center gap-1 md:hidden">
          {broker.phone && (
            <a
              href={telHref(broker.phone)}
              aria-label={`${header.call} ${broker.phone}`}
              className={buttonVariants({ variant: 'ghost', size: 'icon' })}
            >
              <PhoneIcon aria-hidden="true" className="h-6 w-6" />
            </a>
          )}
          <button
            ref={menuButton}
            type="button"
            className={buttonVariants({ variant: 'ghost', size: 'icon' })}
            aria-label={header.openMenu}
            aria-haspopup="dialog"
            aria-expanded={menuOpen}
            onClick={() => {
              setMenuWanted(true);
              setMenuOpen(true);
            }}
          >
            <MenuIcon aria-hidden="true" className="h-6 w-6" />
          </button>
        </div>
      </div>
      {menuWanted && (
        <Suspense fallback={null}>
          <MobileMenu open={menuOpen} onOpenChange={setMenuOpen} trigger={menuButton} />
        </Suspense>
      )}
    </header>
  );
}
