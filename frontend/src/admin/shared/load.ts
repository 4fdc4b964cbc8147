import { useEffect, useState } from 'react';

/** Reports a failed call; returns the message to show, or null when it was handled. */
export type OnError = (error: unknown) => string | null;

/**
 * What `load(key)` answers, loaded again when `key` changes: null until then, and a failure in
 * `onError`'s words. An answer that comes after the page has moved on is dropped.
 */
export function useLoad<K, T>(load: (key: K) => Promise<T>, key: K, onError: OnError) {
  const [value, setValue] = useState<T | null>(null);
  const [error, setError] = useState('');
  useEffect(() => {
    let current = true;
    load(key).then(
      (found) => current && setValue(found),
      (failure: unknown) => current && setError(onError(failure) ?? ''),
    );
    return () => {
      current = false;
    };
  }, [load, key, onError]);
  return { value, setValue, error, setError };
}
