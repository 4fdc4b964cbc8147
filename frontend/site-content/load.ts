// Reads and checks the content folder (content/ at the repository root, or CONTENT_DIR) at build
// time. Any mistake stops the build with one line naming the file, the key or line, and what is
// expected, so a broker editing content/ never ships a half-broken site.
import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { marked } from 'marked';
import { isMap, isSeq, LineCounter, parseDocument, type Node } from 'yaml';
import { z } from 'zod';
import { escapeHtml } from './html.ts';
import { disclaimerText, ruleProblem } from './rules.ts';
import { imagePaths, LINK_TARGET, siteSchema, type SiteContent } from './schema.ts';
import { localizeLinks, translate, TranslationError, type Language } from './translation.ts';

const REPOSITORY = fileURLToPath(new URL('../../', import.meta.url));
const SITE_FILE = 'site.yaml';
/** The voice assistant, which `backend assistant push` sends to the provider. */
const ASSISTANT_FILE = 'assistant.yaml';
/** Images and other files served as they are, at the site's root. */
export const PUBLIC_DIR = 'public';
/** The long pages, in Markdown. */
const PAGES = ['privacy'] as const;
export type PageName = (typeof PAGES)[number];
/**
 * The privacy notice's slots, each required once, with what goes there. The server fills the
 * first three at start from its settings (backend/src/routes/site/privacy.rs); the build fills
 * the last two from assistant.yaml (`privacySlots`).
 */
const PRIVACY_SLOTS = {
  '{{retention}}': 'where the server writes how long it keeps a quote request',
  '{{conversationRetention}}':
    'where the server writes how long it keeps a conversation with the assistant',
  '{{leadWebhook}}':
    "where the server writes whether it forwards each request to the broker's own system",
  '{{recording}}': `where the build writes whether calls are recorded (${ASSISTANT_FILE})`,
  '{{aiServices}}': `where the build writes the AI services the assistant uses (${ASSISTANT_FILE})`,
} as const;

/** A service of the assistant: its other keys (model, voice id, language) are the push's. */
const service = z.looseObject({
  provider: z.string().trim().min(1, 'expected a non-empty text'),
});
/**
 * What the pages say about the assistant from assistant.yaml: whether calls are recorded (on
 * unless it says `recording: false`, as the push reads it) and the AI services it uses. Only these
 * keys are read here; `backend assistant push` checks the whole file.
 */
const assistantSchema = z.object({
  recording: z.boolean().default(true),
  model: service,
  voice: service,
  transcriber: service,
});
export type AssistantFacts = z.infer<typeof assistantSchema>;

/**
 * How the privacy notice names the provider of each service, given by its id in assistant.yaml
 * (as the voice provider's API spells it); an id not listed here is shown as it is written.
 */
const PROVIDER_NAMES: Record<string, string> = {
  openai: 'OpenAI',
  'azure-openai': 'Microsoft Azure OpenAI',
  anthropic: 'Anthropic',
  google: 'Google',
  groq: 'Groq',
  'deep-seek': 'DeepSeek',
  xai: 'xAI',
  azure: 'Microsoft Azure',
  '11labs': 'ElevenLabs',
  cartesia: 'Cartesia',
  playht: 'PlayHT',
  'rime-ai': 'Rime',
  lmnt: 'LMNT',
  vapi: 'Vapi',
  deepgram: 'Deepgram',
  'assembly-ai': 'AssemblyAI',
  gladia: 'Gladia',
  speechmatics: 'Speechmatics',
};

export class ContentError extends Error {}

/** The content folder: `CONTENT_DIR` (relative to the repository root) or content/. */
export function contentDir(env: Record<string, string | undefined> = process.env): string {
  const dir = env.CONTENT_DIR || 'content';
  return isAbsolute(dir) ? dir : resolve(REPOSITORY, dir);
}

/**
 * The content as the build hands it on: the Medicare disclaimer with its words in the build's
 * language (`text`, wasm-core's; `null` when off) in place of anything content wrote.
 */
export type BuiltSite = Omit<SiteContent, 'medicareDisclaimer'> & {
  medicareDisclaimer: Pick<
    SiteContent['medicareDisclaimer'],
    'variant' | 'organizations' | 'products' | 'heading'
  > & { text: string | null };
};

export interface LoadedContent {
  dir: string;
  language: Language;
  site: BuiltSite;
  /** What the pages say about the voice assistant (assistant.yaml). */
  assistant: AssistantFacts;
  /** Each Markdown page rendered to HTML. */
  pages: Record<PageName, string>;
}

