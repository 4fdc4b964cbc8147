// Holds the one fake to the real `@vapi-ai/web`: every event the fake emits and every event the
// product listens for must be one the SDK declares (vapi.d.ts) and its emitter really emits
// (vapi.js); every SDK method the fake stands in for must be declared on the SDK's class; and the
// payloads the fake sends must type-check against the SDK's declared shapes. An SDK update that
// renames one of them fails here instead of in a visitor's call.
// @vitest-environment node
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { FakeVapi } from './fake-vapi.mjs';
import { typeErrors } from './type-errors.mjs';

const frontend = fileURLToPath(new URL('../../../../', import.meta.url));
const sdkDist = dirname(createRequire(join(frontend, 'package.json')).resolve('@vapi-ai/web'));
const declarations = readFileSync(join(sdkDist, 'vapi.d.ts'), 'utf8');
const compiled = readFileSync(join(sdkDist, 'vapi.js'), 'utf8');
const productSdk = readFileSync(join(frontend, 'src/features/voice/sdk/vapi.ts'), 'utf8');

const parse = (name: string, text: string) =>
  ts.createSourceFile(name, text, ts.ScriptTarget.ES2022, true);

/** The string literals of the union type alias `name` in `file`. */
function unionMembers(file: ts.SourceFile, name: string): string[] {
  const alias = file.statements.find(
    (s): s is ts.TypeAliasDeclaration => ts.isTypeAliasDeclaration(s) && s.name.text === name,
  );
  if (!alias || !ts.isUnionTypeNode(alias.type)) throw new Error(`no union type ${name}`);
  return alias.type.types.map((t) => ((t as ts.LiteralTypeNode).literal as ts.StringLiteral).text);
}

/** Public method names declared by the classes or interfaces `names` in `file`. */
function declaredMethods(file: ts.SourceFile, ...names: string[]): Set<string> {
  const methods = new Set<string>();
  for (const statement of file.statements) {
    if (!(ts.isClassDeclaration(statement) || ts.isInterfaceDeclaration(statement))) continue;
    if (!names.includes(statement.name?.text ?? '')) continue;
    for (const member of statement.members) {
      const isMethod = ts.isMethodDeclaration(member) || ts.isMethodSignature(member);
      const isPrivate =
        ts.getCombinedModifierFlags(member as ts.Declaration) & ts.ModifierFlags.Private;
      if (isMethod && !isPrivate && member.name && ts.isIdentifier(member.name))
        methods.add(member.name.text);
    }
  }
  return methods;
}

const sdkDeclarations = parse('vapi.d.ts', declarations);
const declaredEvents = unionMembers(sdkDeclarations, 'VapiEventNames');
const emittedEvents = new Set(
  [...compiled.matchAll(/\.emit\(\s*['"]([\w-]+)['"]/g)].map((m) => m[1]),
);
const productEvents = unionMembers(parse('sdk.ts', productSdk), 'VapiEvent');

/** Everything the fake emits while a test drives it through each of its scenarios. */
function fakeEmissions(): { event: string; payload: unknown }[] {
  const emissions: { event: string; payload: unknown }[] = [];
  const run = (scenario: (fake: FakeVapi) => void) => {
    const fake = new FakeVapi('pk', undefined, { avoidEval: true });
    const emit = fake.emit.bind(fake);
    fake.emit = (event, ...args) => {
      emissions.push({ event, payload: args[0] });
      return emit(event, ...args);
    };
    for (const event of productEvents) fake.on(event as never, () => {});
    scenario(fake);
  };
  run((fake) => {
    void fake.start('asst');
    fake.answerStart();
    fake.assistantListening();
    fake.say('assistant', 'Hola', 'partial');
    fake.say('user', 'Busco un plan');
    fake.assistantEndsCall();
  });
  run((fake) => {
    void fake.start('asst');
    fake.failStart();
  });
  run((fake) => expect(() => fake.start('')).toThrow());
  return emissions;
}

describe('the fake SDK against the real @vapi-ai/web', () => {
  it('finds the SDK declarations and its emitter', () => {
    expect(declaredEvents.length).toBeGreaterThan(5);
    expect(emittedEvents.size).toBeGreaterThan(5);
  });

  it('listens only for events the SDK declares and emits', () => {
    expect(productEvents.filter((event) => !declaredEvents.includes(event))).toEqual([]);
    expect(productEvents.filter((event) => !emittedEvents.has(event))).toEqual([]);
  });

  it('emits only events the SDK declares and emits', () => {
    const events = [...new Set(fakeEmissions().map((e) => e.event))];
    expect(events).toEqual(
      expect.arrayContaining(['call-start', 'call-end', 'message', 'error', 'call-start-failed']),
    );
    expect(events.filter((event) => !declaredEvents.includes(event))).toEqual([]);
    expect(events.filter((event) => !emittedEvents.has(event))).toEqual([]);
  });

  it('stands in only for methods the SDK class declares', () => {
    const sdkMethods = declaredMethods(sdkDeclarations, 'Vapi', 'VapiEventEmitter');
    const usedByProduct = [...declaredMethods(parse('sdk.ts', productSdk), 'VapiLike')];
    expect(usedByProduct.length).toBeGreaterThan(3);
    expect(usedByProduct.filter((method) => !sdkMethods.has(method))).toEqual([]);
    expect(
      usedByProduct.filter((method) => typeof (FakeVapi.prototype as never)[method] !== 'function'),
    ).toEqual([]);
  });

  it('sends payloads of the shapes the SDK declares', () => {
    // Each payload, as the fake sent it, assigned to the type the SDK gives it; the SDK types
    // `message` as any, so messages are checked against the message type of their `type`.
    const expectedType: Record<string, (payload: { type?: string }) => string | null> = {
      'call-start-failed': () =>
        `Parameters<Parameters<typeof vapi.on<'call-start-failed'>>[1]>[0]`,
      'volume-level': () => `Parameters<Parameters<typeof vapi.on<'volume-level'>>[1]>[0]`,
      message: (payload) =>
        ({
          transcript: 'Api.ClientMessageTranscript',
          'status-update': `Pick<Api.ServerMessageStatusUpdate, 'type' | 'status' | 'endedReason'>`,
        })[payload.type ?? ''] ?? null,
    };
    const lines: string[] = [];
    const unchecked: string[] = [];
    for (const { event, payload } of [...fakeEmissions(), { event: 'volume-level', payload: 1 }]) {
      const type = expectedType[event]?.(payload as { type?: string });
      if (type === undefined) continue; // the SDK declares `any` (error) or no payload
      if (type === null) unchecked.push(JSON.stringify(payload));
      else lines.push(`export const p${lines.length}: ${type} = ${JSON.stringify(payload)};`);
    }
    expect(unchecked).toEqual([]);
    expect(lines.length).toBeGreaterThanOrEqual(4);
    const file = join(frontend, 'src/features/voice/testing/fake-payloads.check.ts');
    const source = [
      `import type Vapi from '@vapi-ai/web';`,
      `import type * as Api from '@vapi-ai/web/dist/api';`,
      `declare const vapi: Vapi;`,
      ...lines,
    ].join('\n');
    expect(typeErrors(file, source)).toEqual([]);
  }, 120_000); // type-checking the SDK's 35,000 lines of declarations takes seconds
});
