import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/** A stand-in for apps/web/dist, so server tests never depend on a real web build. */
export const FAKE_INDEX_HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Blood Donation Management System</title>
<script type="module" src="/assets/index-abc123.js"></script></head>
<body><div id="root"></div><!-- fake web build for server tests --></body></html>
`;

/**
 * The web build's server module (apps/web/src/prerender/entry-server.tsx) as a stand-in: a page
 * that shows its path and one flag, one that fails to render, one that renders a script.
 */
export const FAKE_RENDERER = `
export const PRERENDERED_PATHS = ['/', '/blood-banks', '/broken', '/scripted'];
export async function renderPage(pathname, config) {
  if (pathname === '/broken') throw new Error('render failed');
  if (pathname === '/scripted') return '<script>alert(1)</script>';
  return '<h1>Page ' + pathname + '</h1><p>emergency ' + (config.flags.emergencyServices ? 'on' : 'off') + '</p>';
}
`;

export const FAKE_ASSET_JS = `// fake Vite chunk\n${'export const filler = "0123456789abcdef";\n'.repeat(80)}`;

export async function createFakeWebDist(): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'bdms-web-dist-'));
  await fs.mkdir(path.join(dir, 'assets'));
  await fs.mkdir(path.join(dir, '.ssr'));
  await Promise.all([
    fs.writeFile(path.join(dir, '.ssr', 'entry-server.mjs'), FAKE_RENDERER),
    fs.writeFile(path.join(dir, 'index.html'), FAKE_INDEX_HTML),
    fs.writeFile(path.join(dir, 'assets', 'index-abc123.js'), FAKE_ASSET_JS),
    fs.writeFile(
      path.join(dir, 'sw.js'),
      'self.addEventListener("install", () => self.skipWaiting());\n',
    ),
    fs.writeFile(path.join(dir, 'registerSW.js'), 'navigator.serviceWorker.register("/sw.js");\n'),
    fs.writeFile(path.join(dir, 'workbox-5c2e1a3b.js'), '// fake workbox runtime\n'),
    fs.writeFile(
      path.join(dir, 'manifest.webmanifest'),
      '{"name":"Blood Donation Management System"}\n',
    ),
    fs.writeFile(path.join(dir, 'robots.txt'), 'User-agent: *\nAllow: /\n'),
    fs.writeFile(path.join(dir, '.env'), 'SECRET=do-not-serve\n'),
  ]);
  return dir;
}