/**
 * The content in `language`: English is site.yaml and pages/; another language is its folder
 * (es/site.yaml, es/pages/) over site.yaml, every text of which it must translate.
 */
export function loadContent(dir = contentDir(), language: Language = 'en'): LoadedContent {
  const english = loadSite(dir);
  const checked = language === 'en' ? english : loadTranslation(dir, language, english);
  const { variant, organizations, products, heading } = checked.medicareDisclaimer;
  const site: BuiltSite = {
    ...checked,
    medicareDisclaimer: {
      variant,
      organizations,
      products,
      heading,
      text: disclaimerText(checked.medicareDisclaimer, language),
    },
  };
  const assistant = loadAssistant(dir);
  const pagesDir = language === 'en' ? dir : join(dir, language);
  const slots = privacySlots(checked, assistant);
  const pages = Object.fromEntries(
    PAGES.map((name) => [name, loadPage(pagesDir, name, slots)]),
  ) as Record<PageName, string>;
  return { dir, language, site, assistant, pages };
}

/** The privacy notice's words the build writes in: whether calls are recorded, by whom. */
function privacySlots(site: SiteContent, assistant: AssistantFacts): Record<string, string> {
  const name = (service: { provider: string }) =>
    escapeHtml(PROVIDER_NAMES[service.provider] ?? service.provider);
  const words = site.privacyPage;
  return {
    '{{recording}}': assistant.recording ? words.recordingOn : words.recordingOff,
    '{{aiServices}}': words.aiServices
      .replaceAll('{model}', name(assistant.model))
      .replaceAll('{voice}', name(assistant.voice))
      .replaceAll('{transcriber}', name(assistant.transcriber)),
  };
}

/** A file's path as the message shows it: from the working directory when inside it. */
const shown = (dir: string, file: string) => {
  const path = relative(process.cwd(), join(dir, file));
  return path.startsWith('..') ? join(dir, file) : path;
};

function parseYaml(dir: string, name: string, what = "the site's content") {
  const path = join(dir, name);
  const file = shown(dir, name);
  if (!existsSync(path)) throw new ContentError(`${file}: missing; expected ${what} in YAML`);
  const lines = new LineCounter();
  const doc = parseDocument(readFileSync(path, 'utf8'), {
    lineCounter: lines,
    prettyErrors: false,
  });
  const syntax = doc.errors[0];
  if (syntax) {
    const { line } = lines.linePos(syntax.pos[0]);
    throw new ContentError(`${file}:${line}: not valid YAML: ${syntax.message.split('\n')[0]}`);
  }
  return { file, doc, lines };
}

function loadTranslation(dir: string, language: Language, english: SiteContent): SiteContent {
  const { file, doc, lines } = parseYaml(dir, join(language, SITE_FILE));
  let translated: unknown;
  try {
    translated = localizeLinks(translate(english, doc.toJS() ?? {}), language);
  } catch (error) {
    if (!(error instanceof TranslationError)) throw error;
    const line = lineOf(doc.contents, error.path, lines);
    throw new ContentError(
      `${file}${line ? `:${line}` : ''}: ${keyName(error.path)}: ${error.message}`,
    );
  }
  return checkSite(file, doc, lines, dir, translated, language);
}

function loadSite(dir: string): SiteContent {
  const { file, doc, lines } = parseYaml(dir, SITE_FILE);
  return checkSite(file, doc, lines, dir, doc.toJS(), 'en');
}

function loadAssistant(dir: string): AssistantFacts {
  const { file, doc, lines } = parseYaml(dir, ASSISTANT_FILE, 'the voice assistant');
  const parsed = assistantSchema.safeParse(doc.toJS() ?? {}, { reportInput: true });
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const line = lineOf(doc.contents, issue.path, lines);
  throw new ContentError(
    `${file}${line ? `:${line}` : ''}: ${keyName(issue.path)}: ${describe(issue)}`,
  );
}

