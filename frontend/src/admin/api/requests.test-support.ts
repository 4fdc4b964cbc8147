// The inbox's requests as the server reads them, for the tests that stand in for the admin API:
// openapi-fetch hands `fetch` one Request, whose path, method and JSON body these take apart.
import type { Mock } from 'vitest';

export interface Sent {
  /** The path with its query, as encoded on the wire. */
  path: string;
  method: string;
  body: unknown;
}

/** One request as the server would read it. */
export async function read(request: Request): Promise<Sent> {
  const url = new URL(request.url);
  const text = await request.clone().text();
  return {
    path: url.pathname + url.search,
    method: request.method,
    body: text ? (JSON.parse(text) as unknown) : undefined,
  };
}

/** Every request a stubbed `fetch` was given, in order. */
export function sent(fetch: Mock<(request: Request) => Promise<Response>>): Promise<Sent[]> {
  return Promise.all(fetch.mock.calls.map(([request]) => read(request)));
}
