import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PWA, PWA_STORAGE_KEYS } from '@bdms/shared';
import { SW_MESSAGE } from '../../sw/sw-rules';
import { createUpdateController, UPDATE_RELOAD_FALLBACK_MS } from './update-controller';

class FakeWorker extends EventTarget {
  state: ServiceWorkerState;
  readonly postMessage = vi.fn((message: { type?: string }, ports?: MessagePort[]) => {
    if (message.type === SW_MESSAGE.getVersion) ports?.[0]?.postMessage({ version: this.version });
  });
  constructor(
    state: ServiceWorkerState = 'activated',
    readonly version = 'v1',
  ) {
    super();
    this.state = state;
  }
  moveTo(state: ServiceWorkerState) {
    this.state = state;
    this.dispatchEvent(new Event('statechange'));
  }
}

class FakeRegistration extends EventTarget {
  waiting: FakeWorker | null = null;
  installing: FakeWorker | null = null;
  readonly update = vi.fn(() => Promise.resolve());
}

class FakeContainer extends EventTarget {
  controller: FakeWorker | null = new FakeWorker();
  readonly registration = new FakeRegistration();
  getRegistration = () => Promise.resolve(this.registration);
  /** The worker tells every page that a version activated. */
  announce(version: string) {
    this.dispatchEvent(
      Object.assign(new Event('message'), { data: { type: SW_MESSAGE.activated, version } }),
    );
  }
}

function memorySession() {
  const data = new Map<string, string>();
  return {
    data,
    getItem: (key: string) => data.get(key) ?? null,
    setItem: (key: string, value: string) => void data.set(key, value),
    removeItem: (key: string) => void data.delete(key),
  };
}

async function setup(prepare: (container: FakeContainer) => void = () => {}) {
  const container = new FakeContainer();
  prepare(container);
  const session = memorySession();
  const reload = vi.fn();
  const controller = createUpdateController({
    container: container as unknown as ServiceWorkerContainer,
    session,
    reload,
  });
  await controller.start();
  await vi.advanceTimersByTimeAsync(0);
  return { container, controller, session, reload };
}

