import * as Dialog from '@radix-ui/react-dialog';
import { X } from 'lucide-react';
import { useRef, type CSSProperties, type RefObject } from 'react';
import { header, spanish } from '../../content';
import { goToQuote, QUOTE_HREF } from '../../lib/quote-link';
import { Button } from '../ui/button';
import { NavLinks } from './NavLinks';
import { LanguageSwitch } from './LanguageSwitch';

interface MobileMenuProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The 'Open Menu' button, which gets focus back when the menu closes. */
  trigger: RefObject<HTMLButtonElement | null>;
}

/** The side menu's width, and from the sm breakpoint up (px, docs/product.md §9). */
const MOBILE_MENU_WIDTH_PX = 240;
const MOBILE_MENU_WIDTH_SM_PX = 300;

const widths = {
  '--menu-width': `${MOBILE_MENU_WIDTH_PX}px`,
  '--menu-width-sm': `${MOBILE_MENU_WIDTH_SM_PX}px`,
} as CSSProperties;

/**
 * The side menu below the md breakpoint: slides in from the right; Escape, a click outside, a
 * link or the quote link close it; focus stays inside while open (Radix Dialog). The quote link
 * closes the menu first and then leads to the form, which the open menu would hide and keep
 * from scrolling. Loaded only when first opened.
 */
export default function MobileMenu({ open, onOpenChange, trigger }: MobileMenuProps) {
  const close = () => onOpenChange(false);
  const quoteWanted = useRef(false);
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="drawer-overlay fixed inset-0 z-50 bg-slate-900/50" />
        <Dialog.Content
          aria-describedby={undefined}
          style={widths}
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            if (quoteWanted.current) {
              quoteWanted.current = false;
              // No form on this page (404): the link's own destination.
              if (!goToQuote()) window.location.assign(QUOTE_HREF);
              return;
            }
            trigger.current?.focus();
          }}
          className="drawer-panel fixed inset-y-0 right-0 z-50 flex w-[var(--menu-width)] flex-col gap-6 bg-white p-6 shadow-2xl sm:w-[var(--menu-width-sm)]"
        >
          <div className="flex items-center justify-between">
            <Dialog.Title lang={spanish} className="text-lg font-semibold text-slate-900">
              {header.menuTitle}
            </Dialog.Title>
            <Dialog.Close asChild>
              <Button variant="ghost" size="icon" lang={spanish} aria-label={header.closeMenu}>
                <X aria-hidden="true" className="h-5 w-5" />
              </Button>
            </Dialog.Close>
          </div>
          <nav aria-label={header.navLabel}>
            <NavLinks
              className="flex flex-col gap-1"
              linkClassName="block px-2 py-3 text-lg"
              onNavigate={close}
            />
          </nav>
          <Button asChild lang={spanish} size="wrapping">
            <a
              href={QUOTE_HREF}
              onClick={(event) => {
                event.preventDefault();
                quoteWanted.current = true;
                close();
              }}
            >
              {header.cta}
            </a>
          </Button>
          <LanguageSwitch className="rounded-md px-2 py-3 text-lg font-medium text-slate-700 hover:text-brand-700 focus-visible:outline-3 focus-visible:outline-brand-600" />
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
