import { cva } from 'class-variance-authority';

/**
 * The button's looks, apart from the component (button.tsx): the header, which hydrates with the
 * page's first island, styles its own <a> and <button> with them and so leaves Radix's Slot
 * (button.tsx's `asChild`) out of the page's first load.
 */
export const buttonVariants = cva(
  'inline-flex items-center justify-center gap-2 rounded-full font-semibold transition-colors ' +
    'focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-brand-600 ' +
    'disabled:cursor-not-allowed disabled:opacity-70',
  {
    variants: {
      variant: {
        primary: 'bg-brand-700 text-white hover:bg-brand-600',
        outline: 'border-2 border-brand-700 text-brand-700 hover:bg-brand-700 hover:text-white',
        ghost: 'text-slate-800 hover:bg-slate-100',
      },
      size: {
        md: 'h-11 px-6 text-base',
        lg: 'h-12 px-6 text-base',
        sm: 'h-9 px-4 text-sm',
        icon: 'h-11 w-11',
        // Grows with a label that wraps onto a second line (the side menu's call to action).
        wrapping: 'min-h-11 px-6 py-2 text-base',
      },
    },
    defaultVariants: { variant: 'primary', size: 'md' },
  },
);
