import { broker, footer, telHref } from '../../content';

/** The broker's contact details and licences that the content sets; nothing when none is. */
export function BrokerContact({ linkClass }: { linkClass: string }) {
  const { phone, email, address, hours, nationalProducerNumber, licences } = broker;
  if (!phone && !email && !address && !hours && !nationalProducerNumber && !licences.length)
    return null;
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
      {licences.length > 0 && (
        <p>
          {footer.licences}:{' '}
          {licences.map((licence) => `${licence.state} ${licence.number}`).join(', ')}
        </p>
      )}
    </address>
  );
}
