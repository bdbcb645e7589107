import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { PWA_STORAGE_KEYS, type ServerDebugInfo } from '@bdms/shared';
import { mockApi, ok } from '../../../../test/api';
import { renderWithApp } from '../../../../test/render';
import { makeUser, seedSession } from '../../../../test/session';
import { makeClientLog } from '../../test/fixtures';
import { DebugPanel, featureTimings } from './debug-panel';

const INFO: ServerDebugInfo = {
  version: '0.1.0',
  build: '3f2a9c1d7e4b',
  builtAt: '2026-11-25T06:00:00.000Z',
  node: 'v24.11.0',
  database: 'postgres',
  startedAt: '2026-11-25T06:30:00.000Z',
  uptimeSeconds: 3600,
  memory: { rssMb: 182.4, heapUsedMb: 96.1 },
};

async function renderPanel(role: 'admin' | 'donor', debugMode: boolean) {
  const user = makeUser({ role });
  await seedSession(user);
  const api = mockApi({
    'GET /auth/me': ok({ user }),
    'GET /admin/debug': ok(INFO),
    'GET /admin/client-logs': ok({
      items: [makeClientLog({ message: 'TypeError: x is undefined\n    at render' })],
      total: 1,
      page: 1,
      pageSize: 20,
    }),
  });
  renderWithApp(<DebugPanel />, { path: '/admin', flags: { debugMode } });
  return { api, user: userEvent.setup() };
}

describe('the debug panel (debugMode)', () => {
  it('shows administrators the server, the log level, timings and recent errors while on', async () => {
    const { api, user } = await renderPanel('admin', true);
    const section = await screen.findByRole('region', { name: 'Debug' });
    expect(await within(section).findByText('3f2a9c1d7e4b')).toBeInTheDocument();
    expect(section).toHaveTextContent('v24.11.0');
    expect(section).toHaveTextContent('PostgreSQL');
    expect(await within(section).findByText('TypeError: x is undefined')).toBeInTheDocument();
    expect(api.callsTo('GET /admin/debug')).toHaveLength(1);

    const level = within(section).getByRole('combobox', { name: /Client log level/ });
    await user.selectOptions(level, 'debug');
    expect(localStorage.getItem(PWA_STORAGE_KEYS.clientLogLevel)).toBe('debug');
  });

  it('shows nothing and asks nothing while off', async () => {
    const { api } = await renderPanel('admin', false);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('region', { name: 'Debug' })).toBeNull();
    expect(api.callsTo('GET /admin/debug')).toHaveLength(0);
    expect(api.callsTo('GET /admin/client-logs')).toHaveLength(0);
  });

  it('never shows for another role, even while on', async () => {
    const { api } = await renderPanel('donor', true);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('region', { name: 'Debug' })).toBeNull();
    expect(api.callsTo('GET /admin/debug')).toHaveLength(0);
    expect(api.callsTo('GET /admin/client-logs')).toHaveLength(0);
  });
});

describe('featureTimings', () => {
  it('lists the page milestones, then each slow API call or script once, slowest first', () => {
    const entries: Record<string, object[]> = {
      navigation: [{ responseStart: 40, domContentLoadedEventEnd: 210, loadEventEnd: 0 }],
      resource: [
        { name: 'http://x/api/v1/admin/flags', duration: 300 },
        { name: 'http://x/api/v1/admin/client-logs', duration: 120 },
        { name: 'http://x/api/v1/admin/client-logs', duration: 260 },
        { name: 'http://x/assets/admin.js', duration: 90 },
        { name: 'http://x/logo.png', duration: 999 },
      ],
    };
    const timings = featureTimings({
      getEntriesByType: (type: string) => (entries[type] ?? []) as PerformanceEntryList,
    });
    expect(timings.map((timing) => [timing.label, timing.ms])).toEqual([
      ['firstByte', 40],
      ['domReady', 210],
      ['/api/v1/admin/flags', 300],
      ['/api/v1/admin/client-logs', 260],
      ['/assets/admin.js', 90],
    ]);
  });
});