function checkSite(
  file: string,
  doc: ReturnType<typeof parseDocument>,
  lines: LineCounter,
  dir: string,
  tree: unknown,
  language: Language,
): SiteContent {
  const parsed = siteSchema.safeParse(tree, { reportInput: true });
  if (!parsed.success) {
    // A misspelt key shows as an unknown key and a missing one: the unknown one says more.
    const issues = parsed.error.issues;
    const issue = issues.find((i) => i.code === 'unrecognized_keys') ?? issues[0];
    const path = issue.code === 'unrecognized_keys' ? [...issue.path, issue.keys[0]] : issue.path;
    const line = lineOf(
      doc.contents,
      issue.code === 'unrecognized_keys' ? path : issue.path,
      lines,
    );
    throw new ContentError(
      `${file}${line ? `:${line}` : ''}: ${keyName(path)}: ${describe(issue)}`,
    );
  }
  for (const [key, image] of imagePaths(parsed.data)) {
    if (!existsSync(join(dir, PUBLIC_DIR, image))) {
      const line = lineOf(doc.contents, key.replace(/\[(\d+)\]/g, '.$1').split('.'), lines);
      throw new ContentError(
        `${file}${line ? `:${line}` : ''}: ${key}: ${image} does not exist; expected a file at ${shown(dir, join(PUBLIC_DIR, image))}`,
      );
    }
  }
  const problem = ruleProblem(parsed.data, language);
  if (problem) {
    const line = lineOf(doc.contents, problem.path, lines);
    throw new ContentError(
      `${file}${line ? `:${line}` : ''}: ${keyName(problem.path)}: ${problem.message}`,
    );
  }
  return parsed.data;
}

/** A Markdown page, its `slots` (the build's words) written in; the server's slots stay. */
function loadPage(dir: string, name: PageName, slots: Record<string, string>): string {
  const file = shown(dir, `pages/${name}.md`);
  const path = join(dir, 'pages', `${name}.md`);
  if (!existsSync(path))
    throw new ContentError(`${file}: missing; expected the ${name} page in Markdown`);
  const markdown = readFileSync(path, 'utf8');
  const lines = markdown.split('\n');
  for (const [i, line] of lines.entries()) {
    for (const [, target] of line.matchAll(/\]\(([^)\s]*)[^)]*\)/g)) {
      if (!LINK_TARGET.test(target))
        throw new ContentError(
          `${file}:${i + 1}: link "${target}": expected a site path (/privacy), an anchor (#top), mailto:, tel: or https://`,
        );
    }
  }
  if (name === 'privacy') {
    for (const [slot, what] of Object.entries(PRIVACY_SLOTS)) {
      if (markdown.split(slot).length !== 2)
        throw new ContentError(`${file}: expected ${slot} once, ${what}`);
    }
  }
  const filled = Object.entries(slots).reduce(
    (text, [slot, words]) => text.replace(slot, () => words),
    markdown,
  );
  return marked.parse(filled, { async: false });
}

const keyName = (path: PropertyKey[]) =>
  path
    .map((key, i) => (typeof key === 'number' ? `[${key}]` : `${i ? '.' : ''}${String(key)}`))
    .join('') || '(top)';

function describe(issue: z.core.$ZodIssue): string {
  if (issue.code === 'unrecognized_keys')
    return 'unknown key; expected none of that name here (check its spelling)';
  if (issue.code === 'invalid_type') {
    if (issue.input === undefined)
      return `missing; expected ${issue.expected === 'object' ? 'a group of keys' : `a ${issue.expected}`}`;
    return `expected a ${issue.expected === 'object' ? 'group of keys' : issue.expected}, got ${JSON.stringify(issue.input)}`;
  }
  if (issue.code === 'invalid_value')
    return `expected one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
  if (issue.code === 'too_small' && issue.origin === 'array')
    return `expected at least ${issue.minimum} entries`;
  if (issue.code === 'too_small' && issue.origin === 'string') return 'expected a non-empty text';
  if (issue.code === 'too_small') return `expected at least ${issue.minimum}`;
  return issue.message;
}

/** The line of the key at `path` in the YAML, or of its nearest parent that exists. */
function lineOf(root: unknown, path: PropertyKey[], lines: LineCounter): number | undefined {
  let node = root as Node | null | undefined;
  let at: number | undefined = node?.range?.[0];
  for (const key of path) {
    if (isMap(node)) {
      const pair = node.items.find((item) => (item.key as { value?: unknown })?.value === key);
      if (!pair) break;
      at = (pair.key as Node).range?.[0];
      node = pair.value as Node;
    } else if (isSeq(node)) {
      node = node.items[Number(key)] as Node;
      if (!node) break;
      at = node.range?.[0];
    } else break;
  }
  return at === undefined ? undefined : lines.linePos(at).line;
}
