import { QuoteSection } from '../sections/QuoteSection';

/** The seven sections in the spec's order (§2); each section is one file under `sections/`. */
export function LandingPage() {
  return (
    <main id="main">
      <QuoteSection />
    </main>
  );
}
