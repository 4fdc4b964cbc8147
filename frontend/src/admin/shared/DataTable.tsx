import type { ReactNode } from 'react';

/**
 * The inbox's wide-screen table: a caption for screen readers, a header row from `columns`, and
 * the rows (`Row`s of `Cell`s). Phones get a list instead, which each view writes for its rows.
 */
export function DataTable({
  caption,
  columns,
  children,
}: {
  caption: string;
  columns: readonly string[];
  children: ReactNode;
}) {
  return (
    <table className="mt-3 hidden w-full border-collapse overflow-hidden rounded-2xl bg-white text-left shadow-sm md:table">
      <caption className="sr-only">{caption}</caption>
      <thead className="bg-slate-100 text-slate-800">
        <tr>
          {columns.map((column) => (
            <th key={column} scope="col" className="px-3 py-2">
              {column}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );
}

export function Row({ children }: { children: ReactNode }) {
  return <tr className="border-t border-slate-200">{children}</tr>;
}

export function Cell({ children }: { children?: ReactNode }) {
  return <td className="px-3 py-2">{children}</td>;
}
