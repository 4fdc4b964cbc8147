// Every word, link and figure the site shows, in one typed module, so the broker can rebrand
// without touching components. Section copy is English and header/voice texts Spanish (docs/product.md §1).

export interface Link {
  label: string;
  href: string;
}

export interface Image {
  src: string;
  alt: string;
  width: number;
  height: number;
}

/** The brand: a fictional broker, so no real insurer's name or mark appears anywhere. */
export const brand = {
  name: 'Clearharbor Health',
  /** The public address of the site, used for the canonical link and Open Graph (absolute). */
  url: 'https://www.clearharbor.example/',
  logo: { src: '/images/logo.svg', width: 220, height: 40 },
  /** The same logo in light colours, for the dark footer. */
  logoOnDark: { src: '/images/logo-light.svg', width: 220, height: 40 },
  description:
    'Clearharbor Health helps you compare and choose Medicare, Medicaid, family & individual and employer health plans, with free quotes and friendly advice.',
  tagline:
    'Medicare, Medicaid, family & individual and employer plans. Free quotes, friendly advice.',
  /** The card social sites show for a shared link (PNG: they do not take SVG). Made from this
   * module and the SVGs by `node scripts/render-share-card.mjs`; rerun it after rebranding. */
  shareImage: {
    src: '/images/share-card.png',
    width: 1200,
    height: 630,
  },
} as const;

export const seo = {
  title: `${brand.name} | Health insurance plans and free quotes`,
  description: brand.description,
  locale: 'en_US',
} as const;

/** The page has one route; these links all lead to its top (docs/product.md §2). */
const TOP = '#top';
/** Links whose destination docs/product.md leaves open. */
const PLACEHOLDER = '#';

/**
 * The language of the header's and the voice assistant's texts, which docs/product.md §1 keeps in Spanish
 * on an English page: marked on them so screen readers pronounce them right (WCAG 3.1.2).
 */
export const spanish = 'es';

export const header = {
  skipLink: 'Skip to main content',
  navLabel: 'Main',
  nav: [
    { label: 'Home', href: TOP },
    { label: 'Products & Services', href: TOP },
    { label: 'About', href: TOP },
    { label: 'Contact', href: TOP },
  ] satisfies Link[],
  cta: 'Obtener Cotización',
  openMenu: 'Open Menu',
  closeMenu: 'Cerrar menú',
  menuTitle: 'Menú',
};

export const hero = {
  heading: 'Enjoy the Life at Every stage',
  text: `${brand.name} is committed to providing individuals, employers, health care professionals, producers and others with innovative benefits, products and services.`,
  cta: 'Get Started',
  image: {
    src: '/images/hero.svg',
    alt: 'A family of three, a doctor with a stethoscope and a shield with a heart, under a bright sky',
    width: 560,
    height: 480,
  } satisfies Image,
};

export interface Partner {
  name: string;
  logo: string;
}

/** Fictional insurers: each wordmark is an SVG of our own under public/images/partners. */
export const partners = {
  label: 'Our insurance partners',
  pause: 'Pause the partner logos',
  play: 'Play the partner logos',
  logoWidth: 160,
  logoHeight: 48,
  items: [
    { name: 'Alderbrook Assurance', logo: '/images/partners/alderbrook.svg' },
    { name: 'Bluefen Health', logo: '/images/partners/bluefen.svg' },
    { name: 'Corvane Mutual', logo: '/images/partners/corvane.svg' },
    { name: 'Driftwell Care', logo: '/images/partners/driftwell.svg' },
    { name: 'Eastmere Life', logo: '/images/partners/eastmere.svg' },
    { name: 'Fairholt Benefits', logo: '/images/partners/fairholt.svg' },
    { name: 'Granite Vale Health', logo: '/images/partners/granitevale.svg' },
    { name: 'Hollowmere Insurance', logo: '/images/partners/hollowmere.svg' },
  ] satisfies Partner[],
};

/** Names of the plan icons; `PlanIcon` maps them to drawings. */
export type PlanIconName = 'medicare' | 'family' | 'medicaid' | 'employer';

export interface PlanCard {
  icon: PlanIconName;
  title: string;
  description: string;
  link: Link;
}

export const plans = {
  heading: 'Plans for every stage of life',
  learnMoreAbout: 'about',
  items: [
    {
      icon: 'medicare',
      title: 'Medicare',
      description:
        'Compare Medicare Advantage, supplement and drug plans, and enrol with confidence at 65 and beyond.',
      link: { label: 'Learn more', href: PLACEHOLDER },
    },
    {
      icon: 'family',
      title: 'Family & Individual',
      description:
        'Coverage for you and the people you love, with plans that fit your budget and your doctors.',
      link: { label: 'Learn more', href: PLACEHOLDER },
    },
    {
      icon: 'medicaid',
      title: 'Medicaid',
      description:
        'Find out whether you qualify and get help choosing a Medicaid plan in your state.',
      link: { label: 'Learn more', href: PLACEHOLDER },
    },
    {
      icon: 'employer',
      title: 'Employer',
      description:
        'Group health benefits that help small and large businesses attract and keep great people.',
      link: { label: 'Learn more', href: PLACEHOLDER },
    },
  ] satisfies PlanCard[],
};

