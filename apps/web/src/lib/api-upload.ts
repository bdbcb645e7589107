import { apiRequest, type ApiRequestOptions } from './api-client';

/** How far an upload has gone: bytes sent of the request body. */
export interface UploadProgress {
  loaded: number;
  total: number;
  /** 0–100, or null while the size is unknown. */
  percent: number | null;
}

/** `"Name: value\r\n…"` (XMLHttpRequest.getAllResponseHeaders) → Headers. */
function parseHeaders(raw: string): Headers {
  const headers = new Headers();
  for (const line of raw.trim().split(/[\r\n]+/)) {
    const index = line.indexOf(':');
    if (index > 0) {
      try {
        headers.append(line.slice(0, index).trim(), line.slice(index + 1).trim());
      } catch {
        // A header the Headers class refuses: not one we read.
      }
    }
  }
  return headers;
}

/**
 * A `fetch` look-alike on XMLHttpRequest, the only browser API that reports upload progress.
 * It fails like fetch: a TypeError when the server is not reached, an AbortError on abort.
 */
export function xhrTransport(onProgress?: (progress: UploadProgress) => void) {
  return (url: string, init: RequestInit): Promise<Response> =>
    new Promise<Response>((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open(init.method ?? 'GET', url);
      // Upload replies are JSON envelopes: text is enough, and reads the same everywhere.
      xhr.responseType = 'text';
      xhr.withCredentials = init.credentials === 'include';
      new Headers(init.headers).forEach((value, name) => xhr.setRequestHeader(name, value));
      if (onProgress) {
        xhr.upload.onprogress = (event) =>
          onProgress({
            loaded: event.loaded,
            total: event.total,
            percent: event.lengthComputable
              ? Math.min(100, Math.round((event.loaded / event.total) * 100))
              : null,
          });
      }
      const abort = () => xhr.abort();
      init.signal?.addEventListener('abort', abort, { once: true });
      xhr.onload = () => {
        init.signal?.removeEventListener('abort', abort);
        resolve(
          new Response(xhr.status === 204 ? null : xhr.responseText, {
            status: xhr.status,
            statusText: xhr.statusText,
            headers: parseHeaders(xhr.getAllResponseHeaders()),
          }),
        );
      };
      xhr.onerror = () => reject(new TypeError('Network request failed'));
      xhr.ontimeout = () => reject(new TypeError('Network request timed out'));
      xhr.onabort = () => reject(new DOMException('The upload was aborted.', 'AbortError'));
      if (init.signal?.aborted) {
        reject(new DOMException('The upload was aborted.', 'AbortError'));
        return;
      }
      xhr.send((init.body as XMLHttpRequestBodyInit | null | undefined) ?? null);
    });
}

export interface UploadOptions extends Pick<ApiRequestOptions, 'signal' | 'query'> {
  onProgress?: (progress: UploadProgress) => void;
}

/**
 * `POST` a multipart body through the API client (client headers, bearer token, the
 * 401 → refresh → retry rule, envelope errors), reporting how much of it has been sent.
 * Kept out of api-client.ts so the first page load does not carry it.
 */
export function apiUpload<T>(path: string, body: FormData, options: UploadOptions = {}) {
  const { onProgress, ...rest } = options;
  return apiRequest<T>(path, {
    ...rest,
    method: 'POST',
    body,
    transport: xhrTransport(onProgress),
  });
}
