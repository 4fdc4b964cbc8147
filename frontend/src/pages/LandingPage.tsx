import { HydrationBoundary } from '../components/layout/HydrationBoundary';
import { SiteFooter } from '../components/layout/SiteFooter';
import { SiteHeader } from '../components/layout/SiteHeader';
import { AboutSection } from '../sections/AboutSection';
import { HeroSection } from '../sections/HeroSection';
import { MembershipSection } from '../sections/MembershipSection';
import { PartnerStrip } from '../sections/PartnerStrip';
import { PlansSection } from '../sections/PlansSection';
import { QuoteSection } from '../sections/QuoteSection';
import { TestimonialsSection } from '../sections/TestimonialsSection';

/**
 * Header, the seven sections in the spec's order (§2), footer; one file per section, each
 * hydrated on its own.
 */
export function LandingPage() {
  return (
    <>
      <HydrationBoundary>
        <SiteHeader />
      </HydrationBoundary>
      <main id="main" tabIndex={-1} className="outline-none">
        <HydrationBoundary>
          <HeroSection />
        </HydrationBoundary>
        <HydrationBoundary>
          <PartnerStrip />
        </HydrationBoundary>
        <HydrationBoundary>
          <PlansSection />
        </HydrationBoundary>
        <HydrationBoundary>
          <AboutSection />
        </HydrationBoundary>
        <HydrationBoundary>
          <MembershipSection />
        </HydrationBoundary>
        <HydrationBoundary>
          <TestimonialsSection />
        </HydrationBoundary>
        <HydrationBoundary>
          <QuoteSection />
        </HydrationBoundary>
      </main>
      <HydrationBoundary>
        <SiteFooter />
      </HydrationBoundary>
    </>
  );
}
