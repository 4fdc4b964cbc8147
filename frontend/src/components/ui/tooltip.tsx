import * as TooltipPrimitive from '@radix-ui/react-tooltip';
import type { ReactNode } from 'react';
import { TOOLTIP_DELAY_MS, TOOLTIP_SKIP_DELAY_MS } from '../../spec-constants';

/**
 * Shows `label` next to `children` (one focusable element) on hover and keyboard focus, with the
 * spec's timings (§9). It carries its own provider rather than one around the whole app: Radix's
 * provider pulls in the positioning engine, which would then weigh on every page's first load.
 * Tooltips that should share the skip delay go inside one `TooltipProvider`.
 */
export function TooltipProvider({ children }: { children: ReactNode }) {
  return (
    <TooltipPrimitive.Provider delayDuration={TOOLTIP_DELAY_MS} skipDelayDuration={TOOLTIP_SKIP_DELAY_MS}>
      {children}
    </TooltipPrimitive.Provider>
  );
}

export function Tooltip({ label, children }: { label: string; children: ReactNode }) {
  return (
    <TooltipProvider>
      <TooltipPrimitive.Root>
        <TooltipPrimitive.Trigger asChild>{children}</TooltipPrimitive.Trigger>
        <TooltipPrimitive.Portal>
          <TooltipPrimitive.Content
            sideOffset={6}
            className="z-50 rounded-md bg-slate-900 px-3 py-1.5 text-sm text-white shadow-lg"
          >
            {label}
            <TooltipPrimitive.Arrow className="fill-slate-900" />
          </TooltipPrimitive.Content>
        </TooltipPrimitive.Portal>
      </TooltipPrimitive.Root>
    </TooltipProvider>
  );
}
