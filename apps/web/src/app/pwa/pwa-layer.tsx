import { useEffect, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { AlertList, type AlertItem } from '../../components/alert-list';
import { Button } from '../../components/button';
import { CheckCircleIcon, CloseIcon, DropIcon, InfoIcon } from '../../components/icons';
import { Spinner } from '../../components/spinner';
import { useFeatureFlag } from '../../config/use-config';
import { env } from '../../config/env';
import {
  INITIAL_INSTALL_STATE,
  createInstallController,
  type InstallController,
  type InstallSource,
  type InstallState,
} from './install-controller';
import {
  INITIAL_UPDATE_STATE,
  createUpdateController,
  type UpdateController,
  type UpdateState,
} from './update-controller';

/**
 * The install and update surfaces (product spec section 2, "Global screens and overlays"): the
 * "Update Available" card, the install banner, the install card shown after engagement, and the
 * install alerts. Loaded after the first page is shown (app/layout/root-layout.tsx) and shown
 * only while the `pwaSupport` flag is on.
 */

const noopSubscribe = () => () => {};

function useStore<S>(
  store: { subscribe(listener: () => void): () => void; getState(): S } | null,
  initial: S,
): S {
  return useSyncExternalStore(
    store ? store.subscribe : noopSubscribe,
    store ? store.getState : () => initial,
    () => initial,
  );
}

function storageOrMemory(get: () => Storage): Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> {
  try {
    return get();
  } catch {
    const memory = new Map<string, string>();
    return {
      getItem: (key) => memory.get(key) ?? null,
      setItem: (key, value) => void memory.set(key, value),
      removeItem: (key) => void memory.delete(key),
    };
  }
}

/** The mounted layer's install controller, for installs the user asks for elsewhere. */
let activeInstall: InstallController | null = null;
/** An install asked for before the layer was mounted: run as soon as it is. */
let pendingInstall: InstallSource | null = null;

/**
 * Runs the install the user asked for (the footer's "Install app"): the browser's install
 * dialog, or the spec's alerts when there is no prompt or it fails. Before the layer is mounted
 * (it comes right after the first page), the request waits for it.
 */
export function requestInstall(source: InstallSource = 'button'): void {
  if (activeInstall) void activeInstall.install(source);
  else pendingInstall = source;
}

export function useInstallController(enabled: boolean): InstallController | null {
  const [controller, setController] = useState<InstallController | null>(null);
  useEffect(() => {
    if (!enabled) return;
    const created = createInstallController({
      window,
      stores: {
        local: storageOrMemory(() => window.localStorage),
        session: storageOrMemory(() => window.sessionStorage),
      },
    });
    created.start();
    setController(created);
    activeInstall = created;
    if (pendingInstall) {
      void created.install(pendingInstall);
      pendingInstall = null;
    }
    return () => {
      created.dispose();
      setController(null);
      if (activeInstall === created) activeInstall = null;
    };
  }, [enabled]);
  return controller;
}

export function useUpdateController(enabled: boolean): UpdateController | null {
  const [controller, setController] = useState<UpdateController | null>(null);
  useEffect(() => {
    if (!enabled) return;
    const created = createUpdateController({
      container: 'serviceWorker' in navigator ? navigator.serviceWorker : null,
      session: storageOrMemory(() => window.sessionStorage),
      reload: () => window.location.reload(),
    });
    void created.start();
    setController(created);
    return () => {
      created.dispose();
      setController(null);
    };
  }, [enabled]);
  return controller;
}

function isMobileDevice(): boolean {
  return (
    window.matchMedia?.('(pointer: coarse)').matches === true ||
    /Android|iPhone|iPad|iPod|Mobile/i.test(navigator.userAgent)
  );
}

export function UpdateCard({
  state,
  onLater,
  onUpdateNow,
  onClose,
  version = env.appVersion,
}: {
  state: UpdateState;
  onLater: () => void;
  onUpdateNow: () => void;
  onClose: () => void;
  version?: string;
}) {
  const { t } = useTranslation('pwa');
  if (!state.isVisible || state.status === 'idle') return null;
  const titleId = 'pwa-update-title';
  return (
    <section
      aria-labelledby={titleId}
      className="pointer-events-auto w-full animate-scale-in rounded-xl border border-slate-200 bg-white p-4 shadow-lg sm:w-96"
      data-testid="pwa-update-card"
      data-status={state.status}
    >
      <div role="status" aria-live="polite" className="flex items-start gap-3">
        <span className="mt-0.5 shrink-0 text-primary-700">
          {state.status === 'updating' ? (
            <Spinner size="md" />
          ) : state.status === 'success' ? (
            <CheckCircleIcon className="size-6 text-success-700" />
          ) : (
            <InfoIcon className="size-6 text-info-700" />
          )}
        </span>
        <div className="min-w-0 flex-1">
          <h2 id={titleId} className="text-base font-semibold text-slate-900">
            {state.status === 'available' && t('update.availableTitle')}
            {state.status === 'updating' && t('update.updatingTitle')}
            {state.status === 'success' && t('update.successTitle')}
          </h2>
          <p className="mt-1 text-sm text-slate-700">
            {state.status === 'available' && t('update.availableMessage')}
            {state.status === 'updating' && t('update.updatingMessage')}
            {state.status === 'success' && t('update.successMessage', { version })}
          </p>
        </div>
        {state.status === 'success' && (
          <button
            type="button"
            onClick={onClose}
            aria-label={t('update.close')}
            className="-m-2 inline-flex size-11 shrink-0 items-center justify-center rounded-lg text-slate-700 hover:bg-slate-100"
          >
            <CloseIcon />
          </button>
        )}
      </div>
      {state.status === 'available' && (
        <div className="mt-3 flex flex-wrap justify-end gap-2">
          <Button variant="secondary" onClick={onLater}>
            {t('update.later')}
          </Button>
          <Button onClick={onUpdateNow}>{t('update.updateNow')}</Button>
        </div>
      )}
    </section>
  );
}

export function InstallBanner({
  state,
  onInstall,
  onClose,
}: {
  state: InstallState;
  onInstall: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation('pwa');
  if (!state.showBanner) return null;
  return (
    <section
      aria-label={t('install.bannerLabel')}
      className="pointer-events-auto flex w-full animate-scale-in flex-wrap items-center gap-3 rounded-xl border border-primary-200 bg-primary-50 p-3 shadow-lg sm:flex-nowrap"
      data-testid="pwa-install-banner"
    >
      <img src="/icons/icon-192.png" alt="" width={40} height={40} className="size-10 rounded-lg" />
      <p className="min-w-0 flex-1 text-sm font-medium text-slate-900">
        {t('install.bannerMessage')}
      </p>
      <div className="flex w-full justify-end gap-2 sm:w-auto">
        <Button variant="ghost" onClick={onClose}>
          {t('install.notNow')}
        </Button>
        <Button onClick={onInstall} isLoading={state.isInstalling}>
          {t('install.install')}
        </Button>
      </div>
    </section>
  );
}

export function InstallPrompt({
  state,
  onInstall,
  onClose,
}: {
  state: InstallState;
  onInstall: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation('pwa');
  if (!state.showPrompt) return null;
  const titleId = 'pwa-install-title';
  return (
    <section
      aria-labelledby={titleId}
      className="pointer-events-auto w-full animate-scale-in rounded-xl border border-slate-200 bg-white p-5 shadow-lg sm:w-[26rem]"
      data-testid="pwa-install-prompt"
    >
      <div className="flex items-start gap-3">
        <span className="mt-0.5 shrink-0 text-primary-700">
          <DropIcon className="size-7" />
        </span>
        <h2 id={titleId} className="min-w-0 flex-1 text-lg font-semibold text-slate-900">
          {t('install.promptTitle')}
        </h2>
        <button
          type="button"
          onClick={onClose}
          aria-label={t('install.closePrompt')}
          className="-m-2 inline-flex size-11 shrink-0 items-center justify-center rounded-lg text-slate-700 hover:bg-slate-100"
        >
          <CloseIcon />
        </button>
      </div>
      <p className="mt-2 text-sm text-slate-700">{t('install.promptIntro')}</p>
      <ul className="mt-2 list-disc space-y-1 ps-5 text-sm text-slate-700">
        <li>{t('install.benefitHomeScreen')}</li>
        <li>{t('install.benefitOffline')}</li>
        <li>{t('install.benefitNotifications')}</li>
      </ul>
      <div className="mt-4 flex flex-wrap justify-end gap-2">
        <Button variant="secondary" onClick={onClose}>
          {t('install.notNow')}
        </Button>
        <Button onClick={onInstall} isLoading={state.isInstalling}>
          {state.isInstalling ? t('install.installing') : t('install.install')}
        </Button>
      </div>
    </section>
  );
}

export function useInstallAlerts(state: InstallState, isMobile: boolean): AlertItem[] {
  const { t } = useTranslation('pwa');
  if (!state.alert) return [];
  const instructions = isMobile ? t('alerts.instructionsMobile') : t('alerts.instructionsDesktop');
  const message =
    state.alert === 'failed' ? t('alerts.failedMessage') : t('alerts.unavailableMessage');
  return [
    {
      id: `install-${state.alert}`,
      variant: state.alert === 'failed' ? 'error' : 'warning',
      title: state.alert === 'failed' ? t('alerts.failedTitle') : t('alerts.unavailableTitle'),
      message: (
        <>
          {message}
          <span className="mt-2 block">{instructions}</span>
        </>
      ),
    },
  ];
}

export default function PwaLayer() {
  const { ready } = useTranslation('pwa');
  const enabled = useFeatureFlag('pwaSupport');
  const install = useInstallController(enabled);
  const update = useUpdateController(enabled);
  const installState = useStore(install, INITIAL_INSTALL_STATE);
  const updateState = useStore(update, INITIAL_UPDATE_STATE);
  const [isMobile] = useState(isMobileDevice);
  const alerts = useInstallAlerts(installState, isMobile);

  if (!enabled || !ready) return null;
  return (
    <>
      <AlertList alerts={alerts} onDismiss={() => install?.dismissAlert()} />
      <div className="pointer-events-none fixed inset-x-0 bottom-0 z-40 flex flex-col items-center gap-3 p-3 sm:items-end sm:p-4">
        <UpdateCard
          state={updateState}
          onLater={() => update?.later()}
          onUpdateNow={() => update?.updateNow()}
          onClose={() => update?.closeSuccess()}
        />
        <InstallPrompt
          state={installState}
          onInstall={() => void install?.install('prompt')}
          onClose={() => install?.closePrompt()}
        />
        <InstallBanner
          state={installState}
          onInstall={() => void install?.install('banner')}
          onClose={() => install?.closeBanner()}
        />
      </div>
    </>
  );
}
