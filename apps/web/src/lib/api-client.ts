import { APP_NAME, CLIENT_HEADERS, ERROR_CODES } from '@bdms/shared';
import { env } from '../config/env';

/**
 * The one way the web app talks to the server (product spec section 7, API.md "Conventions").
 * Replies are envelopes: `{success: true, data}` is unwrapped to `data`; anything else throws an
 * `ApiError` whose message is exactly `HTTP {status}: {statusText}`.
 */

/** Codes the client itself produces, next to the server's `ERROR_CODES`. */
export const CLIENT_ERROR_CODES = {
  NETWORK_ERROR: 'NETWORK_ERROR',
  HTTP_ERROR: 'HTTP_ERROR',
} as const;

export class ApiError extends Error {
  override readonly name = 'ApiError';
  /** HTTP status; 0 when the server was not reached. */
  readonly status: number;
  readonly statusText: string;
  /** The envelope's `error.code`, a code derived from the status, or `NETWORK_ERROR`. */
  readonly code: string;
  /** The envelope's `error.message` (human text from the server), when present. */
  readonly serverMessage: string | undefined;
  /** The envelope's `error.details` (e.g. invalid fields), when present. */
  readonly details: unknown;
  /** The X-Request-ID of the call, to find it in the server's log. */
  readonly requestId: string;
  /** Seconds to wait before trying again, from a 429's `Retry-After` header. */
  readonly retryAfterSeconds: number | undefined;

  constructor(init: {
    message: string;
    status: number;
    statusText: string;
    code: string;
    serverMessage?: string | undefined;
    details?: unknown;
    requestId: string;
    retryAfterSeconds?: number | undefined;
    cause?: unknown;
  }) {
    super(init.message, { cause: init.cause });
    this.status = init.status;
    this.statusText = init.statusText;
    this.code = init.code;
    this.serverMessage = init.serverMessage;
    this.details = init.details;
    this.requestId = init.requestId;
    this.retryAfterSeconds = init.retryAfterSeconds;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/**
 * Hook points for the session layer: it supplies the stored access token, knows how to refresh
 * it (`POST /api/v1/auth/refresh`) and what to do when that fails (clear both tokens).
 */
export interface AuthHandlers {
  getAccessToken: () => string | null | undefined | Promise<string | null | undefined>;
  /**
   * Resolves true when a new access token is stored; false or a rejection means it was refused
   * (the session ends). `'unavailable'`: the refresh got no answer or a 5xx, so the session is
   * kept and only this call fails (docs/decisions/008-session-refresh.md).
   */
  refresh: () => Promise<boolean | 'unavailable'>;
  onSessionExpired: () => void;
}

let authHandlers: Partial<AuthHandlers> = {};
let refreshInFlight: Promise<boolean | 'unavailable'> | null = null;

export function setAuthHandlers(handlers: Partial<AuthHandlers> | null): void {
  authHandlers = handlers ?? {};
  refreshInFlight = null;
}

/** Concurrent 401s share one refresh instead of starting several. */
function refreshOnce(
  refresh: () => Promise<boolean | 'unavailable'>,
): Promise<boolean | 'unavailable'> {
  refreshInFlight ??= refresh()
    .then(
      (result) => (result === 'unavailable' ? result : Boolean(result)),
      () => false,
    )
    .finally(() => {
      refreshInFlight = null;
    });
  return refreshInFlight;
}

type QueryValue = string | number | boolean | null | undefined;

export interface ApiRequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Sent as JSON, except FormData and Blob which are sent as they are (uploads). */
  body?: unknown;
  query?: Record<string, QueryValue>;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /**
   * false: send no Authorization header and never refresh on 401 (sign-in, refresh, public calls
   * whose 401 means "wrong credentials", not "token expired").
   */
  auth?: boolean;
  /**
   * How to read a successful reply: the JSON envelope (default), or a file; `file` is an
   * `ApiFile`, with the reply's headers for its name (Content-Disposition).
   */
  responseType?: 'json' | 'blob' | 'text' | 'file';
  /**
   * Sends the request instead of `fetch` (same signature). Uploads pass one built on
   * XMLHttpRequest to report progress (lib/api-upload.ts); headers, auth and replies stay ours.
   */
  transport?: (url: string, init: RequestInit) => Promise<Response>;
}

export interface ApiFile {
  blob: Blob;
  headers: Headers;
}

/** Reason phrases for servers that send none (HTTP/2 has no status text). */
const REASON_PHRASES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** The first server code with this status, for replies that carry no envelope. */
function codeForStatus(status: number): string {
  const match = Object.entries(ERROR_CODES).find(([, codeStatus]) => codeStatus === status);
  if (match) return match[0];
  return status >= 500 ? 'INTERNAL_ERROR' : CLIENT_ERROR_CODES.HTTP_ERROR;
}

/** `/config` → `/api/v1/config`; paths already under `/api/` (public education) are kept. */
export function buildApiUrl(path: string, query?: Record<string, QueryValue>): string {
  const base = path.startsWith('/api/')
    ? path
    : `${env.apiBasePath}${path.startsWith('/') ? '' : '/'}${path}`;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null && value !== '') params.append(key, String(value));
  }
  const search = params.toString();
  return search ? `${base}?${search}` : base;
}

