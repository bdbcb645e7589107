import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DAY, PWA, STORAGE_KEYS } from '@bdms/shared';
import { createInstallController, type BeforeInstallPromptEvent } from './install-controller';
import { EARLY_INSTALL_PROMPT } from './early-install-prompt';
import type { KeyValueStore } from './install-rules';

function memoryStore(): KeyValueStore & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return {
    data,
    getItem: (key) => data.get(key) ?? null,
    setItem: (key, value) => void data.set(key, value),
  };
}

function installEvent(outcome: 'accepted' | 'dismissed' = 'accepted', fails = false) {
  const event = new Event('beforeinstallprompt', { cancelable: true }) as BeforeInstallPromptEvent;
  const prompt = vi.fn(() =>
    fails ? Promise.reject(new Error('NotAllowedError')) : Promise.resolve(),
  );
  Object.assign(event, { prompt, userChoice: Promise.resolve({ outcome, platform: 'web' }) });
  return { event, prompt };
}

function setup(options: { standalone?: boolean; local?: ReturnType<typeof memoryStore> } = {}) {
  const local = options.local ?? memoryStore();
  const session = memoryStore();
  const controller = createInstallController({
    window,
    stores: { local, session },
    isStandalone: () => options.standalone ?? false,
  });
  controller.start();
  return { controller, local, session };
}

const click = () => window.dispatchEvent(new Event('click'));

describe('the install prompt', () => {
  beforeEach(() => vi.useFakeTimers({ now: Date.parse('2026-05-01T10:00:00Z') }));
  afterEach(() => vi.useRealTimers());

  it('keeps the browser offer and shows the banner 3 s later', () => {
    const { controller } = setup();
    const { event } = installEvent();
    window.dispatchEvent(event);
    expect(event.defaultPrevented).toBe(true);
    expect(controller.getState()).toMatchObject({ canInstall: true, showBanner: false });
    vi.advanceTimersByTime(PWA.installBannerDelayMs - 1);
    expect(controller.getState().showBanner).toBe(false);
    vi.advanceTimersByTime(1);
    expect(controller.getState().showBanner).toBe(true);
    controller.dispose();
  });

  it('picks up an offer that arrived before it loaded', () => {
    const { event } = installEvent();
    (window as unknown as Record<string, unknown>)[EARLY_INSTALL_PROMPT] = event;
    const { controller } = setup();
    expect(controller.getState().canInstall).toBe(true);
    expect((window as unknown as Record<string, unknown>)[EARLY_INSTALL_PROMPT]).toBeUndefined();
    controller.dispose();
  });

  it('shows the card after engagement, instead of the banner, and records it', () => {
    const { controller, local } = setup();
    window.dispatchEvent(installEvent().event);
    click();
    click();
    click();
    vi.advanceTimersByTime(PWA.engagementDelayMs);
    expect(controller.getState()).toMatchObject({ showPrompt: true, showBanner: false });
    expect(JSON.parse(local.data.get(STORAGE_KEYS.pwaInstallInfo)!)).toMatchObject({
      lastPromptAt: Date.now(),
      promptCount: 1,
    });
    // The banner does not come back while (or after) the card was shown in this page.
    vi.advanceTimersByTime(PWA.installBannerDelayMs);
    expect(controller.getState().showBanner).toBe(false);
    controller.dispose();
  });

  it('does not show the card again within 24 hours', () => {
    const local = memoryStore();
    local.setItem(
      STORAGE_KEYS.pwaInstallInfo,
      JSON.stringify({ lastPromptAt: Date.now() - DAY + 60_000 }),
    );
    const { controller } = setup({ local });
    window.dispatchEvent(installEvent().event);
    click();
    vi.advanceTimersByTime(PWA.engagementFallbackMs);
    expect(controller.getState().showPrompt).toBe(false);
    expect(controller.getState().showBanner).toBe(true);
    controller.dispose();
  });

  it('"Not now" on the card suppresses every offer for 7 days', () => {
    const { controller, local, session } = setup();
    window.dispatchEvent(installEvent().event);
    click();
    vi.advanceTimersByTime(PWA.engagementFallbackMs);
    controller.closePrompt();
    expect(controller.getState().showPrompt).toBe(false);
    expect(local.data.get(STORAGE_KEYS.pwaInstallDismissed)).toBe(String(Date.now()));
    expect(session.data.get(STORAGE_KEYS.pwaPromptDismissedSession)).toBe('true');
    controller.dispose();

    // The next visit, a day later: nothing is offered.
    vi.advanceTimersByTime(DAY);
    const next = setup({ local });
    window.dispatchEvent(installEvent().event);
    click();
    vi.advanceTimersByTime(PWA.engagementFallbackMs);
    expect(next.controller.getState()).toMatchObject({ showBanner: false, showPrompt: false });
    next.controller.dispose();
  });

  it('runs the browser dialog once and remembers an accepted install', async () => {
    const { controller, local } = setup();
    const { event, prompt } = installEvent('accepted');
    window.dispatchEvent(event);
    vi.advanceTimersByTime(PWA.installBannerDelayMs);
    await controller.install('banner');
    expect(prompt).toHaveBeenCalledTimes(1);
    expect(controller.getState()).toMatchObject({ canInstall: false, showBanner: false });
    expect(JSON.parse(local.data.get(STORAGE_KEYS.pwaInstallInfo)!)).toMatchObject({
      installedAt: Date.now(),
      lastOutcome: 'accepted',
    });
    // The offer is used up: another try explains why nothing happens.
    await controller.install('banner');
    expect(controller.getState().alert).toBe('unavailable');
    controller.dispose();
  });

  it('treats a cancelled browser dialog as "Not now"', async () => {
    const { controller, local, session } = setup();
    window.dispatchEvent(installEvent('dismissed').event);
    vi.advanceTimersByTime(PWA.installBannerDelayMs);
    await controller.install('banner');
    expect(local.data.get(STORAGE_KEYS.pwaInstallDismissed)).toBe(String(Date.now()));
    expect(session.data.get(STORAGE_KEYS.pwaInstallDismissedSession)).toBe('true');
    controller.dispose();
  });

  it('raises "no prompt available" without an offer, and "Installation failed" when the dialog fails', async () => {
    const { controller } = setup();
    await controller.install('button');
    expect(controller.getState().alert).toBe('unavailable');
    controller.dismissAlert();
    expect(controller.getState().alert).toBeNull();

    window.dispatchEvent(installEvent('accepted', true).event);
    await controller.install('prompt');
    expect(controller.getState()).toMatchObject({ alert: 'failed', isInstalling: false });
    controller.dispose();
  });

  it('offers nothing in the installed app, and stops after "appinstalled"', () => {
    const standalone = setup({ standalone: true });
    window.dispatchEvent(installEvent().event);
    vi.advanceTimersByTime(PWA.installBannerDelayMs);
    expect(standalone.controller.getState().showBanner).toBe(false);
    standalone.controller.dispose();

    const { controller, local } = setup();
    window.dispatchEvent(installEvent().event);
    const installedAt = Date.now();
    window.dispatchEvent(new Event('appinstalled'));
    vi.advanceTimersByTime(PWA.installBannerDelayMs);
    expect(controller.getState()).toMatchObject({ canInstall: false, showBanner: false });
    expect(JSON.parse(local.data.get(STORAGE_KEYS.pwaInstallInfo)!).installedAt).toBe(installedAt);
    controller.dispose();
  });
});
