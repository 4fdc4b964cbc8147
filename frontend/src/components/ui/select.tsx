import { clsx } from 'clsx';
import type { ComponentProps } from 'react';

type SelectProps = ComponentProps<'select'> & {
  /** The first option, chosen until the visitor picks another: its value is empty. */
  placeholder: string;
  options: readonly { value: string; label: string }[];
};

/**
 * The platform's own dropdown: it works in the prerendered HTML before any script (and without
 * one), a touch screen opens its native picker, and choosing costs no script at all. The browser
 * keeps the list inside the viewport and finds options by the letters typed (docs/product.md §9). `required`
 * only styles the placeholder (`:invalid`); the form's own rules say what is wrong.
 */
export function Select({ className, placeholder, options, ...props }: SelectProps) {
  return (
    <div className="relative">
      <select
        required
        className={clsx(
          'h-12 w-full appearance-none rounded-xl border border-slate-300 bg-white pr-10 pl-4 text-slate-900 ' +
            'invalid:text-slate-600 focus-visible:outline-3 focus-visible:outline-brand-600 aria-[invalid=true]:border-red-700',
          className,
        )}
        {...props}
      >
        <option value="">{placeholder}</option>
        {options.map((option) => (
          <option key={option.value} value={option.value} className="text-slate-900">
            {option.label}
          </option>
        ))}
      </select>
      {/* lucide's chevron-down, drawn inline: the form needs no icon runtime. */}
      <svg
        aria-hidden="true"
        viewBox="0 0 24 24"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
        strokeLinejoin="round"
        className="pointer-events-none absolute top-1/2 right-4 h-4 w-4 -translate-y-1/2 text-slate-600"
      >
        <path d="m6 9 6 6 6-6" />
      </svg>
    </div>
  );
}
