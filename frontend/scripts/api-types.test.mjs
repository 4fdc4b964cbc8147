// The inbox's generated API types: a schema requiring a property it does not describe is named
// (openapi-typescript would leave the property out), and the types follow the document.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { apiTypes, undescribedRequired } from './api-types.mjs';

const documentWith = (lead) => ({
  openapi: '3.0.3',
  info: { title: 't', version: '1' },
  paths: {},
  components: { schemas: { Lead: lead } },
});

test('a required property the schema does not describe is named', () => {
  const lead = {
    type: 'object',
    required: ['id', 'language'],
    properties: {
      id: { type: 'string' },
      delivery: { type: 'object', required: ['webhook'], properties: {} },
    },
  };
  assert.deepEqual(undescribedRequired(documentWith(lead)), [
    'Lead: requires language, which it does not describe',
    'Lead.properties.delivery: requires webhook, which it does not describe',
  ]);
});

test('the types are the document’s', async () => {
  const lead = {
    type: 'object',
    required: ['language'],
    properties: { language: { type: 'string', enum: ['en', 'es'] } },
  };
  assert.deepEqual(undescribedRequired(documentWith(lead)), []);
  assert.match(await apiTypes(documentWith(lead)), /language: 'en' \| 'es';/);
});
