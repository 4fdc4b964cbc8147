// The quote form's extra fields (quote.fields in the content): absent while off, a phone input
// with its unticked consent box and a ZIP input when on, checked by wasm-core's rules (a stand-in
// here, called as the binding is) and sent only when on; their messages are the content's.
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { brand, quoteSection } from '../../content';
import { QuoteForm } from './QuoteForm';

/** The content's `quote.fields`, which each test sets. */
const fields = vi.hoisted(() => ({ phone: 'off', zip: 'off' }));
vi.mock('../../content', async (original) => ({
  ...(await original<typeof import('../../content')>()),
  quoteFields: fields,
}));

/**
 * wasm-core's `validateQuote(product, email, phone, zip, phoneRule, zipRule)` as a stand-in
 * with its contract: null or an English message per wrong field; a field that is off is ignored.
 */
const validate = vi.hoisted(() =>
  vi.fn((product: string, email: string, phone: string, zip: string, phoneRule, zipRule) => {
    const errors: Record<string, string> = {};
    if (!['medicare', 'individual', 'family', 'medicaid', 'employer'].includes(product))
      errors.product = 'Please select a product';
    if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email.trim()))
      errors.email = 'Please enter a valid email address';
    const check = (rule: string, value: string, valid: RegExp) =>
      rule !== 'off' && (value.trim() ? !valid.test(value.trim()) : rule === 'required');
    if (check(phoneRule, phone, /^(\+?1)?\D*[2-9]\d{2}\D*[2-9]\d{2}\D*\d{4}$/))
      errors.phone = 'Please enter a valid US phone number';
    if (check(zipRule, zip, /^\d{5}(-\d{4})?$/))
      errors.zip = 'Please enter a valid 5-digit ZIP code';
    return Object.keys(errors).length ? errors : null;
  }),
);
vi.mock('../../wasm/wasm-core', () => ({
  loadWasmCore: async () => ({ validateQuote: validate }),
}));

const posted = vi.fn();
function answer(status: number, body: string) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (_url: string, init: RequestInit) => {
      posted(JSON.parse(init.body as string));
      return new Response(body, { status });
    }),
  );
}

const consentText = quoteSection.phoneConsent.replaceAll('{broker}', brand.name);
const phoneInput = () => screen.getByRole('textbox', { name: quoteSection.phoneLabel });
const zipInput = () => screen.getByRole('textbox', { name: quoteSection.zipLabel });
const consentBox = () => screen.getByRole('checkbox', { name: consentText });
/** The field's own message, as assistive technology finds it (aria-describedby). */
const messageOf = (field: HTMLElement) =>
  document.getElementById(field.getAttribute('aria-describedby') ?? '')?.textContent ?? null;

async function fillSpecFields(user: ReturnType<typeof userEvent.setup>) {
  await user.selectOptions(screen.getByRole('combobox', { name: 'Product' }), 'family');
  await user.type(screen.getByPlaceholderText('Enter your email address'), 'ana@example.com');
}

const submit = (user: ReturnType<typeof userEvent.setup>) =>
  user.click(screen.getByRole('button', { name: 'Get a Quote' }));

