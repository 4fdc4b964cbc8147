import { Slot } from '@radix-ui/react-slot';
import { cva, type VariantProps } from 'class-variance-authority';
import type { ComponentProps } from 'react';
import { cn } from '../../lib/cn';

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
      },
    },
    defaultVariants: { variant: 'primary', size: 'md' },
  },
);

type ButtonProps = ComponentProps<'button'> & VariantProps<typeof buttonVariants> & { asChild?: boolean };

export function Button({ className, variant, size, asChild = false, ...props }: ButtonProps) {
  const Component = asChild ? Slot : 'button';
  return <Component className={cn(buttonVariants({ variant, size }), className)} {...props} />;
}
