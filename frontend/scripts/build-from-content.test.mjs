// A broker's own site: the build from another content folder (CONTENT_DIR) shows every value it
// gives (brand, phone, e-mail, address, hours, licences, the Medicare disclaimer's numbers, its
// assistant's recording and AI services in the privacy notice, the quote form's phone and ZIP
// fields turned on) and
// leaves no trace of the example brand anywhere in what it writes; a mistake in the content stops
// the build with one line. Needs wasm-core built (src/wasm-pkg).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const frontend = fileURLToPath(new URL('../', import.meta.url));
const example = join(frontend, '../content');
// Under node_modules, so the server-side build resolves React and the rest from there.
const work = mkdtempSync(join(frontend, 'node_modules/.own-site-'));
const content = join(work, 'content');
const dist = join(work, 'dist');

/** What the example brand leaves if any of it is left: its name, address, partners, clients. */
const EXAMPLE_TRACES = [
  'Clearharbor',
  'clearharbor',
  'Alderbrook',
  'Hollowmere',
  'Margaret Ellison',
  'Sofia Marquez',
  '200k+',
];

const OWN = {
  name: 'Tidewater Benefits',
  url: 'https://www.tidewater-benefits.test/',
  phone: '(312) 555-0142',
  tel: 'tel:3125550142',
  email: 'hello@tidewater-benefits.test',
  address: '77 Lake Shore Drive',
  hours: 'Monday to Saturday, 8 am to 5 pm',
  npn: '98765432',
  licence: { state: 'Ohio', number: 'OH-4455667' },
  productError: 'Choose the kind of plan you want',
  organizations: 5,
  products: 17,
};

/** The broker's hours for booked calls (docs/product.md §13), on in this site. */
const BOOKING = `
booking:
  timeZone: America/New_York
  hours:
    mon: ["09:00-12:00", "13:00-17:00"]
    tue: ["09:00-17:00"]
    sat: ["10:00-12:00"]
  slotMinutes: 30
  noticeHours: 24
  daysAhead: 14
  closed: ["2026-12-25"]
  link: Book a call
  title: Book a call with a licensed agent
  intro: Pick a time and we call you.
  slotLabel: Choose a time
  shownInZone: "Times are in {zone}."
  shownInYourZone: "Times are in your time zone ({zone})."
  noTimes: No times are open.
  nameLabel: Full name
  emailLabel: Email
  soaHeading: What we may talk about
  soaProducts:
    medicareAdvantage: Medicare Advantage (Part C)
    partD: Medicare prescription drug plans (Part D)
    medicareSupplement: Medicare Supplement (Medigap)
    dentalVisionHearing: Dental, vision and hearing
  soaStatement: "The agent of {broker} may be paid based on your enrollment."
  submit: Book the call
  success: { title: Booked, description: We will call you. }
  errors: { slot: Choose a time, name: Write your name, email: Write an email, soa: Choose one, taken: Taken }
  emails:
    summary: Your Medicare call
    subject: "Your call is booked: {when}"
    booked: "Your call is booked for {when}."
    manage: "To cancel the call or move it, open this link (it works once):"
    reminderSubject: "Your call is tomorrow: {when}"
    reminder: "A reminder: your call is booked for {when}."
  manage:
    title: Your call
    booked: "Your call is booked for {when}."
    cancel: Cancel the call
    moveLabel: Or move it to another time
    move: Move the call
    cancelled: Your call is cancelled.
    moved: "Your call is moved to {when}."
    gone: This link was used already.
    unknown: This link does not open a booking.
`;
const BOOKING_ES = `
booking:
  link: Reserve una llamada
  title: Reserve una llamada
  intro: Elija una hora.
  slotLabel: Elija una hora
  shownInZone: "Horas en {zone}."
  shownInYourZone: "Horas en su zona ({zone})."
  noTimes: No hay horas.
  nameLabel: Nombre completo
  emailLabel: Correo electrónico
  soaHeading: De qué podemos hablar
  soaProducts:
    medicareAdvantage: Medicare Advantage (Parte C)
    partD: Planes de medicamentos (Parte D)
    medicareSupplement: Medicare Supplement (Medigap)
    dentalVisionHearing: Dental, visión y audición
  soaStatement: "El agente de {broker} puede recibir un pago según su inscripción."
  submit: Reservar
  success: { title: Reservada, description: Le llamaremos. }
  errors: { slot: Elija una hora, name: Su nombre, email: Su correo, soa: Elija uno, taken: Ocupada }
  emails:
    summary: Su llamada de Medicare
    subject: "Su llamada está reservada: {when}"
    booked: "Su llamada está reservada para el {when}."
    manage: "Para cancelar la llamada o cambiarla, abra este enlace (funciona una vez):"
    reminderSubject: "Su llamada es mañana: {when}"
    reminder: "Le recordamos: su llamada está reservada para el {when}."
  manage:
    title: Su llamada
    booked: "Su llamada está reservada para el {when}."
    cancel: Cancelar la llamada
    moveLabel: O cámbiela a otra hora
    move: Cambiar la llamada
    cancelled: Su llamada está cancelada.
    moved: "Su llamada se cambió al {when}."
    gone: Este enlace ya se usó.
    unknown: Este enlace no abre ninguna cita.
`;