export interface Stat {
  value: string;
  label: string;
}

export const about = {
  heading: "Company that's building a healthier world",
  text: `For more than twenty years ${brand.name} has helped families, seniors and employers find health coverage they understand and can afford, with advisers who explain every option in plain words.`,
  stats: [
    { value: '200k+', label: 'Satisfied Clients' },
    { value: '20+', label: 'Years Experience' },
    { value: '32+', label: 'Industry Awards' },
  ] satisfies Stat[],
};

export interface Benefit {
  title: string;
  text: string;
}

export const membership = {
  eyebrow: 'MEMBERSHIP BENEFITS',
  heading: 'Become a member to check your coverage anytime',
  benefits: [
    {
      title: 'Find network providers',
      text: 'Search doctors, hospitals and pharmacies in your plan’s network near you.',
    },
    {
      title: 'See claims and coverage',
      text: 'Follow every claim and check what your plan covers, any time of day.',
    },
    {
      title: 'Easy access to mental health providers',
      text: 'Reach licensed therapists and counsellors quickly, in person or online.',
    },
  ] satisfies Benefit[],
  cta: 'Become a Member',
};

export interface Testimonial {
  text: string;
  name: string;
  role: string;
  image: string;
}

export const testimonials = {
  heading: 'Our Super Client Says',
  dotLabel: 'Highlight testimonial',
  portraitSize: 56,
  items: [
    {
      text: 'They walked me through every Medicare option and found a plan that covers my heart medication. I finally feel at ease.',
      name: 'Margaret Ellison',
      role: 'Medicare client',
      image: '/images/portraits/margaret.svg',
    },
    {
      text: 'With two kids and a new job, we needed a family plan fast. The quote came the same day and the price was better than we hoped.',
      name: 'Daniel Okafor',
      role: 'Family plan client',
      image: '/images/portraits/daniel.svg',
    },
    {
      text: 'Setting up health benefits for our twelve employees was painless. Our team loves the coverage and I love the support.',
      name: 'Sofia Marquez',
      role: 'Employer plan client',
      image: '/images/portraits/sofia.svg',
    },
  ] satisfies Testimonial[],
};

export type ProductValue = 'medicare' | 'individual' | 'family' | 'medicaid' | 'employer';

export interface ProductOption {
  value: ProductValue;
  label: string;
}

/** The quote dropdown, in order; a unit test checks it against wasm-core's list. */
export const productOptions: readonly ProductOption[] = [
  { value: 'medicare', label: 'Medicare' },
  { value: 'individual', label: 'Individual Health' },
  { value: 'family', label: 'Family Health' },
  { value: 'medicaid', label: 'Medicaid' },
  { value: 'employer', label: 'Employer Plan' },
];

export const quoteSection = {
  heading: 'Get a Free Quote to Create Your Desired Insurance',
  subtitle:
    "Provide your basic information and we'll connect you with the right insurance plan for your needs.",
  productLabel: 'Product',
  productPlaceholder: 'Select Product',
  emailLabel: 'Email address',
  emailPlaceholder: 'Enter your email address',
  submit: 'Get a Quote',
  submitting: 'Submitting...',
  success: {
    title: 'Quote request submitted!',
    description: "We'll contact you shortly with more information.",
  },
  failure: {
    title: 'Submission failed',
    fallback: 'Please try again later.',
  },
} as const;

/** The page a form post without JavaScript lands on (the server fills in the outcome). */
export const quoteResult = {
  backLink: 'Back to the quote form',
} as const;

export const notFoundPage = {
  title: '404 Page Not Found',
  text: 'Did you forget to add the page to the router?',
  homeLink: 'Back to the home page',
} as const;

export type SocialNetwork = 'facebook' | 'twitter' | 'instagram' | 'linkedin';

export const footer = {
  description:
    'Health insurance made simple: Medicare, Medicaid, family & individual and employer plans, compared for you by licensed advisers.',
  columns: [
    {
      heading: 'About',
      links: ['About Us', 'Features', 'News & Blog', 'Careers'].map((label) => ({
        label,
        href: PLACEHOLDER,
      })),
    },
    {
      heading: 'Company',
      links: ['Our Team', 'Partner With Us', 'Privacy & Policy', 'Licenses'].map((label) => ({
        label,
        href: PLACEHOLDER,
      })),
    },
    {
      heading: 'Support',
      links: ['Account', 'Support Center', 'Feedback', 'Contact Us'].map((label) => ({
        label,
        href: PLACEHOLDER,
      })),
    },
  ] satisfies { heading: string; links: Link[] }[],
  socialLabel: 'Social media',
  social: [
    { network: 'facebook', label: 'Facebook', href: PLACEHOLDER },
    { network: 'twitter', label: 'Twitter', href: PLACEHOLDER },
    { network: 'instagram', label: 'Instagram', href: PLACEHOLDER },
    { network: 'linkedin', label: 'LinkedIn', href: PLACEHOLDER },
  ] satisfies (Link & { network: SocialNetwork })[],
  copyright: (year: number) => `© ${year} ${brand.name}. All rights reserved.`,
};
