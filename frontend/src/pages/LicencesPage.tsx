import { SiteFooter } from '../components/layout/SiteFooter';
import { broker, licencesPage as text } from '../content';
import { Island } from '../islands/Island';

/** The broker's licence numbers per state and national producer number, as the content sets them. */
export function LicencesPage() {
  return (
    <>
      <Island name="header" />
      <main id="main" tabIndex={-1} className="px-4 pt-28 pb-16 outline-none">
        <article className="prose-page mx-auto max-w-3xl rounded-3xl bg-white p-8 shadow-xl ring-1 ring-slate-200 sm:p-12">
          <h1 className="text-3xl font-bold text-slate-900">{text.title}</h1>
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
        </article>
      </main>
      <SiteFooter languagePath="/licences" />
    </>
  );
}
