import { notLicensedText } from './states';

/**
 * A warning beside a lead whose ZIP code is in a state the broker is not licensed in (the
 * server's `licensed: false`, checked against the content's `broker.licences`).
 */
export function NotLicensedBadge({ state }: { state: string }) {
  return (
    <span className="inline-flex items-center gap-1 rounded-full border border-amber-500 bg-amber-50 px-2.5 py-0.5 text-sm font-semibold whitespace-nowrap text-amber-900">
      <span aria-hidden="true">⚠</span>
      {notLicensedText(state)}
    </span>
  );
}
