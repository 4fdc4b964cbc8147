import { SiteFooter } from '../components/layout/SiteFooter';
import { SiteHeader } from '../components/layout/SiteHeader';
import { AboutSection } from '../sections/AboutSection';
import { HeroSection } from '../sections/HeroSection';
import { MembershipSection } from '../sections/MembershipSection';
import { PartnerStrip } from '../sections/PartnerStrip';
import { PlansSection } from '../sections/PlansSection';
import { QuoteSection } from '../sections/QuoteSection';
import { TestimonialsSection } from '../sections/TestimonialsSection';

/** Header, the seven sections in the spec's order (§2), footer; one file per section. */
export function LandingPage() {
  return (
    <>
      <SiteHeader />
      <main id="main" tabIndex={-1} className="outline-none">
        <HeroSection />
        <PartnerStrip />
        <PlansSection />
        <AboutSection />
        <MembershipSection />
        <TestimonialsSection />
        <QuoteSection />
      </main>
      <SiteFooter />
    </>
  );
}
