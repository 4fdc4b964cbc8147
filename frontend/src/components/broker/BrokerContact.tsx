import { broker, footer, telHref } from '../../content';

/** The broker's contact details that the content sets; nothing when none is. */
export function BrokerContact({ linkClass }: { linkClass: string }) {
  const { phone, email, address, hours, nationalProducerNumber } = broker;
  if (!phone && !email && !address && !hours && !nationalProducerNumber) return null;
  return (
    <address className="mt-6 grid gap-2 not-italic">
      {phone && (
        <p>
          {footer.phoneLabel}:{' '}
          <a href={telHref(phone)} className={linkClass}>
            {phone}
          </a>
        </p>
      )}
      {email && (
        <p>
          {footer.emailLabel}:{' '}
          <a href={`mailto:${email}`} className={linkClass}>
            {email}
          </a>
        </p>
      )}
      {address && <p className="whitespace-pre-line">{address}</p>}
      {hours && (
        <p>
          {footer.hoursLabel}: {hours}
        </p>
      )}
      {nationalProducerNumber && (
        <p>
          {footer.nationalProducerNumber}: {nationalProducerNumber}
        </p>
      )}
    </address>
  );
}
