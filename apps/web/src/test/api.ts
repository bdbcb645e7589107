import { vi } from 'vitest';

/**
 * A fake server for component tests: `fetch` answers `"METHOD /path"` routes (paths without
 * `/api/v1`) with envelopes, and records every call. Unknown routes are 404 NOT_FOUND.
 * XMLHttpRequest (uploads with progress) goes through the same routes.
 */
export interface MockRequest {
  method: string;
  path: string;
  /** Parsed JSON; a FormData (uploads) as it was sent. */
  body: unknown;
  headers: Headers;
  /** The query string's parameters. */
  query: URLSearchParams;
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
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : (init?.body ?? undefined),
      headers: new Headers(init?.headers),
      query: url.searchParams,
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
  vi.stubGlobal('XMLHttpRequest', FetchBackedXhr);
  return {
    calls,
    spy,
    /** The calls made to `"METHOD /path"`. */
    callsTo: (key: string) => calls.filter((call) => `${call.method} ${call.path}` === key),
  };
}

type ProgressHandler =
  ((event: { loaded: number; total: number; lengthComputable: boolean }) => void) | null;

/**
 * XMLHttpRequest as far as lib/api-upload.ts uses it, sending through `fetch` (so through
 * mockApi's routes). It reports half the body sent, then all of it.
 */
class FetchBackedXhr {
  upload: { onprogress: ProgressHandler } = { onprogress: null };
  status = 0;
  statusText = '';
  responseText = '';
  responseType = '';
  withCredentials = false;
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  ontimeout: (() => void) | null = null;
  private method = 'GET';
  private url = '';
  private headers = new Headers();
  private responseHeaders = new Headers();
  private controller = new AbortController();

  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }

  setRequestHeader(name: string, value: string) {
    this.headers.set(name, value);
  }

  getAllResponseHeaders(): string {
    return [...this.responseHeaders].map(([name, value]) => `${name}: ${value}`).join('\r\n');
  }

  abort() {
    this.controller.abort();
    this.onabort?.();
  }

  send(body: unknown) {
    const total = body instanceof FormData ? 1000 : 0;
    this.upload.onprogress?.({ loaded: total / 2, total, lengthComputable: total > 0 });
    fetch(this.url, {
      method: this.method,
      headers: this.headers,
      body: body as BodyInit,
      signal: this.controller.signal,
    }).then(
      async (response) => {
        this.upload.onprogress?.({ loaded: total, total, lengthComputable: total > 0 });
        this.status = response.status;
        this.statusText = response.statusText;
        this.responseHeaders = response.headers;
        this.responseText = await response.text();
        this.onload?.();
      },
      () => this.onerror?.(),
    );
  }
}
