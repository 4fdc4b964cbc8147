import type { ReactNode } from 'react';
import { Island } from '../../islands/Island';
import { SiteFooter } from './SiteFooter';

/** A page of one card in the middle of the screen, under every page's header, above its footer. */
export function CenteredPage({
  cardClassName,
  children,
}: {
  cardClassName: string;
  children: ReactNode;
}) {
  return (
    <>
      <Island name="header" />
      <main
        id="main"
        tabIndex={-1}
        className="flex min-h-screen items-center justify-center px-4 pt-24 pb-16 outline-none"
      >
        <div className={`bg-white ring-1 ring-slate-200 ${cardClassName}`}>{children}</div>
      </main>
      <SiteFooter />
    </>
  );
}
