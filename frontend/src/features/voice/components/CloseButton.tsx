import { X } from 'lucide-react';

/** The round ✕ of the assistant's panels and notices: closes one, or dismisses it. */
export function CloseButton({ label, onClick }: { label: string; onClick: () => void }) {
  return (
    <button
      type="button"
      aria-label={label}
      onClick={onClick}
      className="rounded-full p-1 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-brand-600"
    >
      <X aria-hidden className="h-4 w-4" />
    </button>
  );
}
