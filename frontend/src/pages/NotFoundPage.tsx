import { CenteredPage } from '../components/layout/CenteredPage';
import { Button } from '../components/ui/button';
import { notFoundPage as text } from '../content';
import { homePath } from '../language';

/** The 404 texts of docs/product.md §2, with the header and footer of every page and a way back home. */
export function NotFoundPage() {
  return (
    <CenteredPage cardClassName="max-w-md rounded-2xl p-8 text-center shadow-lg">
      <h1 className="text-2xl font-bold text-slate-900">{text.title}</h1>
      <p className="mt-4 text-slate-700">{text.text}</p>
      <Button asChild className="mt-6">
        <a href={homePath}>{text.homeLink}</a>
      </Button>
    </CenteredPage>
  );
}
