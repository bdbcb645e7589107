import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DAY, PWA, STORAGE_KEYS } from '@bdms/shared';
import {
  canShowBanner,
  canShowPrompt,
  createEngagementTracker,
  dismissBanner,
  dismissPrompt,
  readInstallInfo,
  recordPromptShown,
  writeInstallInfo,
  type InstallStores,
  type KeyValueStore,
} from './install-rules';

function memoryStore(): KeyValueStore & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return {
    data,
    getItem: (key) => data.get(key) ?? null,
    setItem: (key, value) => void data.set(key, value),
  };
}

function stores(): InstallStores & {
  local: ReturnType<typeof memoryStore>;
  session: ReturnType<typeof memoryStore>;
} {
  return { local: memoryStore(), session: memoryStore() };
}

const NOW = Date.parse('2026-05-01T10:00:00Z');

describe('engagement (3 interactions then 2 s, or 30 s after the first)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  function tracker() {
    const onEngaged = vi.fn();
    const engagement = createEngagementTracker({
      timers: {
        setTimeout: (callback, ms) => setTimeout(callback, ms),
        clearTimeout: (id) => clearTimeout(id as ReturnType<typeof setTimeout>),
      },
      now: () => Date.now(),
      onEngaged,
    });
    return { engagement, onEngaged };
  }

  it('is engaged 2 s after the third interaction, not before', () => {
    const { engagement, onEngaged } = tracker();
    engagement.record('click');
    engagement.record('keydown');
    vi.advanceTimersByTime(5000);
    engagement.record('click');
    vi.advanceTimersByTime(PWA.engagementDelayMs - 1);
    expect(onEngaged).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(onEngaged).toHaveBeenCalledTimes(1);
    expect(engagement.isEngaged).toBe(true);
  });

  it('falls back to 30 s after a single interaction', () => {
    const { engagement, onEngaged } = tracker();
    engagement.record('click');
    vi.advanceTimersByTime(PWA.engagementFallbackMs - 1);
    expect(onEngaged).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(onEngaged).toHaveBeenCalledTimes(1);
  });

  it('never engages without any interaction', () => {
    const { onEngaged } = tracker();
    vi.advanceTimersByTime(10 * 60 * 1000);
    expect(onEngaged).not.toHaveBeenCalled();
  });

  it('counts a scroll gesture once per second, and engages only once', () => {
    const { engagement, onEngaged } = tracker();
    for (let index = 0; index < 20; index++) engagement.record('scroll');
    expect(engagement.interactions).toBe(1);
    vi.advanceTimersByTime(1000);
    engagement.record('scroll');
    engagement.record('keydown');
    expect(engagement.interactions).toBe(3);
    vi.advanceTimersByTime(PWA.engagementFallbackMs);
    expect(onEngaged).toHaveBeenCalledTimes(1);
  });

  it('stops its timers when disposed', () => {
    const { engagement, onEngaged } = tracker();
    engagement.record('click');
    engagement.dispose();
    vi.advanceTimersByTime(PWA.engagementFallbackMs);
    expect(onEngaged).not.toHaveBeenCalled();
  });
});

describe('when install offers may show', () => {
  it('offers the banner and the card on a fresh device', () => {
    const s = stores();
    expect(canShowBanner(s, NOW)).toBe(true);
    expect(canShowPrompt(s, NOW)).toBe(true);
  });

  it('after "Not now" on the card: nothing for 7 days, the card not again this session', () => {
    const s = stores();
    dismissPrompt(s, NOW);
    expect(s.local.data.get(STORAGE_KEYS.pwaInstallDismissed)).toBe(String(NOW));
    expect(s.session.data.get(STORAGE_KEYS.pwaPromptDismissedSession)).toBe('true');
    expect(canShowPrompt(s, NOW + 7 * DAY - 1)).toBe(false);
    expect(canShowBanner(s, NOW + 7 * DAY - 1)).toBe(false);
    // A new browser session 7 days later.
    const later = { local: s.local, session: memoryStore() };
    expect(canShowPrompt(later, NOW + 7 * DAY)).toBe(true);
    expect(canShowBanner(later, NOW + 7 * DAY)).toBe(true);
  });

  it('after "Not now" on the banner: the banner stays closed this session, offers wait 7 days', () => {
    const s = stores();
    dismissBanner(s, NOW);
    expect(s.session.data.get(STORAGE_KEYS.pwaInstallDismissedSession)).toBe('true');
    expect(canShowBanner({ local: memoryStore(), session: s.session }, NOW)).toBe(false);
    expect(canShowPrompt(s, NOW + DAY)).toBe(false);
  });

  it('shows the card at most once per 24 hours', () => {
    const s = stores();
    recordPromptShown(s.local, NOW);
    expect(readInstallInfo(s.local)).toEqual({ lastPromptAt: NOW, promptCount: 1 });
    expect(canShowPrompt(s, NOW + DAY - 1)).toBe(false);
    expect(canShowPrompt(s, NOW + DAY)).toBe(true);
    // The banner is not a prompt: the 24 hours do not apply to it.
    expect(canShowBanner(s, NOW + 1)).toBe(true);
  });

  it('never offers an installed app', () => {
    const s = stores();
    writeInstallInfo(s.local, { installedAt: NOW });
    expect(canShowBanner(s, NOW + 30 * DAY)).toBe(false);
    expect(canShowPrompt(s, NOW + 30 * DAY)).toBe(false);
  });

  it('reads damaged stored values as nothing stored', () => {
    const s = stores();
    s.local.data.set(STORAGE_KEYS.pwaInstallInfo, '{not json');
    s.local.data.set(STORAGE_KEYS.pwaInstallDismissed, 'yesterday');
    expect(readInstallInfo(s.local)).toEqual({});
    expect(canShowPrompt(s, NOW)).toBe(true);
  });

  it('keeps working when storage throws', () => {
    const broken: KeyValueStore = {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
    };
    const s = { local: broken, session: broken };
    expect(canShowBanner(s, NOW)).toBe(true);
    expect(() => dismissPrompt(s, NOW)).not.toThrow();
  });
});