interface Envelope {
  success?: unknown;
  data?: unknown;
  error?: { message?: unknown; code?: unknown; details?: unknown };
}

async function readJson(response: Response): Promise<Envelope | undefined> {
  const text = await response.text().catch(() => '');
  if (!text) return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed && typeof parsed === 'object' ? (parsed as Envelope) : undefined;
  } catch {
    return undefined;
  }
}

/** `Retry-After` is either seconds or an HTTP date (RFC 9110 section 10.2.3). */
function parseRetryAfter(value: string | null): number | undefined {
  if (!value) return undefined;
  const seconds = /^\d+$/.test(value.trim())
    ? Number(value)
    : (Date.parse(value) - Date.now()) / 1000;
  return Number.isFinite(seconds) && seconds > 0 ? Math.ceil(seconds) : undefined;
}

function errorFromResponse(response: Response, envelope: Envelope | undefined, requestId: string) {
  const statusText = response.statusText || REASON_PHRASES[response.status] || '';
  const error = envelope?.error;
  return new ApiError({
    message: `HTTP ${response.status}: ${statusText}`,
    status: response.status,
    statusText,
    code: typeof error?.code === 'string' ? error.code : codeForStatus(response.status),
    serverMessage: typeof error?.message === 'string' ? error.message : undefined,
    details: error?.details,
    requestId,
    retryAfterSeconds: parseRetryAfter(response.headers.get('Retry-After')),
  });
}

export async function apiRequest<T>(path: string, options: ApiRequestOptions = {}): Promise<T> {
  const { method = 'GET', body, query, signal, auth = true, responseType = 'json' } = options;
  const transport = options.transport ?? ((input: string, init: RequestInit) => fetch(input, init));
  const url = buildApiUrl(path, query);
  // One id per logical call: the automatic retry after a refresh reuses it (idempotency key).
  const requestId = crypto.randomUUID();

  const send = async (): Promise<{ response: Response; sentToken: boolean }> => {
    const headers = new Headers(options.headers);
    headers.set('Accept', 'application/json');
    headers.set(CLIENT_HEADERS.name, APP_NAME);
    headers.set(CLIENT_HEADERS.version, env.appVersion);
    headers.set(CLIENT_HEADERS.requestId, requestId);
    const token = auth ? await authHandlers.getAccessToken?.() : null;
    if (token) headers.set('Authorization', `Bearer ${token}`);

    let payload: BodyInit | undefined;
    if (body instanceof FormData || body instanceof Blob) {
      payload = body;
    } else if (body !== undefined) {
      payload = JSON.stringify(body);
      headers.set('Content-Type', 'application/json');
    }

    try {
      const response = await transport(url, {
        method,
        headers,
        body: payload,
        signal,
        credentials: 'same-origin',
      });
      return { response, sentToken: Boolean(token) };
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') throw error;
      throw new ApiError({
        message: 'Network request failed',
        status: 0,
        statusText: '',
        code: CLIENT_ERROR_CODES.NETWORK_ERROR,
        requestId,
        cause: error,
      });
    }
  };

  const first = await send();
  let { response } = first;

  // An expired access token: refresh it, then retry the original call once.
  if (response.status === 401 && auth && first.sentToken && authHandlers.refresh) {
    const refreshed = await refreshOnce(authHandlers.refresh);
    if (refreshed === true) {
      ({ response } = await send());
    } else if (refreshed === false) {
      authHandlers.onSessionExpired?.();
    }
    // 'unavailable': no answer from the refresh; the session stays and this call fails with its 401.
  }

  if (!response.ok) {
    throw errorFromResponse(response, await readJson(response), requestId);
  }
  if (responseType === 'blob') return (await response.blob()) as T;
  if (responseType === 'file') {
    return { blob: await response.blob(), headers: response.headers } satisfies ApiFile as T;
  }
  if (responseType === 'text') return (await response.text()) as T;

  const envelope = await readJson(response);
  if (envelope?.success === false) throw errorFromResponse(response, envelope, requestId);
  if (envelope && 'success' in envelope) return envelope.data as T;
  return envelope as T;
}

type BodyOptions = Omit<ApiRequestOptions, 'method' | 'body'>;

export const api = {
  get: <T>(path: string, options?: Omit<ApiRequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'GET' }),
  post: <T>(path: string, body?: unknown, options?: BodyOptions) =>
    apiRequest<T>(path, { ...options, method: 'POST', body }),
  put: <T>(path: string, body?: unknown, options?: BodyOptions) =>
    apiRequest<T>(path, { ...options, method: 'PUT', body }),
  patch: <T>(path: string, body?: unknown, options?: BodyOptions) =>
    apiRequest<T>(path, { ...options, method: 'PATCH', body }),
  delete: <T>(path: string, options?: BodyOptions) =>
    apiRequest<T>(path, { ...options, method: 'DELETE' }),
};
