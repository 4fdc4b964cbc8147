import { Slot } from '@radix-ui/react-slot';
import type { VariantProps } from 'class-variance-authority';
import { clsx } from 'clsx';
import type { ComponentProps } from 'react';
import { buttonVariants } from './button-variants';

type ButtonProps = ComponentProps<'button'> &
  VariantProps<typeof buttonVariants> & { asChild?: boolean };

/**
 * `className` adds classes (a margin, say); it does not override the variant's own: a different
 * look is a variant. So a button needs no tailwind-merge, which would otherwise be on the page's
 * first load (`scripts/first-load-size.mjs` measures it).
 */
export function Button({ className, variant, size, asChild = false, ...props }: ButtonProps) {
  const Component = asChild ? Slot : 'button';
  return <Component className={clsx(buttonVariants({ variant, size }), className)} {...props} />;
}
