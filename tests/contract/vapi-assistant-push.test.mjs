// Holds `backend assistant push` (backend/src/commands/assistant_push/) to the provider's server
// SDK: the requests it sends, recorded by backend/tests/api/assistant_push.rs against a stand-in
// of the provider's REST API into backend/tests/vapi-server-sdk/assistant-push/, must type-check
// against the request types `@vapi-ai/server-sdk` declares for the same calls (tools.create,
// tools.update, assistants.create, assistants.update), so a body the provider's API would not
// take fails here instead of at a broker's push.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { typeErrors } from '../../frontend/src/features/voice/testing/type-errors.mjs';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
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
  test('creates and then updates the tool and the assistant', () => {
    assert.deepEqual(
      recorded.map(({ method, path }) => `${method} ${path}`),
      ['POST /tool', 'POST /assistant', 'PATCH /tool/tool-1', 'PATCH /assistant/assistant-1'],
    );
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
});
