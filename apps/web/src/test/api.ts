import { vi } from 'vitest';

/**
 * A fake server for component tests: `fetch` answers `"METHOD /path"` routes (paths without
 * `/api/v1`) with envelopes, and records every call. Unknown routes are 404 NOT_FOUND.
 */
export interface MockRequest {
  method: string;
  path: string;
  body: unknown;
  headers: Headers;
}

export interface MockReply {
  status?: number;
  data?: unknown;
  error?: { code: string; message?: string; details?: unknown };
  headers?: Record<string, string>;
}

export type MockRoute = MockReply | ((request: MockRequest) => MockReply | Promise<MockReply>);

export const ok = (data: unknown, status = 200): MockReply => ({ status, data });

export const fail = (
  status: number,
  code: string,
  extra: Partial<Omit<MockReply, 'status' | 'error'>> & { details?: unknown } = {},
): MockReply => ({
  status,
  error: { code, message: `Server text for ${code}`, details: extra.details },
  headers: extra.headers,
});

export function mockApi(routes: Record<string, MockRoute>) {
  const calls: MockRequest[] = [];
  const spy = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = new URL(String(input), 'http://localhost');
    const request: MockRequest = {
      method: init?.method ?? 'GET',
      path: url.pathname.replace(/^\/api\/v1/, ''),
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
      headers: new Headers(init?.headers),
    };
    calls.push(request);
    const route = routes[`${request.method} ${request.path}`];
    const reply: MockReply = !route
      ? fail(404, 'NOT_FOUND')
      : typeof route === 'function'
        ? await route(request)
        : route;
    const status = reply.status ?? 200;
    const body = reply.error
      ? { success: false, error: reply.error }
      : { success: true, data: reply.data ?? null };
    return new Response(JSON.stringify(body), {
      status,
      headers: { 'Content-Type': 'application/json', ...reply.headers },
    });
  });
  return {
    calls,
    spy,
    /** The calls made to `"METHOD /path"`. */
    callsTo: (key: string) => calls.filter((call) => `${call.method} ${call.path}` === key),
  };
}
