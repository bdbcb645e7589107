import { afterEach, describe, expect, it } from 'vitest';
import { fail, mockApi, ok } from '../test/api';
import { setAuthHandlers } from './api-client';
import { apiUpload, type UploadProgress } from './api-upload';

afterEach(() => setAuthHandlers(null));

function body() {
  const form = new FormData();
  form.append('type', 'photo');
  form.append('file', new File(['png'], 'me.png', { type: 'image/png' }));
  return form;
}

describe('apiUpload', () => {
  it('sends the client headers and the bearer token, reports progress, and unwraps the reply', async () => {
    setAuthHandlers({ getAccessToken: () => 'token-1' });
    const api = mockApi({ 'POST /documents': ok({ document: { id: 'doc-1' } }, 201) });
    const progress: UploadProgress[] = [];
    const data = await apiUpload<{ document: { id: string } }>('/documents', body(), {
      onProgress: (event) => progress.push(event),
    });
    expect(data).toEqual({ document: { id: 'doc-1' } });
    const [call] = api.callsTo('POST /documents');
    expect(call!.headers.get('Authorization')).toBe('Bearer token-1');
    expect(call!.headers.get('X-Client-Name')).toBe('Blood Donation Management System');
    expect(call!.headers.get('X-Client-Version')).toMatch(/\d+\.\d+\.\d+/);
    expect(call!.headers.get('Content-Type')).toBeNull();
    expect(progress.map((event) => event.percent)).toEqual([50, 100]);
  });

  it('refreshes an expired token and sends the upload again', async () => {
    let token = 'old';
    setAuthHandlers({
      getAccessToken: () => token,
      refresh: async () => {
        token = 'new';
        return true;
      },
    });
    const api = mockApi({
      'POST /documents': (request) =>
        request.headers.get('Authorization') === 'Bearer new'
          ? ok({ document: { id: 'doc-2' } }, 201)
          : fail(401, 'UNAUTHENTICATED'),
    });
    await expect(apiUpload('/documents', body())).resolves.toEqual({ document: { id: 'doc-2' } });
    const calls = api.callsTo('POST /documents');
    expect(calls).toHaveLength(2);
    expect(calls[0]!.headers.get('X-Request-ID')).toBe(calls[1]!.headers.get('X-Request-ID'));
  });

  it('throws the API error of a refusal (415)', async () => {
    mockApi({ 'POST /documents': fail(415, 'UNSUPPORTED_MEDIA_TYPE') });
    await expect(apiUpload('/documents', body())).rejects.toMatchObject({
      status: 415,
      code: 'UNSUPPORTED_MEDIA_TYPE',
      message: 'HTTP 415: Unsupported Media Type',
    });
  });
});
