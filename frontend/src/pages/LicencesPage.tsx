import { broker, licencesPage as text } from '../content';
import { TextPage } from './TextPage';

/** The broker's licence numbers per state and national producer number, as the content sets them. */
export function LicencesPage() {
  return (
    <TextPage title={text.title} languagePath="/licences">
      {broker.nationalProducerNumber && (
        <p>
          {text.nationalProducerNumber}: {broker.nationalProducerNumber}
        </p>
      )}
      {broker.licences.length ? (
        <>
          <p>{text.intro}</p>
          <table className="mt-4 w-full text-left">
            <thead>
              <tr>
                <th scope="col">{text.stateHeading}</th>
                <th scope="col">{text.numberHeading}</th>
              </tr>
            </thead>
            <tbody>
              {broker.licences.map((licence) => (
                <tr key={`${licence.state}-${licence.number}`}>
                  <td>{licence.state}</td>
                  <td>{licence.number}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      ) : (
        <p>{text.none}</p>
      )}
    </TextPage>
  );
}