const svg = (label) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="160" height="48"><text x="4" y="30">${label}</text></svg>`;
/** A 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/** The example's site.yaml made another broker's: every brand-specific value replaced. */
function ownSiteYaml() {
  let yaml = readFileSync(join(example, 'site.yaml'), 'utf8')
    .replace(/^#.*\n/gm, '')
    .replaceAll('Clearharbor Health', OWN.name)
    .replaceAll('https://www.clearharbor.example/', OWN.url)
    .replaceAll('200k+', '5k+')
    .replace('product: Please select a product', `product: ${OWN.productError}`)
    // The broker turns on the quote form's extra fields, one line each.
    .replace(/^ {4}phone: off$/m, '    phone: optional')
    .replace(/^ {4}zip: off$/m, '    zip: optional')
    .replace(/organizations: \d+/, `organizations: ${OWN.organizations}`)
    .replace(/products: \d+/, `products: ${OWN.products}`)
    .replace(
      /^broker:\n(?: {2}.*\n)+/m,
      `broker:
  phone: "${OWN.phone}"
  email: ${OWN.email}
  address: "${OWN.address}\\nColumbus, OH 43004"
  hours: ${OWN.hours}
  nationalProducerNumber: "${OWN.npn}"
  licences:
    - { state: ${OWN.licence.state}, number: "${OWN.licence.number}" }
