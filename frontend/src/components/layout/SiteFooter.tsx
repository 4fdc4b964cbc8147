import { clsx } from 'clsx';
import { bookingLink, brand, copyrightParts, footer } from '../../content';
import { pathIn } from '../../language';
import { BrokerContact } from '../broker/BrokerContact';
import { MedicareDisclaimer } from '../broker/MedicareDisclaimer';
import { COPYRIGHT_ATTRIBUTE } from './current-year';
import { LanguageSwitch } from './LanguageSwitch';
import { SocialIcon } from './SocialIcon';

const linkClass =
  'rounded-sm text-slate-200 hover:text-white hover:underline focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-white';

/**
 * Static: served as prerendered HTML; the browser only updates the year (current-year.ts).
 * `languagePath` is the page's path in English terms (/privacy), where the language switch leads.
 * `floatingButtons`: the page has the voice region's buttons in its bottom right corner, which on
 * a phone span the width the footer's last lines use; the room below those lines keeps them clear
 * of the buttons once the page is scrolled to its end (e2e/floating-buttons.test.mjs).
 */
export function SiteFooter({
  languagePath = '/',
  floatingButtons = false,
}: {
  languagePath?: string;
  floatingButtons?: boolean;
}) {
  const copyrightYear = { [COPYRIGHT_ATTRIBUTE]: '' };
  const [beforeYear, afterYear] = copyrightParts();
  return (
    <footer
      className={clsx(
        'bg-slate-900 px-4 pt-16 text-slate-200',
        floatingButtons ? 'pb-24 sm:pb-8' : 'pb-8',
      )}
    >
      <div className="mx-auto grid max-w-6xl gap-10 md:grid-cols-[1.5fr_1fr_1fr_1fr]">
        <div>
          <img
            src={brand.logoOnDark.src}
            alt={brand.name}
            width={brand.logoOnDark.width}
            height={brand.logoOnDark.height}
            loading="lazy"
          />
          <p className="mt-4 max-w-sm">{footer.description}</p>
          <BrokerContact linkClass={linkClass} />
          <ul aria-label={footer.socialLabel} className="mt-6 flex gap-3">
            {footer.social.map((item) => (
              <li key={item.network}>
                <a
                  href={item.href}
                  aria-label={item.label}
                  className="inline-flex h-11 w-11 items-center justify-center rounded-full bg-white/10 text-white hover:bg-white/20 focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-white"
                >
                  <SocialIcon network={item.network} />
                </a>
              </li>
            ))}
          </ul>
        </div>
        {footer.columns.map((column) => (
          <nav key={column.heading} aria-labelledby={`footer-${column.heading}`}>
            <h2 id={`footer-${column.heading}`} className="text-lg font-semibold text-white">
              {column.heading}
            </h2>
            <ul className="mt-4 grid gap-3">
              {column.links.map((link) => (
                <li key={link.label}>
                  <a href={link.href} className={linkClass}>
                    {link.label}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
        ))}
      </div>
      <MedicareDisclaimer />
      <p className="mx-auto mt-12 max-w-6xl border-t border-white/15 pt-6 text-center text-sm text-slate-300">
        {beforeYear}
        <span {...copyrightYear}>{__BUILD_YEAR__}</span>
        {afterYear}
      </p>
      {bookingLink && (
        <p className="mt-4 text-center text-sm">
          {/* The server's booking page (backend/src/routes/booking/), there when booking is on. */}
          <a href={pathIn('/book')} className={linkClass}>
            {bookingLink}
          </a>
        </p>
      )}
      <p className="mt-4 text-center text-sm">
        <LanguageSwitch className={linkClass} path={languagePath} />
      </p>
    </footer>
  );
}
