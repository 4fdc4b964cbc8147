import * as TooltipPrimitive from '@radix-ui/react-tooltip';
import type { ComponentProps, ReactNode } from 'react';

/** Tooltips open after this hover delay; moving to another within the skip delay opens it at
 * once (ms, docs/product.md §9). */
const TOOLTIP_DELAY_MS = 700;
const TOOLTIP_SKIP_DELAY_MS = 300;

/**
 * The tooltip timings of docs/product.md §9 for the tooltips inside it. Wrap the part of the page that has
 * tooltips, not the whole app: Radix's provider pulls in the positioning engine, which would then
 * weigh on every page's first load.
 */
export function TooltipProvider(
  props: Omit<
    ComponentProps<typeof TooltipPrimitive.Provider>,
    'delayDuration' | 'skipDelayDuration'
  >,
) {
  return (
    <TooltipPrimitive.Provider
      delayDuration={TOOLTIP_DELAY_MS}
      skipDelayDuration={TOOLTIP_SKIP_DELAY_MS}
      {...props}
    />
  );
}

type Placement = Pick<
  ComponentProps<typeof TooltipPrimitive.Content>,
  'side' | 'align' | 'sideOffset'
>;

/**
 * Shows `label` next to `children` (one focusable element) on hover and keyboard focus. The label
 * is portalled out of its region, so give it the region's `lang` when that differs from the page's.
 */
export function Tooltip({
  label,
  lang,
  children,
  sideOffset = 6,
  ...placement
}: { label: string; lang?: string; children: ReactNode } & Placement) {
  return (
    <TooltipPrimitive.Root>
      <TooltipPrimitive.Trigger asChild>{children}</TooltipPrimitive.Trigger>
      <TooltipPrimitive.Portal>
        <TooltipPrimitive.Content
          lang={lang}
          sideOffset={sideOffset}
          {...placement}
          className="z-50 rounded-md bg-slate-900 px-3 py-1.5 text-sm text-white shadow-lg"
        >
          {label}
          <TooltipPrimitive.Arrow className="fill-slate-900" />
        </TooltipPrimitive.Content>
      </TooltipPrimitive.Portal>
    </TooltipPrimitive.Root>
  );
}
