// Holds `backend assistant push` (backend/src/commands/assistant_push/) to the provider's server
// SDK: the requests it sends, recorded by backend/tests/api/assistant_push.rs against a stand-in
// of the provider's REST API into backend/tests/vapi-server-sdk/assistant-push/, must type-check
// against the request types `@vapi-ai/server-sdk` declares for the same calls (tools.create,
// tools.update, assistants.create, assistants.update), so a body the provider's API would not
// take fails here instead of at a broker's push: the request_quote tool, and the booking tools
// (available_times, book_call) the push adds with booking on. The assistant's first message is held to the page:
// a branch for each language the page names in the `language` variable, each saying the
// disclaimer and the agent notice the content gives that language's pages.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { typeErrors } from '../../frontend/src/features/voice/testing/type-errors.mjs';

/**
 * wasm-core as the front end's build loads it in Node (frontend/site-content/wasm-core.ts, which
 * plain Node cannot import): built by scripts/build-wasm.sh into frontend/src/wasm-pkg.
 */
async function loadWasmCore() {
  const pkg = join(repoRoot, 'frontend/src/wasm-pkg');
  const glue = await import(pathToFileURL(join(pkg, 'wasm_core_bg.js')).href);
  const module = new WebAssembly.Module(readFileSync(join(pkg, 'wasm_core_bg.wasm')));
  const instance = new WebAssembly.Instance(module, { './wasm_core_bg.js': glue });
  glue.__wbg_set_wasm(instance.exports);
  instance.exports.__wbindgen_start?.();
  return glue;
}

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const core = await loadWasmCore();
const wasmCore = () => core;
// The front end's YAML reader (the build's), resolved from frontend/ where it is installed.
const { parse: parseYaml } = createRequire(join(repoRoot, 'frontend/package.json'))('yaml');
const readYaml = (path) => parseYaml(readFileSync(join(repoRoot, path), 'utf8'));
const requestsDir = join(repoRoot, 'backend/tests/vapi-server-sdk/assistant-push');

/** Each request as recorded: `{file, method, path, body}`. */
const recorded = readdirSync(requestsDir)
  .filter((file) => file.endsWith('.json'))
  .sort()
  .map((file) => ({ file, ...JSON.parse(readFileSync(join(requestsDir, file), 'utf8')) }));

/** The SDK's type for the body of a request to the provider's REST API. */
function sdkTypeOf({ file, method, path }) {
  const route = `${method} ${path.replace(/^\/(tool|assistant)\/[^/]+$/, '/$1/{id}')}`;
  switch (route) {
    case 'POST /tool':
      return 'Vapi.CreateToolsRequest.Function';
    case 'PATCH /tool/{id}':
      return 'Vapi.UpdateToolsRequestBody.Function';
    case 'POST /assistant':
      return 'Vapi.CreateAssistantDto';
    case 'PATCH /assistant/{id}':
      // The SDK's update request names the id, which the REST call carries in its path.
      return "Omit<Vapi.UpdateAssistantDto, 'id'>";
    default:
      throw new Error(`${file}: no SDK type for ${route}`);
  }
}

describe('backend assistant push against the real @vapi-ai/server-sdk', () => {
  test('creates and then updates the tools and the assistant', () => {
    // Recorded with booking on, so the booking tools are held to the SDK too.
    assert.deepEqual(
      recorded.map(({ method, path }) => `${method} ${path}`),
      [
        'POST /tool',
        'POST /tool',
        'POST /tool',
        'POST /assistant',
        'PATCH /tool/tool-1',
        'PATCH /tool/tool-2',
        'PATCH /tool/tool-3',
        'PATCH /assistant/assistant-1',
      ],
    );
    const names = recorded
      .filter(({ path }) => path.startsWith('/tool'))
      .map(({ body }) => body.function.name);
    const tools = ['request_quote', 'available_times', 'book_call'];
    assert.deepEqual(names, [...tools, ...tools]);
  });

  test('sends bodies of the shapes the SDK declares', () => {
    const source = [
      `import type { Vapi } from '@vapi-ai/server-sdk';`,
      ...recorded.flatMap((request, n) => [
        `// ${request.file}`,
        `export const body${n}: ${sdkTypeOf(request)} = ${JSON.stringify(request.body, null, 2)};`,
      ]),
    ].join('\n');
    // In memory, named inside frontend/, where the SDK is installed.
    const file = join(repoRoot, 'frontend/vapi-assistant-push.check.ts');
    assert.deepEqual(typeErrors(file, source), []);
  });

  test("says the first message in the page's language, with the notices its pages show", () => {
    const { body } = recorded.find(({ file }) => file === '4-create-assistant.json');
    // The page names its language in this variable when it starts a call.
    const page = readFileSync(
      join(repoRoot, 'frontend/src/features/voice/sdk/page-language.ts'),
      'utf8',
    );
    assert.match(page, /variableValues: \{ language \}/);
    const branches = /^\{% if language == "es" %\}(.+)\{% else %\}(.+)\{% endif %\}$/s.exec(
      body.firstMessage,
    );
    assert.ok(branches, body.firstMessage);
    const said = { es: branches[1], en: branches[2] };

    const english = readYaml('content/site.yaml');
    const pages = { en: english, es: readYaml('content/es/site.yaml') };
    // The disclaimer the pages show: wasm-core's words, as the build takes them.
    const assistant = readYaml('content/assistant.yaml');
    const { variant, organizations, products } = english.medicareDisclaimer;
    assert.equal(body.artifactPlan.recordingEnabled, assistant.recording ?? true);
    for (const language of ['en', 'es']) {
      const text = said[language];
      const site = pages[language];
      assert.doesNotMatch(text, /\{[{%]/, 'no template markup inside a language');
      // The recording notice comes first: it must be heard before anything the call records.
      const parts = [
        body.artifactPlan.recordingEnabled ? assistant.recordingNotice[language] : null,
        assistant.greeting[language].replaceAll('{broker}', english.brand.name),
        variant === 'none'
          ? null
          : wasmCore().medicareDisclaimer(variant, language, organizations, products),
        site.quote.leadNotice.replaceAll('{broker}', english.brand.name),
        assistant.question[language],
      ].filter((part) => part !== null);
      assert.equal(text, parts.join(' '), `the first message in ${language}`);
    }
  });
});