describe('the quote form’s extra fields', () => {
  beforeEach(() => {
    fields.phone = 'off';
    fields.zip = 'off';
    answer(201, '{"id":"x"}');
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    posted.mockClear();
    validate.mockClear();
  });

  it('are not on the page while off, the spec’s form, and are not sent', async () => {
    const user = userEvent.setup();
    const { container } = render(<QuoteForm />);
    for (const name of ['phone', 'zip', 'may_call'])
      expect(container.querySelector(`[name="${name}"]`)).toBeNull();
    expect(screen.queryByRole('checkbox')).toBeNull();
    expect(screen.queryByText(consentText)).toBeNull();
    expect(container.querySelector('form')).toHaveClass('sm:grid-cols-[1fr_1.4fr_auto]');
    await fillSpecFields(user);
    await submit(user);
    await waitFor(() => expect(posted).toHaveBeenCalledTimes(1));
    expect(posted.mock.calls[0][0]).toEqual({
      product: 'family',
      email: 'ana@example.com',
      lang: 'en',
    });
    expect(validate).toHaveBeenCalledWith('family', 'ana@example.com', '', '', 'off', 'off');
  });

  it('shows an optional phone with an unticked consent box beside it, and a ZIP code', () => {
    fields.phone = 'optional';
    fields.zip = 'optional';
    render(<QuoteForm />);
    const phone = phoneInput();
    expect(phone).toHaveAttribute('name', 'phone');
    expect(phone).toHaveAttribute('type', 'tel');
    expect(phone).toHaveAttribute('autocomplete', 'tel');
    expect(phone).toHaveAttribute('inputmode', 'tel');
    expect(phone).toHaveAttribute('placeholder', quoteSection.phonePlaceholder);
    expect(phone).not.toBeRequired();
    const box = consentBox();
    expect(box).not.toBeChecked();
    expect(box).not.toBeRequired();
    expect(box).toHaveAttribute('name', 'may_call');
    expect(box).toHaveAttribute('value', 'on');
    expect(consentText).toContain(brand.name);
    // Right beside the phone field: in its group, next in the reading and tab order.
    expect(phone.parentElement).toContainElement(box);
    expect(phone.compareDocumentPosition(box) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    const zip = zipInput();
    expect(zip).toHaveAttribute('name', 'zip');
    expect(zip).toHaveAttribute('inputmode', 'numeric');
    expect(zip).toHaveAttribute('autocomplete', 'postal-code');
    expect(zip).toHaveAttribute('placeholder', quoteSection.zipPlaceholder);
    expect(zip).not.toBeRequired();
  });

  it('marks a required field required, never the consent box', () => {
    fields.phone = 'required';
    fields.zip = 'required';
    render(<QuoteForm />);
    expect(phoneInput()).toBeRequired();
    expect(zipInput()).toBeRequired();
    expect(consentBox()).not.toBeRequired();
  });

  it('shows one field alone when only it is on', () => {
    fields.zip = 'optional';
    const { container } = render(<QuoteForm />);
    expect(zipInput()).toBeInTheDocument();
    expect(container.querySelector('[name="phone"]')).toBeNull();
    expect(container.querySelector('[name="may_call"]')).toBeNull();
  });

  it('sends the number, the ZIP code and the ticked box as may_call, then starts afresh', async () => {
    fields.phone = 'optional';
    fields.zip = 'required';
    const user = userEvent.setup();
    render(<QuoteForm />);
    await fillSpecFields(user);
    await user.type(phoneInput(), '(555) 555-0123');
    await user.click(consentBox());
    expect(consentBox()).toBeChecked();
    await user.type(zipInput(), '60614');
    await submit(user);
    await waitFor(() => expect(posted).toHaveBeenCalledTimes(1));
    expect(posted.mock.calls[0][0]).toEqual({
      product: 'family',
      email: 'ana@example.com',
      phone: '(555) 555-0123',
      may_call: true,
      zip: '60614',
      lang: 'en',
    });
    expect(validate).toHaveBeenCalledWith(
      'family',
      'ana@example.com',
      '(555) 555-0123',
      '60614',
      'optional',
      'required',
    );
    await waitFor(() => expect(phoneInput()).toHaveValue(''));
    expect(consentBox()).not.toBeChecked();
    expect(zipInput()).toHaveValue('');
  });

  it('sends may_call false when the box is left unticked, and an empty optional phone', async () => {
    fields.phone = 'optional';
    const user = userEvent.setup();
    render(<QuoteForm />);
    await fillSpecFields(user);
    await submit(user);
    await waitFor(() => expect(posted).toHaveBeenCalledTimes(1));
    expect(posted.mock.calls[0][0]).toEqual({
      product: 'family',
      email: 'ana@example.com',
      phone: '',
      may_call: false,
      lang: 'en',
    });
  });

  it('shows the content’s message under a wrong phone and ZIP code, focuses the first, sends nothing', async () => {
    fields.phone = 'optional';
    fields.zip = 'optional';
    const user = userEvent.setup();
    render(<QuoteForm />);
    await fillSpecFields(user);
    await user.type(phoneInput(), '123-456-7890');
    await user.type(zipInput(), '6061');
    await submit(user);
    await waitFor(() => expect(messageOf(phoneInput())).toBe(quoteSection.errors.phone));
    expect(messageOf(zipInput())).toBe(quoteSection.errors.zip);
    expect(phoneInput()).toHaveAttribute('aria-invalid', 'true');
    expect(zipInput()).toHaveAttribute('aria-invalid', 'true');
    expect(phoneInput()).toHaveFocus();
    expect(posted).not.toHaveBeenCalled();

    // Typing clears the field's own message only.
    await user.type(phoneInput(), '1');
    expect(messageOf(phoneInput())).toBeNull();
    expect(phoneInput()).not.toHaveAttribute('aria-invalid');
    expect(messageOf(zipInput())).toBe(quoteSection.errors.zip);
  });

  it('wants a required phone', async () => {
    fields.phone = 'required';
    const user = userEvent.setup();
    render(<QuoteForm />);
    await fillSpecFields(user);
    await submit(user);
    await waitFor(() => expect(messageOf(phoneInput())).toBe(quoteSection.errors.phone));
    expect(posted).not.toHaveBeenCalled();
  });

  it('shows the server’s refusal of a phone or ZIP code under its field, in the content’s words', async () => {
    fields.phone = 'optional';
    fields.zip = 'optional';
    answer(
      422,
      JSON.stringify({
        code: 'validation_failed',
        message: 'Please check the highlighted fields',
        fields: { phone: 'Not a number we can call', zip: 'Not a ZIP code in use' },
      }),
    );
    const user = userEvent.setup();
    render(<QuoteForm />);
    await fillSpecFields(user);
    await user.type(phoneInput(), '(555) 555-0123');
    await user.type(zipInput(), '60614');
    await submit(user);
    await waitFor(() => expect(messageOf(phoneInput())).toBe(quoteSection.errors.phone));
    expect(messageOf(zipInput())).toBe(quoteSection.errors.zip);
    expect(phoneInput()).toHaveValue('(555) 555-0123');
    expect(phoneInput()).toHaveFocus();
  });

  it('starts from a result page’s values and messages (the form without JavaScript)', () => {
    fields.phone = 'optional';
    fields.zip = 'optional';
    render(
      <QuoteForm
        initial={{
          values: {
            product: 'family',
            email: 'ana@example.com',
            phone: '{{phone}}',
            zip: '{{zip}}',
            mayCall: false,
          },
          errors: { product: quoteSection.errors.product, phone: '{{phone_error}}', zip: '' },
          filledByServer: ['phone', 'zip'],
        }}
      />,
    );
    expect(phoneInput()).toHaveValue('{{phone}}');
    expect(zipInput()).toHaveValue('{{zip}}');
    expect(consentBox()).not.toBeChecked();
    // The server writes its message in, or nothing: the field is not marked, an empty one hides.
    expect(messageOf(phoneInput())).toBe('{{phone_error}}');
    expect(phoneInput()).not.toHaveAttribute('aria-invalid');
    expect(document.getElementById(phoneInput().getAttribute('aria-describedby')!)).toHaveClass(
      'empty:hidden',
    );
    expect(messageOf(zipInput())).toBeNull();
    // The content's own message, known at build time, marks its field as before.
    const product = screen.getByRole('combobox', { name: 'Product' });
    expect(messageOf(product)).toBe(quoteSection.errors.product);
    expect(product).toHaveAttribute('aria-invalid', 'true');
  });
});
