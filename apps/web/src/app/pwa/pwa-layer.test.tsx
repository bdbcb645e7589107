import { describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { i18n } from '../../i18n';
import { renderWithApp } from '../../test/render';
import PwaLayer, { InstallBanner, InstallPrompt, UpdateCard, useInstallAlerts } from './pwa-layer';
import { INITIAL_INSTALL_STATE, type InstallState } from './install-controller';
import { AlertList } from '../../components/alert-list';

const noop = () => {};

describe('the "Update Available" card', () => {
  it('offers Later and Update Now while an update is available', async () => {
    const onLater = vi.fn();
    const onUpdateNow = vi.fn();
    render(
      <UpdateCard
        state={{ status: 'available', isVisible: true }}
        onLater={onLater}
        onUpdateNow={onUpdateNow}
        onClose={noop}
      />,
    );
    const card = screen.getByRole('region', { name: 'Update Available' });
    expect(card).toHaveTextContent('A new version of the app is ready.');
    await userEvent.click(within(card).getByRole('button', { name: 'Later' }));
    await userEvent.click(within(card).getByRole('button', { name: 'Update Now' }));
    expect(onLater).toHaveBeenCalledTimes(1);
    expect(onUpdateNow).toHaveBeenCalledTimes(1);
  });

  it('says it is updating, then that it succeeded with the version', () => {
    const { rerender } = render(
      <UpdateCard
        state={{ status: 'updating', isVisible: true }}
        onLater={noop}
        onUpdateNow={noop}
        onClose={noop}
      />,
    );
    expect(screen.getByRole('region', { name: 'Updating…' })).toHaveTextContent(
      'The page will reload in a moment.',
    );
    expect(screen.queryByRole('button', { name: 'Update Now' })).not.toBeInTheDocument();
    rerender(
      <UpdateCard
        state={{ status: 'success', isVisible: true }}
        onLater={noop}
        onUpdateNow={noop}
        onClose={noop}
        version="1.4.0"
      />,
    );
    expect(screen.getByRole('region', { name: 'App updated' })).toHaveTextContent(
      'You are using the latest version (1.4.0).',
    );
  });

  it('is not there when hidden ("Later") or idle', () => {
    const { container } = render(
      <UpdateCard
        state={{ status: 'available', isVisible: false }}
        onLater={noop}
        onUpdateNow={noop}
        onClose={noop}
      />,
    );
    expect(container).toBeEmptyDOMElement();
  });

  it('speaks Hindi', async () => {
    await i18n.changeLanguage('hi');
    render(
      <UpdateCard
        state={{ status: 'available', isVisible: true }}
        onLater={noop}
        onUpdateNow={noop}
        onClose={noop}
      />,
    );
    expect(screen.getByRole('region', { name: 'अपडेट उपलब्ध है' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'अभी अपडेट करें' })).toBeInTheDocument();
  });
});

describe('the install banner and card', () => {
  const shown: InstallState = {
    ...INITIAL_INSTALL_STATE,
    canInstall: true,
    showBanner: true,
    showPrompt: true,
  };

  it('the banner offers Install and Not now', async () => {
    const onInstall = vi.fn();
    const onClose = vi.fn();
    render(<InstallBanner state={shown} onInstall={onInstall} onClose={onClose} />);
    const banner = screen.getByRole('region', { name: 'Install the app' });
    await userEvent.click(within(banner).getByRole('button', { name: 'Install' }));
    await userEvent.click(within(banner).getByRole('button', { name: 'Not now' }));
    expect(onInstall).toHaveBeenCalledTimes(1);
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('the card says why to install, and can be closed', async () => {
    const onClose = vi.fn();
    render(<InstallPrompt state={shown} onInstall={noop} onClose={onClose} />);
    const card = screen.getByRole('region', { name: 'Install Blood Donation on this device' });
    expect(within(card).getAllByRole('listitem')).toHaveLength(3);
    await userEvent.click(within(card).getByRole('button', { name: 'Close' }));
    expect(onClose).toHaveBeenCalledTimes(1);
  });
});

describe('the install alerts', () => {
  function Alerts({ state, isMobile }: { state: InstallState; isMobile: boolean }) {
    return <AlertList alerts={useInstallAlerts(state, isMobile)} />;
  }

  it('explains why there is no prompt, with the mobile instructions', () => {
    render(<Alerts state={{ ...INITIAL_INSTALL_STATE, alert: 'unavailable' }} isMobile />);
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('Installation is not available');
    expect(alert).toHaveTextContent('already installed');
    expect(alert).toHaveTextContent('does not support installing apps');
    expect(alert).toHaveTextContent('requirements are not met');
    expect(alert).toHaveTextContent('tap Share (or the browser menu), then "Add to Home Screen"');
  });

  it('says the installation failed, with the desktop instructions', () => {
    render(<Alerts state={{ ...INITIAL_INSTALL_STATE, alert: 'failed' }} isMobile={false} />);
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent(
      "Installation failed. Please try installing manually from your browser's menu.",
    );
    expect(alert).toHaveTextContent('click the install icon in the address bar');
  });
});

describe('PwaLayer', () => {
  function offerInstall() {
    const event = new Event('beforeinstallprompt', { cancelable: true });
    Object.assign(event, {
      prompt: () => Promise.resolve(),
      userChoice: Promise.resolve({ outcome: 'dismissed', platform: 'web' }),
    });
    window.dispatchEvent(event);
  }

  it('shows the install banner 3 s after the browser offers installation', async () => {
    renderWithApp(<PwaLayer />);
    // Its texts arrive, then it listens.
    await new Promise((resolve) => setTimeout(resolve, 100));
    offerInstall();
    expect(screen.queryByRole('region', { name: 'Install the app' })).not.toBeInTheDocument();
    expect(
      await screen.findByRole('region', { name: 'Install the app' }, { timeout: 4000 }),
    ).toBeInTheDocument();
  });

  it('offers nothing while the pwaSupport flag is off', async () => {
    renderWithApp(<PwaLayer />, { flags: { pwaSupport: false } });
    await new Promise((resolve) => setTimeout(resolve, 100));
    offerInstall();
    await new Promise((resolve) => setTimeout(resolve, 3500));
    expect(screen.queryByRole('region', { name: 'Install the app' })).not.toBeInTheDocument();
  });
});
