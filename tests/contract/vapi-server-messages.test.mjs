// Holds the voice events (backend/src/routes/voice_events/) to the provider's server SDK: the messages in
// backend/tests/vapi-server-sdk/, which backend/tests/api/voice_server_sdk.rs posts to the real
// backend, must type-check against `@vapi-ai/server-sdk`'s declared message types, and the
// answers that test requires of the backend against the SDK's response type. Between them there
// is one for each tool-call list the SDK declares alone, one with all of them and one with an
// empty `toolCallList` beside the calls, so an SDK
// update that adds or renames a list, or reshapes a message, fails here or there instead of in a
// caller's call.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { typeErrors } from '../../frontend/src/features/voice/testing/type-errors.mjs';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const messagesDir = join(repoRoot, 'backend/tests/vapi-server-sdk');
// The SDK and TypeScript are the front end's packages (frontend/package.json pins them).
const frontendRequire = createRequire(join(repoRoot, 'frontend/package.json'));
const ts = frontendRequire('typescript');
const sdkTypes = join(dirname(frontendRequire.resolve('@vapi-ai/server-sdk')), 'api/types');

/** Each message as recorded: `{file, request: {message}, answer}`. */
const fixtures = readdirSync(messagesDir)
  .filter((file) => file.endsWith('.json'))
  .sort()
  .map((file) => ({ file, ...JSON.parse(readFileSync(join(messagesDir, file), 'utf8')) }));

/** The properties of `ServerMessageToolCalls` that are lists of tool calls, as the SDK declares. */
function declaredToolCallLists() {
  const name = 'ServerMessageToolCalls';
  const file = ts.createSourceFile(
    `${name}.d.ts`,
    readFileSync(join(sdkTypes, `${name}.d.ts`), 'utf8'),
    ts.ScriptTarget.ES2022,
    true,
  );
  const declaration = file.statements.find(
    (s) => ts.isInterfaceDeclaration(s) && s.name.text === name,
  );
  if (!declaration) throw new Error(`no interface ${name}`);
  return declaration.members
    .filter(ts.isPropertySignature)
    .filter(
      (member) =>
        member.type &&
        ts.isArrayTypeNode(member.type) &&
        /ToolCall/.test(member.type.elementType.getText(file)),
    )
    .map((member) => member.name.getText(file))
    .sort();
}

const toolCallLists = declaredToolCallLists();
const listsIn = (fixture) => toolCallLists.filter((list) => list in fixture.request.message);

/** The SDK's types for a fixture's message and for our answer to it. */
function sdkTypesOf(fixture) {
  const kind = fixture.request.message.type;
  if (kind === 'tool-calls') {
    // The SDK requires every list; a message with fewer is its type without the others.
    const absent = toolCallLists.filter((list) => !listsIn(fixture).includes(list));
    const message = absent.length
      ? `Omit<Vapi.ServerMessageToolCalls, ${absent.map((list) => `'${list}'`).join(' | ')}>`
      : 'Vapi.ServerMessageToolCalls';
    return { request: `{ message: ${message} }`, answer: 'Vapi.ServerMessageResponseToolCalls' };
  }
  if (kind === 'end-of-call-report') {
    // The provider reads no answer to a report; ours is empty.
    return {
      request: '{ message: Vapi.ServerMessageEndOfCallReport }',
      answer: 'Record<string, never>',
    };
  }
  if (kind === 'chat.created') {
    // A web chat's turn, kept as its conversation's transcript; no answer is read either.
    return {
      request: '{ message: Vapi.ServerMessageChatCreated }',
      answer: 'Record<string, never>',
    };
  }
  throw new Error(`${fixture.file}: no SDK type for a message of type ${String(kind)}`);
}

describe('the voice webhook against the real @vapi-ai/server-sdk', () => {
  test('has a message for each tool-call list the SDK declares, alone and all together', () => {
    assert.deepEqual(toolCallLists, ['toolCallList', 'toolWithToolCallList']);
    const toolCalls = fixtures.filter((f) => f.request.message.type === 'tool-calls');
    const covered = new Set(toolCalls.map((fixture) => listsIn(fixture).join(' + ')));
    assert.deepEqual([...covered].sort(), [...toolCallLists, toolCallLists.join(' + ')].sort());
    // A list may come empty beside the one that holds the calls.
    const holding = (fixture) =>
      listsIn(fixture).filter((list) => fixture.request.message[list].length > 0);
    const emptyBeside = toolCalls.filter((f) => holding(f).length < listsIn(f).length);
    assert.deepEqual(
      emptyBeside.map((f) => holding(f).join(' + ')),
      ['toolWithToolCallList'],
    );
    assert.ok(fixtures.some((f) => f.request.message.type === 'end-of-call-report'));
  });

  test('sends messages of the shapes the SDK declares and expects answers of its response type', () => {
    const lines = fixtures.flatMap((fixture, n) => {
      const types = sdkTypesOf(fixture);
      const json = (value) => JSON.stringify(value, null, 2);
      return [
        `// ${fixture.file}`,
        `export const request${n}: ${types.request} = ${json(fixture.request)};`,
        `export const answer${n}: ${types.answer} = ${json(fixture.answer)};`,
      ];
    });
    const source = [
      `import type { Vapi } from '@vapi-ai/server-sdk';`,
      // The backend reads `toolCall` from every entry of toolWithToolCallList, whatever the tool.
      `declare const wrapped: Vapi.ServerMessageToolCallsToolWithToolCallListItem;`,
      `export const wrappedCall: Vapi.ToolCall = wrapped.toolCall;`,
      ...lines,
    ].join('\n');
    // In memory, named inside frontend/, where the SDK is installed.
    const file = join(repoRoot, 'frontend/vapi-server-messages.check.ts');
    assert.deepEqual(typeErrors(file, source), []);
  });
});
