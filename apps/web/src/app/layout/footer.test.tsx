import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { i18n } from '../../i18n';
import { mockApi, ok } from '../../test/api';
import { renderRoutes, type RenderOptions } from '../../test/render';
import { RootLayout } from './root-layout';

/** The whole layout: the footer's button, and the install layer that shows the alerts. */
function renderLayout(options: RenderOptions = {}) {
  mockApi({ 'GET /auth/me': ok({ user: null }) });
  renderRoutes(
    [{ element: <RootLayout />, children: [{ path: '/', element: <h1>Home page</h1> }] }],
    options,
  );
  return { user: userEvent.setup() };
}

function footer() {
  return screen.getByRole('contentinfo');
}

/** Chromium's offer to install, as the browser fires it. */
function offerInstall(prompt: () => Promise<void>, outcome: 'accepted' | 'dismissed') {
  const event = new Event('beforeinstallprompt', { cancelable: true });
  Object.assign(event, {
    prompt,
    userChoice: Promise.resolve({ outcome, platform: 'web' }),
  });
  window.dispatchEvent(event);
}

/** The install layer mounts once the page has loaded (right after the first render here). */
const layerMounted = () => new Promise((resolve) => setTimeout(resolve, 150));

afterEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

describe('the footer\'s "Install app" button', () => {
  it('explains why nothing can be installed when the browser offers no prompt', async () => {
    const { user } = renderLayout();
    await screen.findByRole('heading', { name: 'Home page' });
    await user.click(within(footer()).getByRole('button', { name: 'Install app' }));

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Installation is not available');
    // The spec's three reasons, and the generic instructions (a computer here).
    expect(alert).toHaveTextContent('it is already installed');
    expect(alert).toHaveTextContent('this browser does not support installing apps');
    expect(alert).toHaveTextContent('the installation requirements are not met yet');
    expect(alert).toHaveTextContent('click the install icon in the address bar');
  });

  it("opens the browser's install dialog when it has offered one", async () => {
    const prompt = vi.fn(() => Promise.resolve());
    const { user } = renderLayout();
    await screen.findByRole('heading', { name: 'Home page' });
    await layerMounted();
    offerInstall(prompt, 'accepted');
    await user.click(within(footer()).getByRole('button', { name: 'Install app' }));
    await vi.waitFor(() => expect(prompt).toHaveBeenCalledTimes(1));
    await vi.waitFor(() =>
      expect(JSON.parse(localStorage.getItem('pwa_install_info') ?? '{}')).toMatchObject({
        lastOutcome: 'accepted',
      }),
    );
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('says the installation failed when the dialog cannot run', async () => {
    const { user } = renderLayout();
    await screen.findByRole('heading', { name: 'Home page' });
    await layerMounted();
    offerInstall(() => Promise.reject(new Error('NotAllowedError')), 'dismissed');
    await user.click(within(footer()).getByRole('button', { name: 'Install app' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      "Installation failed. Please try installing manually from your browser's menu.",
    );
  });

  it('is not there while the pwaSupport flag is off', async () => {
    renderLayout({ flags: { pwaSupport: false } });
    await screen.findByRole('heading', { name: 'Home page' });
    expect(within(footer()).queryByRole('button', { name: 'Install app' })).toBeNull();
  });

  it('is not there in the installed app', async () => {
    vi.stubGlobal('matchMedia', (query: string) => ({
      matches: query === '(display-mode: standalone)',
      media: query,
      addEventListener: () => {},
      removeEventListener: () => {},
    }));
    renderLayout();
    await screen.findByRole('heading', { name: 'Home page' });
    expect(within(footer()).queryByRole('button', { name: 'Install app' })).toBeNull();
  });

  it('speaks Spanish and Hindi', async () => {
    await i18n.changeLanguage('es');
    renderLayout();
    expect(
      await within(footer()).findByRole('button', { name: 'Instalar la aplicación' }),
    ).toBeInTheDocument();
    await i18n.changeLanguage('hi');
    expect(
      await within(footer()).findByRole('button', { name: 'ऐप इंस्टॉल करें' }),
    ).toBeInTheDocument();
  });
});
