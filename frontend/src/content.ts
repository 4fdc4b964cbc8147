// Every word, link and figure the site shows, in one typed module, so the broker can rebrand
// without touching components. Section copy is English and header/voice texts Spanish (spec §1).

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
  id: 'quote',
  heading: 'Get a Free Quote to Create Your Desired Insurance',
  subtitle: "Provide your basic information and we'll connect you with the right insurance plan for your needs.",
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

export const notFoundPage = {
  title: '404 Page Not Found',
  text: 'Did you forget to add the page to the router?',
} as const;
