import fs from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { PublicConfig } from '@bdms/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { PublicConfigSource } from '../features/flags/public-config';
import { weakEtag } from '../lib/http-cache';

/** What the web build's server module exports (apps/web/src/prerender/entry-server.tsx). */
export interface PageRendererModule {
  PRERENDERED_PATHS: readonly string[];
  renderPage(pathname: string, config: PublicConfig): Promise<string>;
}

export interface PrerenderedPage {
  html: string;
  etag: string;
}

export interface PrerenderedPagesOptions {
  /** The web build's server module (dist/.ssr/entry-server.mjs); no prerendering when missing. */
  entry: string;
  /** dist/index.html: the page around the rendered content. */
  template: string;
  publicConfig: PublicConfigSource;
  log: FastifyBaseLogger;
}

const MOUNT = '<div id="root"></div>';

/** JSON inside `<script type="application/json">`: nothing in it can close the element. */
export function jsonForHtml(value: unknown): string {
  return JSON.stringify(value)
    .replaceAll('<', '\\u003c')
    .replaceAll('>', '\\u003e')
    .replaceAll('&', '\\u0026')
    .replaceAll('\u2028', '\\u2028')
    .replaceAll('\u2029', '\\u2029');
}

/**
 * The public pages, rendered once per configuration by the web app's own code: the first paint a
 * visitor gets before any script has run, which the browser then adopts (hydrates). The page
 * carries the configuration it was drawn with (`#bdms-config`) so that the browser's first render
 * is the same. Rendered on first request and kept until the configuration changes (its ETag is
 * part of the key). Anything unexpected (no module, a render error, a script in the output)
 * answers null: the caller sends index.html, as without prerendering.
 */
export function createPrerenderedPages({
  entry,
  template,
  publicConfig,
  log,
}: PrerenderedPagesOptions) {
  const available = fs.existsSync(entry) && template.includes(MOUNT);
  let loaded: Promise<PageRendererModule | null> | null = null;
  let paths: ReadonlySet<string> = new Set();
  let configEtag = '';
  let pages = new Map<string, Promise<PrerenderedPage | null>>();

  function load(): Promise<PageRendererModule | null> {
    loaded ??= (import(pathToFileURL(entry).href) as Promise<PageRendererModule>).then(
      (module) => {
        paths = new Set(module.PRERENDERED_PATHS);
        return module;
      },
      (error: unknown) => {
        log.warn({ err: error }, 'prerendered pages unavailable: the renderer did not load');
        return null;
      },
    );
    return loaded;
  }

  async function render(
    module: PageRendererModule,
    pathname: string,
    config: PublicConfig,
  ): Promise<PrerenderedPage | null> {
    try {
      const body = await module.renderPage(pathname, config);
      if (/<script\b/i.test(body)) throw new Error('the rendered page has a script');
      const html = template.replace(
        MOUNT,
        () =>
          `<script type="application/json" id="bdms-config">${jsonForHtml(config)}</script>` +
          `<div id="root" data-prerendered="${pathname}">${body}</div>`,
      );
      return { html, etag: weakEtag(html) };
    } catch (error) {
      log.warn({ err: error, pathname }, 'page not prerendered; index.html is sent instead');
      return null;
    }
  }

  return {
    /** Starts loading the renderer (at start-up, off the request path). */
    warm(): void {
      if (available) void load();
    },
    async get(pathname: string): Promise<PrerenderedPage | null> {
      if (!available) return null;
      const module = await load();
      if (!module || !paths.has(pathname)) return null;
      const config = await publicConfig();
      if (config.etag !== configEtag) {
        configEtag = config.etag;
        pages = new Map();
      }
      let page = pages.get(pathname);
      if (!page) {
        page = render(module, pathname, config.data);
        pages.set(pathname, page);
      }
      return page;
    },
  };
}

export type PrerenderedPages = ReturnType<typeof createPrerenderedPages>;
