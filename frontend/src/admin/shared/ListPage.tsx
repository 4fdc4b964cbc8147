import { useEffect, useRef, type ReactNode } from 'react';

/** A failure to show where it happened. */
export function Alert({ error }: { error: string }) {
  if (!error) return null;
  return (
    <p role="alert" className="mt-3 text-red-700">
      {error}
    </p>
  );
}

/**
 * An inbox list: its heading (focused as the page appears), what it lists, a failure, and
 * "Loading…" until `loading` is false.
 */
export function ListPage({
  id,
  title,
  intro,
  error,
  loading,
  children,
}: {
  id: string;
  title: string;
  intro: string;
  error: string;
  loading: boolean;
  children: ReactNode;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <section aria-labelledby={id}>
      <h1 id={id} ref={heading} tabIndex={-1} className="text-2xl font-bold">
        {title}
      </h1>
      <p className="mt-1 text-slate-700">{intro}</p>
      <Alert error={error} />
      {loading && !error && <p role="status">Loading…</p>}
      {children}
    </section>
  );
}
