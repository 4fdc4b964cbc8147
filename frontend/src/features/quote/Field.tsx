import type { ReactNode } from 'react';

/** What a field's control takes from its `Field`: its id and how it names its message. */
export interface ControlProps {
  id: string;
  'aria-invalid'?: true;
  'aria-describedby'?: string;
}

/**
 * One of the quote form's fields: the label, the control, the message under it and whatever else
 * the field holds (the phone's consent box). The message is the control's description while it
 * shows, so a screen reader says it with the field.
 */
export function Field({
  id,
  label,
  labelVisible = false,
  message,
  invalid,
  messageClass,
  control,
  children,
}: {
  id: string;
  label: string;
  /** The spec's first row names its fields by placeholder only; the extra fields show a label. */
  labelVisible?: boolean;
  message?: string;
  invalid?: true;
  messageClass: string;
  control: (props: ControlProps) => ReactNode;
  children?: ReactNode;
}) {
  const messageId = `${id}-error`;
  return (
    <div className="grid gap-1">
      <label
        htmlFor={id}
        className={labelVisible ? 'text-sm font-medium text-slate-800' : 'sr-only'}
      >
        {label}
      </label>
      {control({
        id,
        'aria-invalid': invalid,
        'aria-describedby': message ? messageId : undefined,
      })}
      {message && (
        <p id={messageId} className={messageClass}>
          {message}
        </p>
      )}
      {children}
    </div>
  );
}