`,
    );
  const partners = [
    'Alderbrook Assurance',
    'Bluefen Health',
    'Corvane Mutual',
    'Driftwell Care',
    'Eastmere Life',
    'Fairholt Benefits',
    'Granite Vale Health',
    'Hollowmere Insurance',
  ];
  partners.forEach((name, i) => {
    yaml = yaml.replace(
      new RegExp(`\\{ name: ${name}, logo: [^}]+\\}`),
      `{ name: Insurer ${i + 1}, logo: /img/insurer-${i + 1}.svg }`,
    );
  });
  for (const [i, person] of ['Margaret Ellison', 'Daniel Okafor', 'Sofia Marquez'].entries()) {
    yaml = yaml.replace(`name: ${person}`, `name: Client ${i + 1}`);
  }
  return `${yaml}${BOOKING}`
    .replace(/\/images\/portraits\/\w+\.svg/g, '/img/face.svg')
    .replace(/\/images\/(logo|logo-light|hero)\.svg/g, '/img/$1.svg')
    .replace('/images/share-card.png', '/img/card.png')
    .replace('/favicon.svg', '/img/icon.svg');
}

function build(contentDir) {
  const env = { ...process.env, CONTENT_DIR: contentDir };
  const run = (args) => spawnSync('npx', args, { cwd: frontend, env, encoding: 'utf8' });
  const ssr = join(work, 'ssr');
  for (const args of [
    ['vite', 'build', '--logLevel', 'error', '--outDir', dist, '--emptyOutDir'],
    ['vite', 'build', '--logLevel', 'error', '--config', 'vite.admin.config.ts', '--outDir', dist],
    ['vite', 'build', '--logLevel', 'error', '--ssr', 'src/entry-server.tsx', '--outDir', ssr],
  ]) {
    const result = run(args);
    if (result.status !== 0) return result;
  }
  return spawnSync(process.execPath, ['scripts/prerender.mjs', '--dist', dist, '--ssr', ssr], {
    cwd: frontend,
    env,
    encoding: 'utf8',
  });
}

const files = (dir) =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));

describe('a build from another content folder', () => {
  before(() => {
    mkdirSync(join(content, 'pages'), { recursive: true });
    mkdirSync(join(content, 'public/img'), { recursive: true });
    writeFileSync(join(content, 'site.yaml'), ownSiteYaml());
    writeFileSync(
      join(content, 'pages/privacy.md'),
      `${OWN.name} keeps your request {{retention}}, a conversation {{conversationRetention}}. ` +
        `Our CRM: {{leadWebhook}} {{recording}} Services: {{aiServices}}. ` +
        `Write to [us](mailto:${OWN.email}).\n`,
    );
    // The broker's assistant: another model, calls not recorded (what the build reads of it).
    writeFileSync(
      join(content, 'assistant.yaml'),
      'recording: false\nmodel: { provider: anthropic, model: claude }\n' +
        'voice: { provider: 11labs }\ntranscriber: { provider: deepgram }\n',
    );
    for (const name of [
      'logo',
      'logo-light',
      'hero',
      'face',
      'icon',
      ...Array.from({ length: 8 }, (_, i) => `insurer-${i + 1}`),
    ]) {
      writeFileSync(join(content, `public/img/${name}.svg`), svg(name));
    }
    writeFileSync(join(content, 'public/img/card.png'), PNG);
    // The Spanish texts every build checks (content/es/), the broker's.
    mkdirSync(join(content, 'es/pages'), { recursive: true });
    writeFileSync(
      join(content, 'es/site.yaml'),
      readFileSync(join(example, 'es/site.yaml'), 'utf8').replaceAll(
        'Clearharbor Health',
        OWN.name,
      ) + BOOKING_ES,
    );
    writeFileSync(
      join(content, 'es/pages/privacy.md'),
      `${OWN.name} conserva su solicitud {{retention}}, una conversación ` +
        `{{conversationRetention}}. {{leadWebhook}} {{recording}} {{aiServices}}.\n`,
    );
    const result = build(content);
    assert.equal(result.status, 0, result.stderr);
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  it('shows the broker’s brand, contact details, licences and disclaimer numbers', () => {
    const page = readFileSync(join(dist, 'index.html'), 'utf8');
    assert.match(page, new RegExp(`<link rel="canonical" href="${OWN.url}"`));
    assert.match(page, new RegExp(`alt="${OWN.name}"`));
    for (const value of [
      OWN.email,
      `mailto:${OWN.email}`,
      OWN.address,
      OWN.hours,
      OWN.npn,
      OWN.phone,
    ])
      assert.ok(page.includes(value), `index.html lacks ${value}`);
    // The phone in the header (shown on phones) and in the footer.
    assert.equal(page.split(`href="${OWN.tel}"`).length - 1, 2);
    assert.match(
      page,
      new RegExp(
        `represent ${OWN.organizations} organizations which offer ${OWN.products} products`,
      ),
    );
    assert.match(page, /<a href="tel:\+18006334227"[^>]*>1-800-MEDICARE<\/a>/);
    assert.ok(
      page.includes(`${OWN.licence.state} ${OWN.licence.number}`),
      'footer lacks the licence',
    );
    const licences = readFileSync(join(dist, 'licences.html'), 'utf8');
    for (const value of [OWN.licence.state, OWN.licence.number, OWN.npn])
      assert.ok(licences.includes(value), `licences.html lacks ${value}`);
    const privacy = readFileSync(join(dist, '.site/privacy.html'), 'utf8');
    assert.match(
      privacy,
      /keeps your request \{\{retention\}\}, a conversation \{\{conversationRetention\}\}\. Our CRM: \{\{leadWebhook\}\} Calls are not recorded\. Services: Anthropic \(the language model .*\), ElevenLabs \(the voice .*\) and Deepgram \(which/,
    );
    assert.ok(!privacy.includes('Calls are recorded'), 'the notice says calls are recorded');
    const facts = JSON.parse(readFileSync(join(dist, '.site/site.json'), 'utf8'));
    assert.match(facts.conversationRetention.days, /\{days\}/);
    assert.deepEqual(Object.keys(facts.leadWebhook), ['set', 'unset']);
    assert.ok(
      readFileSync(join(dist, '.quote-result/invalid-product.html'), 'utf8').includes(
        OWN.productError,
      ),
    );
    assert.equal(JSON.parse(readFileSync(join(dist, '.site/site.json'), 'utf8')).url, OWN.url);
    assert.match(
      readFileSync(join(dist, 'admin.html'), 'utf8'),
      new RegExp(`<title>Inbox \\| ${OWN.name}</title>`),
    );
  });

  it('has the phone field with its consent box and the ZIP field, and tells the server so', () => {
    const facts = JSON.parse(readFileSync(join(dist, '.site/site.json'), 'utf8'));
    assert.deepEqual(facts.fields, { phone: 'optional', zip: 'optional' });
    assert.equal(
      facts.phoneConsent,
      `I agree that ${OWN.name} may call or text me at this number about my quote, possibly using automated technology or an artificial or AI-generated voice. Consent is not a condition of purchase.`,
    );
    const form = readFileSync(join(dist, 'index.html'), 'utf8').match(/<form[^]*?<\/form>/)[0];
    assert.match(form, /<input [^>]*type="tel"[^>]*name="phone"/);
    assert.match(form, /<input [^>]*type="checkbox"[^>]*name="may_call" value="on"\/>/);
    assert.ok(form.includes(facts.phoneConsent), 'the consent beside the phone field');
    assert.match(form, /<input [^>]*autoComplete="postal-code"[^>]*name="zip"/);
    // The result pages keep what was typed in the new fields, and show the server's message for
    // each; a page for a wrong phone or ZIP code alone.
    const contact = readFileSync(join(dist, '.quote-result/invalid-contact.html'), 'utf8');
    for (const slot of ['phone', 'zip'])
      assert.match(contact, new RegExp(`name="${slot}" value="\\{\\{${slot}\\}\\}"`));
    assert.match(
      contact,
      /<p id="[^"]+-phone-error" class="[^"]*empty:hidden">\{\{phone_error\}\}<\/p>/,
    );
    assert.match(
      contact,
      /<p id="[^"]+-zip-error" class="[^"]*empty:hidden">\{\{zip_error\}\}<\/p>/,
    );
    assert.ok(!contact.includes(OWN.productError), 'the product was right');
    const both = readFileSync(join(dist, '.quote-result/invalid-both.html'), 'utf8');
    assert.ok(both.includes(OWN.productError) && both.includes('{{phone_error}}'));
    assert.deepEqual(readdirSync(join(dist, '.quote-result')).sort(), [
      'failed.html',
      'invalid-both.html',
      'invalid-contact.html',
      'invalid-email.html',
      'invalid-product.html',
      'submitted.html',
    ]);
  });

  it("tells the server the hours of booked calls, the page's words and the Scope of Appointment, the broker named", () => {
    const facts = JSON.parse(readFileSync(join(dist, '.site/site.json'), 'utf8'));
    const { title, soaProducts, errors, ...rest } = facts.booking;
    assert.deepEqual(
      {
        timeZone: rest.timeZone,
        hours: rest.hours,
        slotMinutes: rest.slotMinutes,
        noticeHours: rest.noticeHours,
        daysAhead: rest.daysAhead,
        closed: rest.closed,
        soaStatement: rest.soaStatement,
      },
      {
        timeZone: 'America/New_York',
        hours: { mon: ['09:00-12:00', '13:00-17:00'], tue: ['09:00-17:00'], sat: ['10:00-12:00'] },
        slotMinutes: 30,
        noticeHours: 24,
        daysAhead: 14,
        closed: ['2026-12-25'],
        soaStatement: `The agent of ${OWN.name} may be paid based on your enrollment.`,
      },
    );
    assert.equal(title, 'Book a call with a licensed agent');
    assert.equal(soaProducts.partD, 'Medicare prescription drug plans (Part D)');
    assert.equal(errors.taken, 'Taken');
    assert.equal(rest.emails.subject, 'Your call is booked: {when}');
    assert.equal(rest.manage.cancel, 'Cancel the call');
  });

  it('leaves no trace of the example brand in any file it wrote', () => {
    const written = files(dist);
    assert.ok(written.length > 20, `only ${written.length} files written`);
    for (const file of written) {
      const text = readFileSync(file, 'latin1');
      for (const trace of EXAMPLE_TRACES)
        assert.ok(!text.includes(trace), `${file} holds "${trace}"`);
      assert.ok(!/alderbrook|hollowmere|share-card/.test(file), `${file} is the example's`);
    }
  });

  it('stops at a mistake in the content with one line naming the file, the key and what is expected', () => {
    const broken = join(work, 'broken');
    cpSync(content, broken, { recursive: true });
    const yaml = join(broken, 'site.yaml');
    writeFileSync(
      yaml,
      readFileSync(yaml, 'utf8').replace('href: /privacy', 'href: http://example.com/privacy'),
    );
    const result = build(broken);
    assert.notEqual(result.status, 0);
    assert.match(
      result.stderr.trim(),
      /^content error: \S+\/broken\/site\.yaml:\d+: footer\.columns\[1\]\.links\[2\]\.href: expected a site path \(\/privacy\), an anchor \(#top\), mailto:, tel: or https:\/\/$/,
    );
  });

  it('stops at an extra field that is not off, optional or required, naming the key', () => {
    const broken = join(work, 'maybe');
    cpSync(content, broken, { recursive: true });
    const yaml = join(broken, 'site.yaml');
    writeFileSync(
      yaml,
      readFileSync(yaml, 'utf8').replace(/^ {4}phone: optional$/m, '    phone: maybe'),
    );
    const result = build(broken);
    assert.notEqual(result.status, 0);
    assert.match(
      result.stderr.trim(),
      /^content error: \S+\/maybe\/site\.yaml:\d+: quote\.fields\.phone: expected one of "off", "optional", "required"$/,
    );
  });

  /** A copy of the broker's content with `file` (site.yaml or es/site.yaml) edited. */
  function copyWith(name, file, edit) {
    const copy = join(work, name);
    cpSync(content, copy, { recursive: true });
    writeFileSync(join(copy, file), edit(readFileSync(join(copy, file), 'utf8')));
    return copy;
  }

  // Each rule the content must keep, refused alone with one line naming the key.
  const REFUSALS = [
    {
      name: 'a text of its own for the Medicare disclaimer',
      edit: (y) =>
        y.replace(
          '  heading: Medicare disclaimer',
          '  heading: Medicare disclaimer\n  some: Trusted by {organizations} carriers with {products} great plans!',
        ),
      line: /medicareDisclaimer\.some: the disclaimer's words are CMS's \(42 CFR 422\.2267\(e\)\(41\)\), written once in wasm-core; remove this text/,
    },
    {
      name: "an 'every' text of its own",
      edit: (y) =>
        y.replace(
          '  heading: Medicare disclaimer',
          '  heading: Medicare disclaimer\n  every: We offer them all.',
        ),
      line: /medicareDisclaimer\.every: the disclaimer's words are CMS's/,
    },
    {
      name: 'no disclaimer while Medicare is offered',
      edit: (y) => y.replace('  variant: some', '  variant: none'),
      line: /medicareDisclaimer\.variant: none while the quote form offers Medicare; expected some or every/,
    },
    {
      name: 'no organization represented',
      edit: (y) => y.replace(/organizations: \d+/, 'organizations: 0'),
      line: /medicareDisclaimer\.organizations: expected at least 1$/,
    },
    {
      name: 'a count that is not a whole number',
      edit: (y) => y.replace(/ {2}products: \d+/, '  products: 2.5'),
      line: /medicareDisclaimer\.products: /,
    },
    {
      name: 'a phone consent that does not name the broker',
      edit: (y) => y.replace(/^( {2}phoneConsent: ").*\{broker\}/m, '$1I agree that the broker'),
      line: /quote\.phoneConsent: expected the text to hold \{broker\}, the broker the visitor agrees may call$/,
    },
    {
      name: 'a phone consent without automated technology',
      edit: (y) => y.replace('possibly using automated technology or', 'possibly using'),
      line: /quote\.phoneConsent: expected the text to say that calls or texts may use automated technology$/,
    },
    {
      name: 'a phone consent without an artificial or AI-generated voice',
      edit: (y) => y.replace(' or an artificial or AI-generated voice', ''),
      line: /quote\.phoneConsent: expected the text to say that calls may use an artificial or AI-generated voice$/,
    },
    {
      name: 'a phone consent that makes consent a condition of purchase',
      edit: (y) => y.replace(' Consent is not a condition of purchase.', ''),
      line: /quote\.phoneConsent: expected the text to say that consent is not a condition of purchase$/,
    },
    {
      name: 'a Spanish phone consent without the AI voice',
      file: 'es/site.yaml',
      edit: (y) => y.replace(' o una voz artificial o generada por IA', ''),
      line: /es\/site\.yaml:\d+: quote\.phoneConsent: expected the text to say that calls may use an artificial or AI-generated voice$/,
    },
    {
      name: 'a Spanish phone consent that makes consent a condition of purchase',
      file: 'es/site.yaml',
      edit: (y) => y.replace(' El consentimiento no es una condición de compra.', ''),
      line: /es\/site\.yaml:\d+: quote\.phoneConsent: expected the text to say that consent is not a condition of purchase$/,
    },
    {
      name: 'a licence in no US state',
      edit: (y) => y.replace(`state: ${OWN.licence.state},`, 'state: Tex.,'),
      line: /broker\.licences\[0\]\.state: "Tex\." is not a US state, DC or territory; expected its name \(Texas\) or two-letter code \(TX\)$/,
    },
    {
      name: 'a licence in a freely associated state',
      edit: (y) => y.replace(`state: ${OWN.licence.state},`, 'state: Palau,'),
      line: /broker\.licences\[0\]\.state: "Palau" is not a US state, DC or territory/,
    },
    {
      name: 'a lead notice that does not say the agent is licensed',
      edit: (y) => y.replace('A licensed insurance agent of {broker}', 'An agent of {broker}'),
      line: /quote\.leadNotice: expected the text to say that a licensed agent will make contact \("licensed"\)$/,
    },
    {
      name: 'a Spanish lead notice that does not say the agent is licensed',
      file: 'es/site.yaml',
      edit: (y) =>
        y.replace('Un agente de seguros con licencia de {broker}', 'Un agente de {broker}'),
      line: /es\/site\.yaml:\d+: quote\.leadNotice: expected the text to say that a licensed agent will make contact \("licencia" or "licenciado"\)$/,
    },
    {
      name: 'a lead notice that does not name the broker',
      edit: (y) =>
        y.replace('A licensed insurance agent of {broker}', 'A licensed insurance agent'),
      line: /quote\.leadNotice: expected the text to hold \{broker\}$/,
    },
  ];
  for (const [i, { name, file = 'site.yaml', edit, line }] of REFUSALS.entries()) {
    it(`refuses ${name}, with one line`, () => {
      const copy = copyWith(`refused-${i}`, file, edit);
      const before = readFileSync(join(content, file), 'utf8');
      assert.notEqual(edit(before), before, 'the edit changes the content');
      const result = build(copy);
      assert.notEqual(result.status, 0);
      const lines = result.stderr.trim().split('\n');
      assert.equal(lines.length, 1, result.stderr);
      assert.match(lines[0], /^content error: \S+\/refused-\d+\//);
      assert.match(lines[0], line);
    });
  }
  // Each mistake in the hours alone, so each refusal is the rule's own (docs/product.md §13).
  for (const [name, from, to, message] of [
    [
      'an unknown time zone',
      'timeZone: America/New_York',
      'timeZone: America/Springfield',
      /booking\.timeZone: expected an IANA time zone such as America\/Chicago$/,
    ],
    [
      'hours that end before they start',
      'tue: ["09:00-17:00"]',
      'tue: ["17:00-09:00"]',
      /booking\.hours\.tue\[0\]: expected a span that ends after it starts$/,
    ],
    [
      'overlapping hours',
      'mon: ["09:00-12:00", "13:00-17:00"]',
      'mon: ["09:00-12:00", "11:30-17:00"]',
      /booking\.hours\.mon\[1\]: expected hours that do not overlap \(09:00-12:00\)$/,
    ],
    [
      'a slot longer than a span',
      'sat: ["10:00-12:00"]',
      'sat: ["10:00-10:20"]',
      /booking\.hours\.sat\[0\]: expected a span of at least slotMinutes \(30 minutes\)$/,
    ],
    [
      "an e-mail's text without the call's time",
      'reminder: "A reminder: your call is booked for {when}."',
      'reminder: "A reminder: your call is booked."',
      /booking\.emails\.reminder: expected the text to hold \{when\}$/,
    ],
    [
      'hours set in the Spanish file',
      '  link: Reserve una llamada',
      '  slotMinutes: 15\n  link: Reserve una llamada',
      /es\/site\.yaml:\d+: booking\.slotMinutes: set in site\.yaml only; both languages offer the same times$/,
    ],
  ])
    it(`stops at ${name}, naming the key`, () => {
      const broken = join(work, name.replaceAll(' ', '-'));
      cpSync(content, broken, { recursive: true });
      const file = join(broken, from.startsWith('  link') ? 'es/site.yaml' : 'site.yaml');
      const before = readFileSync(file, 'utf8');
      assert.ok(before.includes(from), `${from} not in ${file}`);
      writeFileSync(file, before.replace(from, to));
      const result = build(broken);
      assert.notEqual(result.status, 0);
      assert.match(result.stderr.trim(), /^content error: \S+site\.yaml:\d+: /);
      assert.match(result.stderr.trim(), message);
    });
});
