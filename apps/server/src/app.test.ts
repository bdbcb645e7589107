import { gunzipSync, brotliDecompressSync } from 'node:zlib';
import { ERROR_CODES } from '@bdms/shared';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTIVE_CONTENT_MESSAGE, DISK_FULL_MESSAGE } from './features/documents/documents.service';
import { GENERIC_500_MESSAGE, UNAVAILABLE_MESSAGE } from './plugins/error-handler';
import { loggerOptions } from './plugins/logger';
import { HSTS_VALUE } from './plugins/security-headers';
import { WEB_NOT_BUILT_MESSAGE } from './plugins/web-app';
import { registerTestRoutes } from './test/extra-routes';
import { createTestApp, type TestApp } from './test/test-app';
import { createTestDatabase, type TestDatabase } from './test/test-database';
import { FAKE_ASSET_JS, FAKE_INDEX_HTML } from './test/web-dist-fixture';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const HTML = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

let testDb: TestDatabase;
let subject: TestApp;
const logLines: string[] = [];

beforeAll(async () => {
  testDb = await createTestDatabase();
  const logger = pino(loggerOptions({ logLevel: 'info' }), {
    write: (line: string) => void logLines.push(line),
  });
  subject = await createTestApp({ extraRoutes: registerTestRoutes, logger });
});

afterAll(async () => {
  await subject?.close();
  await testDb?.close();
});

