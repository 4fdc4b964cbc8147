import { notFoundPage as text } from '../content';

export function NotFoundPage() {
  return (
    <main id="main" className="flex min-h-screen items-center justify-center px-4">
      <div className="max-w-md rounded-2xl bg-white p-8 text-center shadow-lg ring-1 ring-slate-200">
        <h1 className="text-2xl font-bold text-slate-900">{text.title}</h1>
        <p className="mt-4 text-slate-700">{text.text}</p>
      </div>
    </main>
  );
}
