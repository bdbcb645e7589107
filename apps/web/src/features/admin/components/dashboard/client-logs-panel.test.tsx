import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ClientLog } from '@bdms/shared';
import { i18n } from '../../../../i18n';
import { fail, mockApi, ok, type MockRequest, type MockRoute } from '../../../../test/api';
import { renderWithApp } from '../../../../test/render';
import { makeClientLog } from '../../test/fixtures';
import { ClientLogsPanel, MESSAGE_PREVIEW_LENGTH } from './client-logs-panel';

function page(items: ClientLog[], { total = items.length, page = 1 } = {}) {
  return ok({ items, total, page, pageSize: 20 });
}

function renderPanel(route: MockRoute) {
  const api = mockApi({ 'GET /admin/client-logs': route });
  const rendered = renderWithApp(<ClientLogsPanel />, { path: '/admin' });
  return { ...rendered, api, user: userEvent.setup() };
}

function queries(api: { callsTo: (key: string) => MockRequest[] }) {
  return api.callsTo('GET /admin/client-logs').map((call) => Object.fromEntries(call.query));
}

const section = () => screen.getByRole('region', { name: 'Errors reported by browsers' });

describe('the browser reports on the admin dashboard', () => {
  it('lists the newest entries with their time, level, message, page and app version', async () => {
    const { api } = renderPanel(
      page([
        makeClientLog(),
        makeClientLog({
          id: 'log-2',
          level: 'warn',
          message: 'LCP 4210 (poor)',
          category: 'web-vitals',
          url: '/',
          clientVersion: null,
          stack: null,
          userAgent: null,
        }),
      ]),
    );
    expect(within(section()).getByRole('status')).toHaveTextContent('Loading...');
    const list = await within(section()).findByRole('list', {
      name: 'Errors reported by browsers',
    });
    const [first, second] = within(list).getAllByRole('listitem');
    expect(first).toHaveTextContent('Error');
    expect(first).toHaveTextContent(
      "TypeError: Cannot read properties of undefined (reading 'name')",
    );
    expect(first).toHaveTextContent('Page /donor/history');
    expect(first).toHaveTextContent('Version 0.1.0');
    const time = first!.querySelector('time');
    expect(time).toHaveAttribute('datetime', '2026-11-20T09:15:00.000Z');
    expect(time?.textContent).toMatch(/2026/);
    expect(second).toHaveTextContent('Warning');
    expect(second).toHaveTextContent('LCP 4210 (poor)');
    expect(second).toHaveTextContent('Page / · Version unknown · Kind web-vitals');
    // Every level, 20 to a page, first page.
    expect(queries(api)).toEqual([{ page: '1', pageSize: '20' }]);
  });

  it('cuts a long message and shows the whole text, with its stack, on request', async () => {
    const long = `Error: ${'x'.repeat(300)} END-OF-MESSAGE`;
    const { user } = renderPanel(page([makeClientLog({ message: long })]));
    const message = await screen.findByTestId('client-log-message');
    expect(message.textContent).toHaveLength(MESSAGE_PREVIEW_LENGTH + 1);
    expect(message.textContent?.endsWith('…')).toBe(true);
    expect(screen.queryByText(/END-OF-MESSAGE/)).not.toBeInTheDocument();

    const toggle = screen.getByRole('button', { name: /^Show the whole message/ });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(toggle).toHaveAccessibleName(/^Hide details/);
    const details = document.getElementById(toggle.getAttribute('aria-controls')!)!;
    expect(details).toBeVisible();
    expect(within(details).getByText(long)).toBeInTheDocument();
    expect(within(details).getByText(/at History \(history\.js:12:5\)/)).toBeInTheDocument();
    expect(details).toHaveTextContent('Browser');
    expect(details).toHaveTextContent('Android 13');

    await user.click(toggle);
    expect(screen.queryByText(/END-OF-MESSAGE/)).not.toBeInTheDocument();
  });

  it('shows what a browser sent as text, never as markup', async () => {
    const payload = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>';
    const { container, user } = renderPanel(
      page([makeClientLog({ message: payload, url: '/<b>bold</b>', stack: payload })]),
    );
    expect(await screen.findByText(payload)).toBeInTheDocument();
    expect(screen.getByText('/<b>bold</b>')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: /^Show details/ }));
    expect(screen.getAllByText(payload).length).toBeGreaterThan(1);
    expect(container.querySelector('img, script, b')).toBeNull();
    expect((window as unknown as { __pwned?: number }).__pwned).toBeUndefined();
  });

  it('asks the server for one level, from the first page again', async () => {
    const { api, user } = renderPanel((request) =>
      request.query.get('level') === 'debug'
        ? page([])
        : page([makeClientLog()], { total: 45, page: Number(request.query.get('page') ?? 1) }),
    );
    const navigation = await screen.findByRole('navigation', { name: 'Pages of browser reports' });
    expect(navigation).toHaveTextContent('Page 1 of 3');
    await user.click(within(navigation).getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('Page 2 of 3')).toBeInTheDocument();

    const level = screen.getByRole('combobox', { name: 'Level' });
    expect(
      within(level)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['All levels', 'Error', 'Warning', 'Information', 'Debug']);
    await user.selectOptions(level, 'Error');
    await user.selectOptions(level, 'Debug');
    expect(await screen.findByText('Nothing reported')).toBeInTheDocument();
    expect(screen.getByText('Nothing at the level “Debug”.')).toBeInTheDocument();
    expect(queries(api)).toEqual([
      { page: '1', pageSize: '20' },
      { page: '2', pageSize: '20' },
      { page: '1', pageSize: '20', level: 'error' },
      { page: '1', pageSize: '20', level: 'debug' },
    ]);

    await user.click(screen.getByRole('button', { name: 'Show all levels' }));
    expect(level).toHaveValue('');
    expect(await screen.findByText('Page 1 of 3')).toBeInTheDocument();
  });

  it('says so when nothing was reported', async () => {
    renderPanel(page([]));
    expect(await screen.findByText('Nothing reported')).toBeInTheDocument();
    expect(
      screen.getByText("When something goes wrong in someone's browser, it is listed here."),
    ).toBeInTheDocument();
  });

  it('shows an error with a retry when the reports cannot be loaded', async () => {
    let calls = 0;
    const { user } = renderPanel(() =>
      ++calls === 1 ? fail(500, 'INTERNAL_ERROR') : page([makeClientLog()]),
    );
    const alert = await within(section()).findByRole('alert');
    expect(alert).toHaveTextContent('This could not be loaded');
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByTestId('client-log-message')).toHaveTextContent('TypeError');
  });

  it('speaks Hindi', async () => {
    await i18n.changeLanguage('hi');
    renderPanel(page([makeClientLog()]));
    expect(await screen.findByRole('region', { name: 'ब्राउज़र से मिली त्रुटियाँ' })).toBeInTheDocument();
    expect(await screen.findByText('त्रुटि')).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'स्तर' })).toBeInTheDocument();
  });
});