describe('X-Request-ID', () => {
  it('echoes a valid incoming id', async () => {
    const res = await subject.app.inject({
      url: '/healthz',
      headers: { 'x-request-id': 'web-1.2:abc_DEF-9' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-request-id']).toBe('web-1.2:abc_DEF-9');
  });

  it('generates a UUID when none is sent', async () => {
    const res = await subject.app.inject({ url: '/healthz' });
    expect(res.headers['x-request-id']).toMatch(UUID);
  });

  it.each([['x'.repeat(129)], ['has space'], ['<script>'], ['']])(
    'replaces an unsafe id %j',
    async (id) => {
      const res = await subject.app.inject({ url: '/healthz', headers: { 'x-request-id': id } });
      expect(res.headers['x-request-id']).toMatch(UUID);
    },
  );

  it('is echoed on 404s and on errors', async () => {
    const notFound = await subject.app.inject({
      url: '/api/v1/nothing',
      headers: { 'x-request-id': 'req-404' },
    });
    expect(notFound.statusCode).toBe(404);
    expect(notFound.headers['x-request-id']).toBe('req-404');
    const failed = await subject.app.inject({
      url: '/api/v1/test/boom',
      headers: { 'x-request-id': 'req-500' },
    });
    expect(failed.statusCode).toBe(500);
    expect(failed.headers['x-request-id']).toBe('req-500');
  });

  it('is in the log lines, which never hold secrets or bodies', async () => {
    logLines.length = 0;
    await subject.app.inject({
      method: 'POST',
      url: '/api/v1/test/echo?email=someone%40example.org&page=1',
      headers: {
        'x-request-id': 'req-logged',
        authorization: 'Bearer top-secret-token',
        cookie: 'sid=cookie-secret',
      },
      payload: { email: 'not-an-email', age: 10, password: 'hunter2hunter2' },
    });
    const lines = logLines.map((line) => JSON.parse(line) as Record<string, unknown>);
    const mine = lines.filter((line) => line.reqId === 'req-logged');
    expect(mine.length).toBeGreaterThanOrEqual(2);
    const text = logLines.join('\n');
    expect(text).not.toContain('top-secret-token');
    expect(text).not.toContain('cookie-secret');
    expect(text).not.toContain('hunter2');
    expect(text).not.toContain('someone');
    expect(text).toContain('email=[redacted]');
  });
});

describe('error envelope', () => {
  it('answers an unknown /api/ route with a 404 envelope, even for a browser', async () => {
    const res = await subject.app.inject({ url: '/api/v1/does-not-exist', headers: HTML });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json()).toEqual({
      success: false,
      error: { code: 'NOT_FOUND', message: 'No route for GET /api/v1/does-not-exist' },
    });
  });

  it.each(['/api', '/api/', '/healthz/extra', '/readyz/x'])(
    'treats %s as an API path',
    async (url) => {
      const res = await subject.app.inject({ url, headers: HTML });
      expect(res.statusCode).toBe(404);
      expect(res.json().error.code).toBe('NOT_FOUND');
    },
  );

  it('answers a known path with the wrong method with 405 and Allow', async () => {
    const res = await subject.app.inject({ method: 'DELETE', url: '/api/v1/config' });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe('GET');
    expect(res.json().error.code).toBe('METHOD_NOT_ALLOWED');
  });

  it('rejects malformed JSON with 400 BAD_REQUEST', async () => {
    const res = await subject.app.inject({
      method: 'POST',
      url: '/api/v1/test/echo',
      headers: { 'content-type': 'application/json' },
      payload: '{"email": "a@b.co",',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      success: false,
      error: { code: 'BAD_REQUEST', message: 'Malformed JSON body' },
    });
  });

  it('rejects prototype poisoning as malformed JSON', async () => {
    const res = await subject.app.inject({
      method: 'POST',
      url: '/api/v1/test/echo',
      headers: { 'content-type': 'application/json' },
      payload: '{"email":"a@b.co","age":20,"__proto__":{"isAdmin":true}}',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('BAD_REQUEST');
  });

  it('rejects an empty body labelled JSON with 400', async () => {
    const res = await subject.app.inject({
      method: 'POST',
      url: '/api/v1/test/echo',
      headers: { 'content-type': 'application/json' },
      payload: '',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('BAD_REQUEST');
  });

  it('rejects a non-JSON content type with 415', async () => {
    const res = await subject.app.inject({
      method: 'POST',
      url: '/api/v1/test/echo',
      headers: { 'content-type': 'text/plain' },
      payload: 'email=a@b.co',
    });
    expect(res.statusCode).toBe(415);
    expect(res.json().error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('rejects a 2 MB body with 413', async () => {
    const res = await subject.app.inject({
      method: 'POST',
      url: '/api/v1/test/echo',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ email: 'a@b.co', age: 20, padding: 'x'.repeat(2 * 1024 * 1024) }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json().error.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('lists every invalid field with its path', async () => {
    const res = await subject.app.inject({
      method: 'POST',
      url: '/api/v1/test/echo',
      payload: { email: 'nope', age: 12, extra: true },
    });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.success).toBe(false);
    expect(body.error.code).toBe('VALIDATION_ERROR');
    const paths = body.error.details.map((detail: { path: string }) => detail.path).sort();
    expect(paths).toEqual(['body.age', 'body.email', 'body.extra']);
    for (const detail of body.error.details) expect(detail.message).toEqual(expect.any(String));
  });

  it('names query parameters query.<name>', async () => {
    const res = await subject.app.inject({
      method: 'POST',
      url: '/api/v1/test/echo?page=0',
      payload: { email: 'a@b.co', age: 30 },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details).toEqual([{ path: 'query.page', message: expect.any(String) }]);
  });

  it('passes a valid request through', async () => {
    const res = await subject.app.inject({
      method: 'POST',
      url: '/api/v1/test/echo?page=3',
      payload: { email: 'a@b.co', age: 30 },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      success: true,
      data: { body: { email: 'a@b.co', age: 30 }, page: 3 },
    });
  });

  it('hides a thrown error behind a generic 500, logging the real one with the request id', async () => {
    logLines.length = 0;
    const res = await subject.app.inject({
      url: '/api/v1/test/boom',
      headers: { 'x-request-id': 'req-boom' },
    });
    const logged = logLines
      .map(
        (line) => JSON.parse(line) as { reqId?: string; level: number; err?: { message?: string } },
      )
      .find((line) => line.reqId === 'req-boom' && line.level >= 50);
    expect(logged?.err?.message).toContain('relation "users" does not exist');
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({
      success: false,
      error: { code: 'INTERNAL_ERROR', message: GENERIC_500_MESSAGE },
    });
    expect(res.body).not.toMatch(/select|password_hash|stack|at .*\.ts/);
  });

  it('hides a response that breaks its schema behind a generic 500', async () => {
    const res = await subject.app.inject({ url: '/api/v1/test/bad-response' });
    expect(res.statusCode).toBe(500);
    expect(res.json().error).toEqual({ code: 'INTERNAL_ERROR', message: GENERIC_500_MESSAGE });
  });

  it('maps an AppError to its status, code, message and details', async () => {
    const res = await subject.app.inject({ url: '/api/v1/test/app-error' });
    expect(res.statusCode).toBe(ERROR_CODES.EMAIL_TAKEN);
    expect(res.json()).toEqual({
      success: false,
      error: {
        code: 'EMAIL_TAKEN',
        message: 'That e-mail address is already registered',
        details: [{ path: 'body.email', message: 'Already registered' }],
      },
    });
  });

  it('keeps a 4xx raised by a plugin a 4xx', async () => {
    const res = await subject.app.inject({ url: '/api/v1/test/status-406' });
    expect(res.statusCode).toBe(406);
    expect(res.json()).toEqual({
      success: false,
      error: { code: 'BAD_REQUEST', message: 'Not acceptable' },
    });
  });

  it('answers a malformed URL with a 400 envelope', async () => {
    const res = await subject.app.inject({ url: '/api/v1/%E0%A4%A' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('BAD_REQUEST');
    expect(res.headers['x-request-id']).toEqual(expect.any(String));
  });
});

describe('rate limiting', () => {
  it('answers 429 RATE_LIMITED with Retry-After once a route limit is exceeded', async () => {
    const inject = () =>
      subject.app.inject({ url: '/api/v1/test/limited', remoteAddress: '203.0.113.7' });
    expect((await inject()).statusCode).toBe(200);
    expect((await inject()).statusCode).toBe(200);
    const limited = await inject();
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.json().error.code).toBe('RATE_LIMITED');
    expect(limited.json().error.message).toMatch(/try again in \d+ seconds?/);
  });

  it('counts each address separately', async () => {
    const res = await subject.app.inject({
      url: '/api/v1/test/limited',
      remoteAddress: '203.0.113.8',
    });
    expect(res.statusCode).toBe(200);
  });

  it('leaves routes without a limit alone', async () => {
    for (let i = 0; i < 5; i += 1) {
      const res = await subject.app.inject({ url: '/healthz', remoteAddress: '203.0.113.9' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['x-ratelimit-limit']).toBeUndefined();
    }
  });
});

describe('security headers', () => {
  it('sends the CSP and the other headers on every reply', async () => {
    for (const url of ['/healthz', '/api/v1/nothing', '/']) {
      const res = await subject.app.inject({ url, headers: HTML });
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("object-src 'none'");
      expect(csp).not.toContain('unsafe-eval');
      expect(csp).not.toContain('upgrade-insecure-requests');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['cross-origin-embedder-policy']).toBeUndefined();
    }
  });

  it('does not send HSTS over plain http', async () => {
    const res = await subject.app.inject({ url: '/healthz' });
    expect(res.headers['strict-transport-security']).toBeUndefined();
  });

  it('ignores X-Forwarded-Proto unless TRUST_PROXY is on', async () => {
    const res = await subject.app.inject({
      url: '/healthz',
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(res.headers['strict-transport-security']).toBeUndefined();
  });

  it('sends HSTS for HTTPS requests behind a trusted proxy', async () => {
    const proxied = await createTestApp({
      env: { TRUST_PROXY: '1' },
      database: testDb.database,
    });
    try {
      const https = await proxied.app.inject({
        url: '/healthz',
        headers: { 'x-forwarded-proto': 'https' },
      });
      expect(https.headers['strict-transport-security']).toBe(HSTS_VALUE);
      const http = await proxied.app.inject({
        url: '/healthz',
        headers: { 'x-forwarded-proto': 'http' },
      });
      expect(http.headers['strict-transport-security']).toBeUndefined();
    } finally {
      await proxied.close();
    }
  });
});

describe('compression', () => {
  it('gzips a JSON reply over 1 KB', async () => {
    const res = await subject.app.inject({
      url: '/api/v1/test/large',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    const body = JSON.parse(gunzipSync(res.rawPayload).toString('utf8'));
    expect(body.data.text).toContain('blood donation');
  });

  it('prefers brotli when offered', async () => {
    const res = await subject.app.inject({
      url: '/api/docs/json',
      headers: { 'accept-encoding': 'gzip, br' },
    });
    expect(res.headers['content-encoding']).toBe('br');
    expect(JSON.parse(brotliDecompressSync(res.rawPayload).toString('utf8')).openapi).toMatch(
      /^3\./,
    );
  });

  it('leaves small replies alone', async () => {
    const res = await subject.app.inject({
      url: '/healthz',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(res.headers['content-encoding']).toBeUndefined();
  });

  it('compresses static files', async () => {
    const res = await subject.app.inject({
      url: '/assets/index-abc123.js',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(res.rawPayload).toString('utf8')).toBe(FAKE_ASSET_JS);
  });
});

describe('web app', () => {
  it('serves hashed assets as immutable', async () => {
    const res = await subject.app.inject({ url: '/assets/index-abc123.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.body).toBe(FAKE_ASSET_JS);
  });

  it.each([
    '/index.html',
    '/sw.js',
    '/registerSW.js',
    '/manifest.webmanifest',
    '/workbox-5c2e1a3b.js',
  ])('makes browsers revalidate %s', async (url) => {
    const res = await subject.app.inject({ url });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-cache');
  });

  it('caches other root files for an hour', async () => {
    const res = await subject.app.inject({ url: '/robots.txt' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=3600');
  });

  it('serves / prerendered, with the configuration it was drawn with', async () => {
    const res = await subject.app.inject({ url: '/', headers: HTML });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.body).toContain('<div id="root" data-prerendered="/"><h1>Page /</h1>');
    const embedded = /<script type="application\/json" id="bdms-config">(.*?)<\/script>/.exec(
      res.body,
    );
    const config = await subject.app.inject({ url: '/api/v1/config' });
    expect(JSON.parse(embedded?.[1] ?? 'null')).toEqual(config.json().data);
    // The page shows the flags it carries.
    expect(res.body).toContain(
      `emergency ${config.json().data.flags.emergencyServices ? 'on' : 'off'}`,
    );
    // The page is the template around the content: its scripts and styles are the build's.
    expect(res.body.replace(/<script type="application\/json".*?<\/script>/, '')).toBe(
      FAKE_INDEX_HTML.replace(
        '<div id="root"></div>',
        '<div id="root" data-prerendered="/"><h1>Page /</h1><p>' +
          `emergency ${config.json().data.flags.emergencyServices ? 'on' : 'off'}</p></div>`,
      ),
    );
  });

  it('sends the English prerendered page only to a browser that asks for English first', async () => {
    const page = (language: string) =>
      subject.app.inject({
        url: '/blood-banks',
        headers: { ...HTML, 'accept-language': language },
      });
    // Kannada is not an interface language (yet): the app shows English, as prerendered.
    for (const language of ['en-IN,en;q=0.9,hi;q=0.8', 'kn-IN,kn;q=0.9,en;q=0.5', '']) {
      const res = await page(language);
      expect(res.body, language).toContain('data-prerendered="/blood-banks"');
      expect(res.headers.vary, language).toMatch(/Accept-Language/);
    }
    for (const language of ['hi-IN,hi;q=0.9,en;q=0.8', 'es', 'en;q=0.5,hi', 'ta-IN,ta;q=0.9']) {
      const res = await page(language);
      expect(res.statusCode, language).toBe(200);
      expect(res.body, language).not.toContain('data-prerendered');
      expect(res.body, language).toContain('<div id="root"></div>');
      expect(res.headers.vary, language).toMatch(/Accept-Language/);
    }
  });

  it('answers 304 to a browser that has the prerendered page', async () => {
    const first = await subject.app.inject({ url: '/blood-banks', headers: HTML });
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^W\/"/);
    const again = await subject.app.inject({
      url: '/blood-banks',
      headers: { ...HTML, 'if-none-match': etag },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });

  it('prerenders only its own pages, and only without a query string', async () => {
    const page = await subject.app.inject({ url: '/blood-banks', headers: HTML });
    expect(page.body).toContain('data-prerendered="/blood-banks"');
    // A query string can change the page (filters): the app renders it from index.html.
    for (const url of [
      '/blood-banks?state=Telangana',
      '/blood-banks/42',
      '/blood-banks/',
      '/emergency',
    ]) {
      const res = await subject.app.inject({ url, headers: HTML });
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe(FAKE_INDEX_HTML);
    }
  });

  it('falls back to index.html when a page fails to render or renders a script', async () => {
    for (const url of ['/broken', '/scripted']) {
      const res = await subject.app.inject({ url, headers: HTML });
      // Paths of the test's renderer only, none of the app's pages: hence 404.
      expect(res.statusCode).toBe(404);
      expect(res.body).toBe(FAKE_INDEX_HTML);
    }
  });

  it('answers a deep link with index.html so the web app can route it', async () => {
    const res = await subject.app.inject({ url: '/donor/history?tab=2', headers: HTML });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.body).toBe(FAKE_INDEX_HTML);
  });

  it('answers a path that is no page with the app (its "Page not found") and the status 404', async () => {
    for (const url of ['/some/deep/path?tab=2', '/blood-banks/42/extra', '/admin/nothing']) {
      const res = await subject.app.inject({ url, headers: HTML });
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type'], url).toMatch(/^text\/html/);
      expect(res.body, url).toBe(FAKE_INDEX_HTML);
    }
  });

  it('answers a link preview or monitor that accepts anything (*/*) with the page itself', async () => {
    for (const accept of ['*/*', '', 'application/json, */*;q=0.1']) {
      const home = await subject.app.inject({ url: '/', headers: { accept } });
      expect(home.statusCode, accept).toBe(200);
      expect(home.headers['content-type'], accept).toMatch(/^text\/html/);
      expect(home.body, accept).toContain('<div id="root" data-prerendered="/"><h1>Page /</h1>');
      const emergency = await subject.app.inject({ url: '/emergency', headers: { accept } });
      expect(emergency.statusCode, accept).toBe(200);
      expect(emergency.body, accept).toBe(FAKE_INDEX_HTML);
      const article = await subject.app.inject({
        url: '/articles/why-donate',
        headers: { accept },
      });
      expect(article.statusCode, accept).toBe(200);
      expect(article.headers['content-type'], accept).toMatch(/^text\/html/);
    }
    // Asking only for JSON still gets the envelope.
    const json = await subject.app.inject({
      url: '/about',
      headers: { accept: 'application/json' },
    });
    expect(json.statusCode).toBe(404);
    expect(json.json().error.code).toBe('NOT_FOUND');
  });

  it('answers HEAD for a deep link too', async () => {
    const res = await subject.app.inject({
      method: 'HEAD',
      url: '/donor/dashboard',
      headers: HTML,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
  });

  it('answers a missing file requested by a script with 404, not HTML', async () => {
    const res = await subject.app.inject({
      url: '/assets/missing-123.js',
      headers: { accept: '*/*' },
    });
    expect(res.statusCode).toBe(404);
    expect(res.json().error.code).toBe('NOT_FOUND');
  });

  it('never serves dot files', async () => {
    const res = await subject.app.inject({ url: '/.env', headers: { accept: '*/*' } });
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('do-not-serve');
  });

  it('answers POST to a page path with a 404 envelope', async () => {
    const res = await subject.app.inject({ method: 'POST', url: '/some/page', payload: {} });
    expect(res.statusCode).toBe(404);
    expect(res.json().error.code).toBe('NOT_FOUND');
  });

  it('says the web app is not built when its folder is missing', async () => {
    const bare = await createTestApp({
      env: { WEB_DIST_DIR: '/nonexistent/bdms-web-dist' },
      database: testDb.database,
    });
    try {
      const page = await bare.app.inject({ url: '/donors', headers: HTML });
      expect(page.statusCode).toBe(503);
      expect(page.headers['content-type']).toMatch(/^text\/plain/);
      expect(page.body).toBe(WEB_NOT_BUILT_MESSAGE);
      const api = await bare.app.inject({ url: '/api/v1/nothing', headers: HTML });
      expect(api.statusCode).toBe(404);
      expect(api.json().error.code).toBe('NOT_FOUND');
      expect((await bare.app.inject({ url: '/healthz' })).statusCode).toBe(200);
    } finally {
      await bare.close();
    }
  });
});

describe('OpenAPI', () => {
  it('serves an OpenAPI 3 document listing the routes', async () => {
    const res = await subject.app.inject({ url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.info.title).toBe('Blood Donation Management System API');
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/api/v1/config', '/healthz', '/readyz']),
    );
    expect(Object.keys(doc.paths).some((path) => path.startsWith('/api/docs'))).toBe(false);
    const config = doc.paths['/api/v1/config'].get;
    expect(config.tags).toEqual(['config']);
    expect(
      config.responses['200'].content['application/json'].schema.properties.data,
    ).toBeDefined();
    for (const code of Object.keys(ERROR_CODES)) expect(doc.info.description).toContain(code);
    for (const name of [
      'SUPPORT_EMAIL',
      'WEB_DIST_DIR',
      'TRUST_PROXY',
      'Retry-After',
      'X-Request-ID',
    ]) {
      expect(doc.info.description).toContain(name);
    }
  });

  it('documents the auth and users routes, their security and the decisions behind them', async () => {
    const doc = (await subject.app.inject({ url: '/api/docs/json' })).json();
    const expected = {
      '/api/v1/auth/register': 'post',
      '/api/v1/auth/login': 'post',
      '/api/v1/auth/login-otp': 'post',
      '/api/v1/auth/refresh': 'post',
      '/api/v1/auth/logout': 'post',
      '/api/v1/auth/me': 'get',
      '/api/v1/auth/check-email': 'post',
      '/api/v1/auth/check-phone': 'post',
      '/api/v1/auth/reset-password': 'post',
      '/api/v1/users/{id}': 'patch',
      '/api/v1/users/{id}/password': 'post',
      '/api/v1/users/{id}/phone/confirm': 'post',
    };
    for (const [path, method] of Object.entries(expected)) {
      const operation = doc.paths[path]?.[method];
      expect(operation, path).toBeDefined();
      expect(operation.responses['200'] ?? operation.responses['201'], path).toBeDefined();
      expect(operation.description, path).toBeTruthy();
    }
    expect(doc.paths['/api/v1/auth/me'].get.security).toEqual([{ bearerAuth: [] }]);
    expect(doc.paths['/api/v1/users/{id}'].get.security).toEqual([{ bearerAuth: [] }]);
    const register = doc.paths['/api/v1/auth/register'].post;
    expect(
      register.responses['201'].content['application/json'].schema.properties.data,
    ).toBeDefined();
    expect(register.requestBody.content['application/json'].schema.required).toEqual(
      expect.arrayContaining(['email', 'password', 'consent']),
    );
    for (const phrase of [
      'Suspended donors can sign in',
      'BLOOD_TYPE_LOCKED',
      'body.currentPassword',
      'mail_outbox',
      'Idempotent-Replayed',
      'not rotated',
    ]) {
      expect(doc.info.description).toContain(phrase);
    }
  });

  it("documents the donor's journey routes and the decisions behind them", async () => {
    const doc = (await subject.app.inject({ url: '/api/docs/json' })).json();
    const expected: Record<string, string[]> = {
      '/api/v1/documents': ['post'],
      '/api/v1/documents/list': ['get'],
      '/api/v1/documents/{id}/file': ['get'],
      '/api/v1/documents/{id}/verify': ['put'],
      '/api/v1/users/{id}/questionnaire': ['get', 'put'],
      '/api/v1/users/{id}/onboarding-status': ['get'],
      '/api/v1/users/{id}/stats': ['get'],
      '/api/v1/users/{id}/donations': ['get', 'post'],
      '/api/v1/donations': ['post'],
      '/api/v1/donations/{id}/certificate': ['get'],
      '/api/v1/certificates/{number}': ['get'],
      '/api/v1/users/{id}/activity': ['get'],
      '/api/v1/users/{id}/availability': ['get', 'put'],
      '/api/v1/users/{id}/export': ['get'],
      '/api/v1/users/{id}': ['delete'],
      '/api/v1/notifications': ['get'],
      '/api/v1/notifications/{id}/read': ['post'],
      '/api/v1/notifications/read-all': ['post'],
      '/api/v1/notifications/push-subscription': ['post', 'delete'],
    };
    for (const [path, methods] of Object.entries(expected)) {
      for (const method of methods) {
        const operation = doc.paths[path]?.[method];
        expect(operation, `${method} ${path}`).toBeDefined();
        expect(operation.description, `${method} ${path}`).toBeTruthy();
      }
    }
    expect(doc.paths['/api/v1/certificates/{number}'].get.security).toBeUndefined();
    for (const phrase of [
      'Schedule F Part XII-B',
      'G.S.R. 166(E)',
      '120 days',
      'INSUFFICIENT_STORAGE',
      'FOR UPDATE SKIP LOCKED',
      'livesImpacted',
      'first name and last initial',
    ]) {
      expect(doc.info.description).toContain(phrase);
    }
  });

  it('documents database outages, uploads with active content and a full disk', async () => {
    const { description } = (await subject.app.inject({ url: '/api/docs/json' })).json().info;
    const errors = description.slice(description.indexOf('Decisions on errors'));
    for (const phrase of [
      '503 `SERVICE_UNAVAILABLE`',
      '`Retry-After: 5`',
      `"${UNAVAILABLE_MESSAGE}"`,
      '415 `UNSUPPORTED_MEDIA_TYPE`',
      `"${ACTIVE_CONTENT_MESSAGE}"`,
      'polyglot',
      '`/JavaScript`',
      '`/Launch`',
      '507 `INSUFFICIENT_STORAGE`',
      `"${DISK_FULL_MESSAGE}"`,
    ]) {
      expect(errors).toContain(phrase);
    }
  });

  it('serves Swagger UI as HTML whose scripts load under the CSP', async () => {
    const res = await subject.app.inject({ url: '/api/docs', headers: HTML });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.body).toContain('swagger-ui');
    // No inline scripts: every <script> has a same-origin src, which script-src 'self' allows.
    expect(res.body).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    const bundle = await subject.app.inject({ url: '/api/docs/static/swagger-ui-bundle.js' });
    expect(bundle.statusCode).toBe(200);
    const init = await subject.app.inject({ url: '/api/docs/static/swagger-initializer.js' });
    expect(init.statusCode).toBe(200);
    expect(init.body).toContain('json');
  });
});