describe('the update flow', () => {
  beforeEach(() =>
    vi.useFakeTimers({
      toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'],
    }),
  );
  afterEach(() => vi.useRealTimers());

  it('shows "Update Available" 5 s after finding a version waiting to take over', async () => {
    const { controller } = await setup((container) => {
      container.registration.waiting = new FakeWorker('installed', 'v2');
    });
    expect(controller.getState()).toEqual({ status: 'idle', isVisible: false });
    await vi.advanceTimersByTimeAsync(PWA.updateNotifyDelayMs - 1);
    expect(controller.getState().isVisible).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(controller.getState()).toEqual({ status: 'available', isVisible: true });
    controller.dispose();
  });

  it('notices a new version installed while the page is open', async () => {
    const { container, controller } = await setup();
    const next = new FakeWorker('installing', 'v2');
    container.registration.installing = next;
    container.registration.dispatchEvent(new Event('updatefound'));
    next.moveTo('installed');
    await vi.advanceTimersByTimeAsync(PWA.updateNotifyDelayMs);
    expect(controller.getState().status).toBe('available');
    controller.dispose();
  });

  it('says nothing when the first version installs (no worker controlled the page)', async () => {
    const { container, controller } = await setup((prepared) => {
      prepared.controller = null;
    });
    const first = new FakeWorker('installing', 'v1');
    container.registration.installing = first;
    container.registration.dispatchEvent(new Event('updatefound'));
    first.moveTo('installed');
    container.announce('v1');
    await vi.advanceTimersByTimeAsync(PWA.updateNotifyDelayMs * 2);
    expect(controller.getState().status).toBe('idle');
    controller.dispose();
  });

  it('"Later" hides the card, which comes back after 1 hour', async () => {
    const { controller } = await setup((container) => {
      container.registration.waiting = new FakeWorker('installed', 'v2');
    });
    await vi.advanceTimersByTimeAsync(PWA.updateNotifyDelayMs);
    controller.later();
    expect(controller.getState()).toEqual({ status: 'available', isVisible: false });
    await vi.advanceTimersByTimeAsync(PWA.updateLaterMs - 1);
    expect(controller.getState().isVisible).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(controller.getState()).toEqual({ status: 'available', isVisible: true });
    controller.dispose();
  });

  it('"Update Now" tells the waiting worker to take over and reloads when it does', async () => {
    const waiting = new FakeWorker('installed', 'v2');
    const { container, controller, reload, session } = await setup((prepared) => {
      prepared.registration.waiting = waiting;
    });
    await vi.advanceTimersByTimeAsync(PWA.updateNotifyDelayMs);
    controller.updateNow();
    expect(controller.getState()).toEqual({ status: 'updating', isVisible: true });
    expect(waiting.postMessage).toHaveBeenCalledWith({ type: SW_MESSAGE.skipWaiting });
    expect(session.data.has(PWA_STORAGE_KEYS.pwaUpdateApplied)).toBe(true);
    expect(reload).not.toHaveBeenCalled();
    container.dispatchEvent(new Event('controllerchange'));
    container.dispatchEvent(new Event('controllerchange'));
    expect(reload).toHaveBeenCalledTimes(1);
    // The fallback reload does not come on top.
    await vi.advanceTimersByTimeAsync(UPDATE_RELOAD_FALLBACK_MS);
    expect(reload).toHaveBeenCalledTimes(1);
    controller.dispose();
  });

  it('reloads anyway if the new worker never takes over', async () => {
    const { controller, reload } = await setup((container) => {
      container.registration.waiting = new FakeWorker('installed', 'v2');
    });
    await vi.advanceTimersByTimeAsync(PWA.updateNotifyDelayMs);
    controller.updateNow();
    await vi.advanceTimersByTimeAsync(UPDATE_RELOAD_FALLBACK_MS);
    expect(reload).toHaveBeenCalledTimes(1);
    controller.dispose();
  });

  it('does not reload for a worker change it did not ask for', async () => {
    const { container, controller, reload } = await setup();
    container.dispatchEvent(new Event('controllerchange'));
    expect(reload).not.toHaveBeenCalled();
    controller.dispose();
  });

  it('after the reload, says the update succeeded and closes after 2 s', async () => {
    const container = new FakeContainer();
    const session = memorySession();
    session.setItem(PWA_STORAGE_KEYS.pwaUpdateApplied, '1');
    const controller = createUpdateController({
      container: container as unknown as ServiceWorkerContainer,
      session,
      reload: vi.fn(),
    });
    await controller.start();
    expect(controller.getState()).toEqual({ status: 'success', isVisible: true });
    expect(session.data.has(PWA_STORAGE_KEYS.pwaUpdateApplied)).toBe(false);
    await vi.advanceTimersByTimeAsync(PWA.updateSuccessCloseMs - 1);
    expect(controller.getState().status).toBe('success');
    await vi.advanceTimersByTimeAsync(1);
    expect(controller.getState()).toEqual({ status: 'idle', isVisible: false });
    controller.dispose();
  });

  it('a version activated by another tab: the card, and "Update Now" just reloads', async () => {
    const { container, controller, reload } = await setup();
    container.announce('v1');
    await vi.advanceTimersByTimeAsync(PWA.updateNotifyDelayMs);
    expect(controller.getState().status).toBe('idle');
    container.announce('v2');
    await vi.advanceTimersByTimeAsync(PWA.updateNotifyDelayMs);
    expect(controller.getState().status).toBe('available');
    controller.updateNow();
    expect(reload).toHaveBeenCalledTimes(1);
    controller.dispose();
  });

  it('asks for a new worker every hour', async () => {
    const { container, controller } = await setup();
    expect(container.registration.update).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(PWA.updateCheckMs);
    expect(container.registration.update).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(PWA.updateCheckMs);
    expect(container.registration.update).toHaveBeenCalledTimes(2);
    controller.dispose();
    await vi.advanceTimersByTimeAsync(PWA.updateCheckMs);
    expect(container.registration.update).toHaveBeenCalledTimes(2);
  });
});
