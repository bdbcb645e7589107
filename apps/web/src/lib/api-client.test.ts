import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, api, apiRequest, setAuthHandlers } from './api-client';

function json(body: unknown, init: ResponseInit = {}): Response {
  return new Response(JSON.stringify(body), {
    status: 200,
    headers: { 'Content-Type': 'application/json' },
    ...init,
  });
}

const fetchMock = vi.fn<typeof fetch>();

function sentHeaders(call = 0): Headers {
  return new Headers(fetchMock.mock.calls[call]?.[1]?.headers);
}

beforeEach(() => {
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
});

afterEach(() => {
  setAuthHandlers(null);
  vi.unstubAllGlobals();
});

describe('apiRequest', () => {
  it('sends the client headers and JSON, and unwraps the envelope', async () => {
    fetchMock.mockResolvedValueOnce(json({ success: true, data: { id: 'r1' } }, { status: 201 }));

    const data = await api.post<{ id: string }>('/blood-requests', { bloodType: 'O+' });

    expect(data).toEqual({ id: 'r1' });
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/v1/blood-requests');
    expect(init?.method).toBe('POST');
    expect(init?.body).toBe(JSON.stringify({ bloodType: 'O+' }));
    const headers = sentHeaders();
    expect(headers.get('X-Client-Name')).toBe('Blood Donation Management System');
    expect(headers.get('X-Client-Version')).toMatch(/\d+\.\d+\.\d+/);
    expect(headers.get('X-Request-ID')).toMatch(/^[0-9a-f-]{36}$/);
    expect(headers.get('Content-Type')).toBe('application/json');
    expect(headers.has('Authorization')).toBe(false);
  });

  it('uses a new X-Request-ID for every call', async () => {
    fetchMock.mockImplementation(async () => json({ success: true, data: null }));
    await api.get('/config');
    await api.get('/config');
    expect(sentHeaders(0).get('X-Request-ID')).not.toBe(sentHeaders(1).get('X-Request-ID'));
  });

  it('keeps paths already under /api/ and adds the query string', async () => {
    fetchMock.mockResolvedValueOnce(json({ success: true, data: [] }));
    await api.get('/api/public/education/featured', { query: { limit: 3, category: undefined } });
    expect(fetchMock.mock.calls[0]![0]).toBe('/api/public/education/featured?limit=3');
  });

  it('sends the stored access token as a bearer token', async () => {
    setAuthHandlers({ getAccessToken: () => 'token-1' });
    fetchMock.mockResolvedValueOnce(json({ success: true, data: {} }));
    await api.get('/auth/me');
    expect(sentHeaders().get('Authorization')).toBe('Bearer token-1');
  });

  it('throws "HTTP 404: Not Found" carrying the envelope code, message and details', async () => {
    fetchMock.mockResolvedValueOnce(
      json(
        {
          success: false,
          error: { code: 'NOT_FOUND', message: 'No such request', details: { id: 'x' } },
        },
        { status: 404, statusText: 'Not Found' },
      ),
    );

    const error = await api.get('/blood-requests/x').catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      message: 'HTTP 404: Not Found',
      status: 404,
      code: 'NOT_FOUND',
      serverMessage: 'No such request',
      details: { id: 'x' },
    });
  });

  it('derives the code from the status when the reply has no envelope', async () => {
    fetchMock.mockResolvedValueOnce(
      new Response('Bad gateway', { status: 502, statusText: 'Bad Gateway' }),
    );
    await expect(api.get('/config')).rejects.toMatchObject({
      message: 'HTTP 502: Bad Gateway',
      code: 'INTERNAL_ERROR',
      serverMessage: undefined,
    });
  });

  it('reads how long to wait from Retry-After (seconds or a date)', async () => {
    fetchMock.mockResolvedValueOnce(
      json(
        { success: false, error: { code: 'RATE_LIMITED', message: 'Slow down' } },
        { status: 429, headers: { 'Content-Type': 'application/json', 'Retry-After': '120' } },
      ),
    );
    await expect(api.post('/auth/login', {}, { auth: false })).rejects.toMatchObject({
      code: 'RATE_LIMITED',
      retryAfterSeconds: 120,
    });
    const inAMinute = new Date(Date.now() + 60_500).toUTCString();
    fetchMock.mockResolvedValueOnce(
      json(
        { success: false, error: { code: 'RATE_LIMITED', message: 'Slow down' } },
        { status: 429, headers: { 'Retry-After': inAMinute } },
      ),
    );
    const error = await api.get('/x').catch((caught: unknown) => caught);
    expect((error as ApiError).retryAfterSeconds).toBeGreaterThanOrEqual(59);
    expect((error as ApiError).retryAfterSeconds).toBeLessThanOrEqual(61);
  });

  it('reports a network failure as NETWORK_ERROR', async () => {
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    await expect(api.get('/config')).rejects.toMatchObject({ code: 'NETWORK_ERROR', status: 0 });
  });

  describe('on 401', () => {
    it('refreshes the token and retries the call once, with the new token and the same request id', async () => {
      let token = 'expired';
      const refresh = vi.fn(async () => {
        token = 'fresh';
        return true;
      });
      const onSessionExpired = vi.fn();
      setAuthHandlers({ getAccessToken: () => token, refresh, onSessionExpired });
      fetchMock
        .mockResolvedValueOnce(
          json(
            { success: false, error: { code: 'UNAUTHENTICATED', message: 'Expired' } },
            { status: 401 },
          ),
        )
        .mockResolvedValueOnce(json({ success: true, data: { user: { id: 'u1' } } }));

      const data = await api.get('/auth/me');

      expect(data).toEqual({ user: { id: 'u1' } });
      expect(refresh).toHaveBeenCalledTimes(1);
      expect(onSessionExpired).not.toHaveBeenCalled();
      expect(fetchMock).toHaveBeenCalledTimes(2);
      expect(sentHeaders(0).get('Authorization')).toBe('Bearer expired');
      expect(sentHeaders(1).get('Authorization')).toBe('Bearer fresh');
      expect(sentHeaders(1).get('X-Request-ID')).toBe(sentHeaders(0).get('X-Request-ID'));
    });

    it('retries only once: a second 401 is thrown', async () => {
      const refresh = vi.fn(async () => true);
      setAuthHandlers({ getAccessToken: () => 'token', refresh, onSessionExpired: vi.fn() });
      fetchMock.mockImplementation(async () =>
        json(
          { success: false, error: { code: 'UNAUTHENTICATED', message: 'No' } },
          { status: 401 },
        ),
      );

      await expect(api.get('/auth/me')).rejects.toMatchObject({
        message: 'HTTP 401: Unauthorized',
      });
      expect(fetchMock).toHaveBeenCalledTimes(2);
      expect(refresh).toHaveBeenCalledTimes(1);
    });

    it('ends the session when the refresh fails', async () => {
      const onSessionExpired = vi.fn();
      setAuthHandlers({
        getAccessToken: () => 'expired',
        refresh: () => Promise.reject(new Error('No refresh token available')),
        onSessionExpired,
      });
      fetchMock.mockResolvedValueOnce(
        json(
          { success: false, error: { code: 'UNAUTHENTICATED', message: 'Expired' } },
          { status: 401, statusText: 'Unauthorized' },
        ),
      );

      await expect(api.get('/auth/me')).rejects.toMatchObject({
        status: 401,
        code: 'UNAUTHENTICATED',
      });
      expect(onSessionExpired).toHaveBeenCalledTimes(1);
      expect(fetchMock).toHaveBeenCalledTimes(1);
    });

    it('keeps the session when the refresh gets no answer: only this call fails', async () => {
      const onSessionExpired = vi.fn();
      setAuthHandlers({
        getAccessToken: () => 'expired',
        refresh: async () => 'unavailable',
        onSessionExpired,
      });
      fetchMock.mockResolvedValueOnce(
        json(
          { success: false, error: { code: 'UNAUTHENTICATED', message: 'Expired' } },
          { status: 401, statusText: 'Unauthorized' },
        ),
      );

      await expect(api.get('/auth/me')).rejects.toMatchObject({
        status: 401,
        code: 'UNAUTHENTICATED',
      });
      expect(onSessionExpired).not.toHaveBeenCalled();
      expect(fetchMock).toHaveBeenCalledTimes(1);
    });

    it('shares one refresh between calls that fail at the same time', async () => {
      let token = 'expired';
      const refresh = vi.fn(async () => {
        token = 'fresh';
        return true;
      });
      setAuthHandlers({ getAccessToken: () => token, refresh, onSessionExpired: vi.fn() });
      fetchMock.mockImplementation(async (_url, init) =>
        new Headers(init?.headers).get('Authorization') === 'Bearer fresh'
          ? json({ success: true, data: 'ok' })
          : json(
              { success: false, error: { code: 'UNAUTHENTICATED', message: 'Expired' } },
              { status: 401 },
            ),
      );

      await expect(Promise.all([api.get('/a'), api.get('/b')])).resolves.toEqual(['ok', 'ok']);
      expect(refresh).toHaveBeenCalledTimes(1);
    });

    it('does not refresh when no token was sent (e.g. wrong credentials at sign-in)', async () => {
      const refresh = vi.fn(async () => true);
      setAuthHandlers({ getAccessToken: () => null, refresh, onSessionExpired: vi.fn() });
      fetchMock.mockResolvedValueOnce(
        json(
          { success: false, error: { code: 'INVALID_CREDENTIALS', message: 'Wrong' } },
          { status: 401 },
        ),
      );

      await expect(
        apiRequest('/auth/login', { method: 'POST', body: {}, auth: false }),
      ).rejects.toMatchObject({ code: 'INVALID_CREDENTIALS' });
      expect(refresh).not.toHaveBeenCalled();
    });
  });
});
