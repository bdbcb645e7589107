import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { i18n } from '../../i18n';
import { mockApi, ok } from '../../test/api';
import { renderRoutes, type RenderOptions } from '../../test/render';
import { RootLayout } from './root-layout';

function renderPage(options: RenderOptions = {}, path = '/') {
  mockApi({ 'GET /auth/me': ok({ user: null }) });
  renderRoutes(
    [
      {
        element: <RootLayout />,
        children: [
          { path: '/', element: <h1>Home page</h1> },
          { path: '/blood-banks', element: <h1>Blood banks</h1> },
        ],
      },
    ],
    { ...options, path },
  );
}

describe('the "Demo data" banner', () => {
  it('is on every page while the server says demo data is present', async () => {
    renderPage({ demoData: true });
    await screen.findByRole('heading', { name: 'Home page' });
    const banner = screen.getByRole('status', { name: 'Demo data' });
    expect(banner).toHaveTextContent(
      'Every donor, request, donation and stock figure here is made up for demonstration. Nobody is contacted.',
    );
    // Not something to close: no button in it.
    expect(banner.querySelector('button')).toBeNull();
  });

  it('is on another page too, before the header', async () => {
    renderPage({ demoData: true }, '/blood-banks');
    await screen.findByRole('heading', { name: 'Blood banks' });
    const banner = screen.getByRole('status', { name: 'Demo data' });
    const header = screen.getByRole('banner');
    expect(banner.compareDocumentPosition(header) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('is not there without demo data', async () => {
    renderPage({ demoData: false, flags: { mockData: true } });
    await screen.findByRole('heading', { name: 'Home page' });
    expect(screen.queryByRole('status', { name: 'Demo data' })).toBeNull();
    expect(screen.queryByText(/made up for demonstration/)).toBeNull();
  });

  it('speaks Hindi', async () => {
    await i18n.changeLanguage('hi');
    try {
      renderPage({ demoData: true });
      await screen.findByRole('heading', { name: 'Home page' });
      const banner = await screen.findByRole('status', { name: 'डेमो डेटा' });
      expect(banner).toHaveTextContent('किसी से संपर्क नहीं किया जाता।');
    } finally {
      await i18n.changeLanguage('en');
    }
  });
});
