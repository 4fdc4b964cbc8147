import { SiteFooter } from '../components/layout/SiteFooter';
import { Button } from '../components/ui/button';
import { notFoundPage as text } from '../content';
import { Island } from '../islands/Island';
import { homePath } from '../language';

/** The 404 texts of docs/product.md §2, with the header and footer of every page and a way back home. */
export function NotFoundPage() {
  return (
    <>
      <Island name="header" />
      <main
        id="main"
        tabIndex={-1}
        className="flex min-h-screen items-center justify-center px-4 pt-24 pb-16 outline-none"
      >
        <div className="max-w-md rounded-2xl bg-white p-8 text-center shadow-lg ring-1 ring-slate-200">
          <h1 className="text-2xl font-bold text-slate-900">{text.title}</h1>
          <p className="mt-4 text-slate-700">{text.text}</p>
          <Button asChild className="mt-6">
            <a href={homePath}>{text.homeLink}</a>
          </Button>
        </div>
      </main>
      <SiteFooter />
    </>
  );
}
