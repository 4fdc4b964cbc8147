import { useSyncExternalStore } from 'react';

/** Only one notification is shown at a time (docs/product.md §9). */
const TOAST_LIMIT = 1;
/** A dismissed toast is forgotten after this long (docs/product.md §9). */
const TOAST_REMOVE_DELAY_MS = 1_000_000;

export type ToastVariant = 'default' | 'destructive';

/** A link the notification offers (the quote's booking page, docs/product.md §13). */
export interface ToastLink {
  label: string;
  href: string;
}

export interface ToastInput {
  title: string;
  description?: string;
  variant?: ToastVariant;
  link?: ToastLink;
}

export interface ToastItem extends Required<Omit<ToastInput, 'description' | 'link'>> {
  id: number;
  description?: string;
  link?: ToastLink;
  open: boolean;
}

let nextId = 1;
let toasts: ToastItem[] = [];
const listeners = new Set<() => void>();

function publish(next: ToastItem[]) {
  toasts = next;
  listeners.forEach((listener) => listener());
}

/** Shows a notification; it replaces the one on screen (one at a time, docs/product.md §4). */
export function toast({ title, description, variant = 'default', link }: ToastInput): number {
  const id = nextId++;
  publish([{ id, title, description, variant, link, open: true }, ...toasts].slice(0, TOAST_LIMIT));
  return id;
}

/** Closes a notification; it is forgotten after the product's removal delay. */
export function dismissToast(id: number) {
  publish(toasts.map((t) => (t.id === id ? { ...t, open: false } : t)));
  setTimeout(() => publish(toasts.filter((t) => t.id !== id)), TOAST_REMOVE_DELAY_MS);
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const snapshot = () => toasts;

export function useToasts(): ToastItem[] {
  return useSyncExternalStore(subscribe, snapshot, snapshot);
}
