import * as ToastPrimitive from '@radix-ui/react-toast';
import { cva } from 'class-variance-authority';
import { X } from 'lucide-react';
import { notifications } from 'virtual:site-content';
import { dismissToast, useToasts, type ToastVariant } from '../../lib/toast-store';

/** Toasts close by themselves after this long (docs/product.md §9). */
const TOAST_DURATION_MS = 5000;
/** A rightward swipe this long (px) dismisses a toast (docs/product.md §9). */
const TOAST_SWIPE_THRESHOLD_PX = 50;
/** The key that moves focus to the notification area (docs/product.md §2). */
const TOAST_HOTKEY = 'F8';

const toastVariants = cva(
  'pointer-events-auto relative flex w-full items-start gap-3 rounded-xl border p-4 pr-10 shadow-lg ' +
    'data-[swipe=move]:translate-x-[var(--radix-toast-swipe-move-x)] data-[swipe=end]:translate-x-full ' +
    'data-[state=closed]:opacity-0 transition',
  {
    variants: {
      variant: {
        default: 'border-slate-200 bg-white text-slate-900',
        destructive: 'border-red-700 bg-red-700 text-white',
      } satisfies Record<ToastVariant, string>,
    },
  },
);

/**
 * The page's notification area (docs/product.md §2): 5 s, swipe right to dismiss, F8 to focus. One
 * with a link stays until it is closed: a link that vanished after 5 s could not be reached by
 * everyone (WCAG 2.2.1).
 */
export function Toaster() {
  const toasts = useToasts();
  return (
    <ToastPrimitive.Provider
      label={notifications.announcement}
      duration={TOAST_DURATION_MS}
      swipeDirection="right"
      swipeThreshold={TOAST_SWIPE_THRESHOLD_PX}
    >
      {toasts.map((t) => (
        <ToastPrimitive.Root
          key={t.id}
          open={t.open}
          onOpenChange={(open) => !open && dismissToast(t.id)}
          className={toastVariants({ variant: t.variant })}
          type={t.variant === 'destructive' ? 'foreground' : 'background'}
          duration={t.link ? Infinity : undefined}
        >
          <div className="grid gap-1">
            <ToastPrimitive.Title className="font-semibold">{t.title}</ToastPrimitive.Title>
            {t.description && (
              <ToastPrimitive.Description className="text-sm opacity-90">
                {t.description}
              </ToastPrimitive.Description>
            )}
            {t.link && (
              <a href={t.link.href} className="text-sm font-semibold text-brand-700 underline">
                {t.link.label}
              </a>
            )}
          </div>
          <ToastPrimitive.Close
            aria-label={notifications.close}
            className="absolute top-3 right-3 rounded-md p-1 focus-visible:outline-2 focus-visible:outline-current"
          >
            <X aria-hidden="true" className="h-4 w-4" />
          </ToastPrimitive.Close>
        </ToastPrimitive.Root>
      ))}
      {/* Above the voice button, which sits in the same corner, so a toast never covers it; the
          empty area lets clicks through. */}
      <ToastPrimitive.Viewport
        hotkey={[TOAST_HOTKEY]}
        label={notifications.label.replace('{hotkey}', TOAST_HOTKEY)}
        className="pointer-events-none fixed right-0 bottom-20 z-[100] m-0 flex w-full max-w-sm list-none flex-col gap-2 p-4 outline-none sm:bottom-24"
      />
    </ToastPrimitive.Provider>
  );
}
