import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import { FALLBACK_LANGUAGE, LANGUAGES, isPagePath, type Language } from '@bdms/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { PublicConfigSource } from '../features/flags/public-config';
import { matchesEtag } from '../lib/http-cache';
import { errorBody } from './error-handler';
import { createPrerenderedPages } from './prerendered-pages';

export const WEB_NOT_BUILT_MESSAGE = 'Web app not built: run npm run build';

const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';
const ONE_HOUR = 'public, max-age=3600';

/** Entry points, the service worker and the offline page: a deploy must reach every device. */
const REVALIDATED_FILES = new Set([
  'index.html',
  'sw.js',
  'registerSW.js',
  'manifest.webmanifest',
  'offline.html',
  'offline.js',
]);

/** Paths that belong to the API side: never answered with the web app. */
export function isApiPath(pathname: string): boolean {
  return /^\/(api|healthz|readyz|livez)(\/|$)/.test(pathname);
}

/**
 * Vite's hashed files never change, so they are cached for a year. The entry points and the
 * service worker must be revalidated, or a deploy would never reach installed apps.
 */
export function cacheControlFor(relativePath: string): string {
  const file = relativePath.split(path.sep).join('/');
  if (file.startsWith('assets/')) return IMMUTABLE;
  if (REVALIDATED_FILES.has(file)) return REVALIDATE;
  if (/^workbox-[\w-]+\.js$/.test(file)) return REVALIDATE;
  return ONE_HOUR;
}

/**
 * Whether the caller takes a web page. Browsers name text/html; link previews (WhatsApp),
 * monitors and crawlers often send `*\/*` or nothing: they get the page when the path is one
 * (a script's missing file keeps its 404 envelope).
 */
function acceptsHtml(request: FastifyRequest, pathname: string): boolean {
  const accept = request.headers.accept ?? '';
  if (/\btext\/html\b|\bapplication\/xhtml\+xml\b/.test(accept)) return true;
  return isPagePath(pathname) && (accept.trim() === '' || /(^|,)\s*\*\/\*/.test(accept));
}

function pathnameOf(request: FastifyRequest): string {
  const url = request.url;
  const mark = url.indexOf('?');
  return mark === -1 ? url : url.slice(0, mark);
}

const PROBE_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** Methods with a real route at this path (the static catch-all does not count). */
function allowedMethods(app: FastifyInstance, pathname: string): string[] {
  return PROBE_METHODS.filter((method) => {
    const found = app.findRoute({ method, url: pathname });
    if (!found) return false;
    const params = Object.keys(found.params ?? {});
    return !(params.length === 1 && params[0] === '*');
  });
}

function sendNotFound(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply) {
  const pathname = pathnameOf(request);
  const allowed = isApiPath(pathname) ? allowedMethods(app, pathname) : [];
  if (allowed.length > 0) {
    return reply
      .code(405)
      .header('allow', allowed.join(', '))
      .send(
        errorBody(
          'METHOD_NOT_ALLOWED',
          `${request.method} is not allowed here; use ${allowed.join(', ')}`,
        ),
      );
  }
  return reply.code(404).send(errorBody('NOT_FOUND', `No route for ${request.method} ${pathname}`));
}

/**
 * The language the web app shows a visitor who has not chosen one (apps/web/src/i18n
 * `detectLanguage`: the browser's languages in order, the first the app supports, else English),
 * from Accept-Language, which browsers send in the order of `navigator.languages`.
 */
export function browserLanguage(header: string | undefined): Language {
  const tags = (header ?? '')
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((param) => /^\s*q=([\d.]+)\s*$/.exec(param)?.[1]).find(Boolean);
      return { base: tag.trim().toLowerCase().split('-')[0] ?? '', q: q ? Number(q) : 1, index };
    })
    .filter((entry) => entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  const found = tags.find((entry) => (LANGUAGES as readonly string[]).includes(entry.base));
  return (found?.base as Language | undefined) ?? FALLBACK_LANGUAGE;
}

export interface WebAppOptions {
  webDistDir: string;
  /** The configuration the prerendered pages are drawn with; none are without it. */
  publicConfig?: PublicConfigSource;
  /** The web build's server module; `<webDistDir>/.ssr/entry-server.mjs` by default. */
  rendererEntry?: string;
}

/**
 * Serves the built PWA and owns the not-found handler: unknown API paths get the 404 envelope,
 * page navigations get index.html so the web app can route (and show its own 404 page).
 */
export const webAppPlugin = fp(
  async (app: FastifyInstance, { webDistDir, publicConfig, rendererEntry }: WebAppOptions) => {
    const indexFile = path.join(webDistDir, 'index.html');
    const isBuilt = fs.existsSync(indexFile);
    const prerendered =
      isBuilt && publicConfig
        ? createPrerenderedPages({
            entry: rendererEntry ?? path.join(webDistDir, '.ssr', 'entry-server.mjs'),
            template: fs.readFileSync(indexFile, 'utf8'),
            publicConfig,
            log: app.log,
          })
        : null;
    app.addHook('onReady', async () => prerendered?.warm());
    if (isBuilt) {
      await app.register(fastifyStatic, {
        root: webDistDir,
        prefix: '/',
        wildcard: true,
        index: ['index.html'],
        cacheControl: false,
        dotfiles: 'ignore',
        // `/` is a page like the others (the not-found handler below): its prerendered HTML
        // when the build has it, else index.html.
        allowedPath: (pathname) => pathname !== '/' && !isApiPath(pathname),
        setHeaders: (reply, filePath) => {
          reply.header('cache-control', cacheControlFor(path.relative(webDistDir, filePath)));
        },
      });
    }

    app.setNotFoundHandler(async (request, reply) => {
      const pathname = pathnameOf(request);
      const isPageRequest =
        (request.method === 'GET' || request.method === 'HEAD') && !isApiPath(pathname);
      if (isPageRequest && !isBuilt) {
        return reply
          .code(503)
          .header('cache-control', 'no-store')
          .type('text/plain; charset=utf-8')
          .send(WEB_NOT_BUILT_MESSAGE);
      }
      if (isPageRequest && acceptsHtml(request, pathname)) {
        // A query string can change what the page shows (filters, a search): the app renders
        // those itself. The prerendered pages are English (and the education, help and policy
        // pages' words come in the reader's language): a browser that asks for another language
        // gets index.html, which the app draws in that language, not an English page that its
        // script would throw away.
        const page =
          request.url === pathname &&
          browserLanguage(request.headers['accept-language']) === FALLBACK_LANGUAGE
            ? await prerendered?.get(pathname)
            : null;
        // The app shows its "Page not found" for a path that is none of its pages: the status
        // says so too (link checkers, crawlers, previews).
        reply.code(isPagePath(pathname) ? 200 : 404).header('cache-control', REVALIDATE);
        if (prerendered) reply.header('vary', 'Accept-Language');
        if (!page) return reply.sendFile('index.html');
        reply.header('etag', page.etag);
        if (matchesEtag(request.headers['if-none-match'], page.etag)) return reply.code(304).send();
        return reply.type('text/html; charset=utf-8').send(page.html);
      }
      return sendNotFound(app, request, reply);
    });
  },
  { name: 'bdms-web-app' },
);
