import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { PublicConfig } from '@bdms/shared';
import { FEATURE_FLAG_DEFAULTS } from '@bdms/shared';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toCachedReply, type CachedReply } from '../lib/reply-cache';
import { FAKE_INDEX_HTML, FAKE_RENDERER } from '../test/web-dist-fixture';
import { createPrerenderedPages, jsonForHtml } from './prerendered-pages';

const log = pino({ level: 'silent' });

function configWith(emergencyServices: boolean, supportEmail = 'help@example.org') {
  return toCachedReply<PublicConfig>({
    appName: 'Blood Donation Management System',
    version: '1.0.0',
    flags: { ...FEATURE_FLAG_DEFAULTS, emergencyServices },
    supportEmail,
    vapidPublicKey: null,
    demoData: false,
  });
}

let dir: string;
let entry: string;
beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'bdms-prerender-'));
  entry = path.join(dir, 'entry-server.mjs');
  // Counts renders, so a test can tell a cached page from a new one.
  await fs.writeFile(
    entry,
    FAKE_RENDERER.replace(
      '{\n  if (pathname',
      '{\n  globalThis.__renders = (globalThis.__renders ?? 0) + 1;\n  if (pathname',
    ),
  );
});
afterAll(() => fs.rm(dir, { recursive: true, force: true }));

const renders = () => (globalThis as { __renders?: number }).__renders ?? 0;

describe('prerendered pages', () => {
  it('renders a page once per configuration and again when the configuration changes', async () => {
    let config: CachedReply<PublicConfig> = configWith(false);
    const pages = createPrerenderedPages({
      entry,
      template: FAKE_INDEX_HTML,
      publicConfig: async () => config,
      log,
    });
    const before = renders();
    const first = await pages.get('/');
    expect(first?.html).toContain('<h1>Page /</h1><p>emergency off</p>');
    expect(await pages.get('/')).toBe(first);
    expect(renders() - before).toBe(1);

    config = configWith(true);
    const second = await pages.get('/');
    expect(second?.html).toContain('<p>emergency on</p>');
    expect(second?.etag).not.toBe(first?.etag);
    expect(renders() - before).toBe(2);
  });

  it('answers null for a path it does not render, a failed render or a missing module', async () => {
    const pages = createPrerenderedPages({
      entry,
      template: FAKE_INDEX_HTML,
      publicConfig: async () => configWith(false),
      log,
    });
    expect(await pages.get('/donor/dashboard')).toBeNull();
    expect(await pages.get('/broken')).toBeNull();
    expect(await pages.get('/scripted')).toBeNull();
    const none = createPrerenderedPages({
      entry: path.join(dir, 'missing.mjs'),
      template: FAKE_INDEX_HTML,
      publicConfig: async () => configWith(false),
      log,
    });
    expect(await none.get('/')).toBeNull();
  });

  it('embeds a configuration that cannot end its element or the page', async () => {
    const hostile = '</script><script>alert(1)</script>@example.org';
    const pages = createPrerenderedPages({
      entry,
      template: FAKE_INDEX_HTML,
      publicConfig: async () => configWith(false, hostile),
      log,
    });
    const page = await pages.get('/');
    expect(page?.html).not.toContain('<script>alert(1)');
    const embedded = /id="bdms-config">(.*?)<\/script>/.exec(page?.html ?? '')?.[1];
    expect(JSON.parse(embedded ?? 'null').supportEmail).toBe(hostile);
    expect(jsonForHtml({ a: '<&>\u2028' })).toBe('{"a":"\\u003c\\u0026\\u003e\\u2028"}');
  });
});
