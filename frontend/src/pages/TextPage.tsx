import type { ReactNode } from 'react';
import { SiteFooter } from '../components/layout/SiteFooter';
import { Island } from '../islands/Island';

/**
 * A page of text (the privacy notice, the licences): the header, `title` over `children` on one
 * card, and the footer, whose language switch leads to `languagePath` in the other language.
 */
export function TextPage({
  title,
  languagePath,
  children,
}: {
  title: string;
  languagePath: string;
  children: ReactNode;
}) {
  return (
    <>
      <Island name="header" />
      <main id="main" tabIndex={-1} className="px-4 pt-28 pb-16 outline-none">
        <article className="prose-page mx-auto max-w-3xl rounded-3xl bg-white p-8 shadow-xl ring-1 ring-slate-200 sm:p-12">
          <h1 className="text-3xl font-bold text-slate-900">{title}</h1>
          {children}
        </article>
      </main>
      <SiteFooter languagePath={languagePath} />
    </>
  );
}
