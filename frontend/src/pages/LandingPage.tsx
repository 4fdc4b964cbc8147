import { SiteFooter } from '../components/layout/SiteFooter';
import { Island } from '../islands/Island';
import { AboutSection } from '../sections/AboutSection';
import { HeroSection } from '../sections/HeroSection';
import { MembershipSection } from '../sections/MembershipSection';
import { PlansSection } from '../sections/PlansSection';
import { QuoteSection } from '../sections/QuoteSection';

/**
 * Header, the seven sections in the order of docs/product.md §2, footer; one file per section. Hero, plans,
 * about, membership and footer have nothing interactive and stay static HTML; the header, the
 * partner strip (its pause button), the testimonials (their pager) and the quote form are islands.
 */
export function LandingPage() {
  return (
    <>
      <Island name="header" />
      <main id="main" tabIndex={-1} className="outline-none">
        <HeroSection />
        <Island name="partners" />
        <PlansSection />
        <AboutSection />
        <MembershipSection />
        <Island name="testimonials" />
        <QuoteSection />
      </main>
      <SiteFooter floatingButtons />
    </>
  );
}
