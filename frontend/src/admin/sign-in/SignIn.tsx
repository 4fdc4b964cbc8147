import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Button } from '../../components/ui/button';
import { api, ApiError } from '../api/api';

interface SignInProps {
  /** Why the form is shown again (signed out, session ended). */
  notice: string;
  onSignedIn: () => void;
}

export function SignIn({ notice, onSignedIn }: SignInProps) {
  const id = useId();
  const [password, setPassword] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);

  useEffect(() => heading.current?.focus(), []);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError('');
    try {
      await api.signIn(password);
      onSignedIn();
    } catch (failure) {
      setError(
        failure instanceof ApiError
          ? failure.message
          : 'The server could not be reached. Please try again.',
      );
      setPassword('');
    } finally {
      setBusy(false);
    }
  };

  return (
    <section
      aria-labelledby={`${id}-title`}
      className="mx-auto max-w-sm rounded-2xl bg-white p-6 shadow-sm"
    >
      <h1
        id={`${id}-title`}
        ref={heading}
        tabIndex={-1}
        className="text-2xl font-semibold text-slate-900 outline-none"
      >
        Sign in to the inbox
      </h1>
      {notice && (
        <p role="status" className="mt-3 text-slate-700">
          {notice}
        </p>
      )}
      <form onSubmit={submit} className="mt-6 flex flex-col gap-4">
        <div className="flex flex-col gap-1">
          <label htmlFor={`${id}-password`} className="font-medium text-slate-800">
            Password
          </label>
          <input
            id={`${id}-password`}
            type="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(event) => setPassword(event.target.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-error` : undefined}
            className="h-11 rounded-lg border border-slate-400 px-3 text-base focus-visible:outline-3 focus-visible:outline-brand-600"
          />
        </div>
        <p id={`${id}-error`} role="alert" className="min-h-6 text-red-700">
          {error}
        </p>
        <Button type="submit" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </Button>
      </form>
    </section>
  );
}
