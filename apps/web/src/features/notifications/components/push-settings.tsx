import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/button';
import { ErrorCircleIcon } from '../../../components/icons';
import { LoadingState } from '../../../components/query-state';
import { useToast } from '../../../components/toast';
import { useConfig } from '../../../config/use-config';
import { useErrorMessage } from '../../../lib/use-error-message';
import {
  disablePush,
  enablePush,
  findServiceWorker,
  hasServiceWorkerApi,
  isPushError,
  notificationPermission,
} from '../push';

type Setup =
  | { state: 'checking' }
  | { state: 'unsupported' }
  | { state: 'noServiceWorker' }
  | {
      state: 'ready';
      registration: ServiceWorkerRegistration;
      subscription: PushSubscription | null;
    };

/**
 * "Enable push notifications" for this device. Offered only where a service worker is
 * registered (the production app); elsewhere it says why not. Failures read exactly
 * "Failed to enable notifications: {reason}" (product spec section 8).
 */
export function PushSettings() {
  const { t } = useTranslation('notifications');
  const { config } = useConfig();
  const toast = useToast();
  const errorMessage = useErrorMessage();
  const headingId = useId();
  const [setup, setSetup] = useState<Setup>({ state: 'checking' });
  const [error, setError] = useState<string | null>(null);
  const [isBusy, setIsBusy] = useState(false);

  useEffect(() => {
    let isCurrent = true;
    void (async () => {
      if (!hasServiceWorkerApi()) {
        if (isCurrent) setSetup({ state: 'unsupported' });
        return;
      }
      const registration = await findServiceWorker();
      if (!registration) {
        if (isCurrent) setSetup({ state: 'noServiceWorker' });
        return;
      }
      const subscription = await registration.pushManager?.getSubscription().catch(() => null);
      if (isCurrent) setSetup({ state: 'ready', registration, subscription: subscription ?? null });
    })();
    return () => {
      isCurrent = false;
    };
  }, []);

  const reasonOf = (failure: unknown): string =>
    isPushError(failure) ? t(`push.reasons.${failure.reason}`) : errorMessage(failure);

  const enable = async () => {
    if (setup.state !== 'ready') return;
    setError(null);
    setIsBusy(true);
    try {
      const subscription = await enablePush(setup.registration, config?.vapidPublicKey);
      setSetup({ ...setup, subscription });
      toast.success(t('push.enabled'));
    } catch (failure) {
      setError(t('push.failed', { reason: reasonOf(failure) }));
    } finally {
      setIsBusy(false);
    }
  };

  const disable = async () => {
    if (setup.state !== 'ready' || !setup.subscription) return;
    setError(null);
    setIsBusy(true);
    try {
      await disablePush(setup.subscription);
      setSetup({ ...setup, subscription: null });
      toast.success(t('push.turnedOff'));
    } catch (failure) {
      setError(t('push.failedDisable', { reason: reasonOf(failure) }));
    } finally {
      setIsBusy(false);
    }
  };

  const isBlocked = notificationPermission() === 'denied';

  return (
    <section
      aria-labelledby={headingId}
      className="flex flex-col gap-3 rounded-xl border border-slate-200 bg-slate-50 p-5"
    >
      <h2 id={headingId} className="text-xl font-semibold text-slate-900">
        {t('push.title')}
      </h2>
      <p className="text-slate-700">{t('push.intro')}</p>
      {setup.state === 'checking' && <LoadingState label={t('push.checking')} />}
      {setup.state === 'unsupported' && <p className="text-slate-800">{t('push.unsupported')}</p>}
      {setup.state === 'noServiceWorker' && (
        <p className="text-slate-800">{t('push.noServiceWorker')}</p>
      )}
      {setup.state === 'ready' &&
        (setup.subscription ? (
          <>
            <p className="font-semibold text-success-800">{t('push.enabled')}</p>
            <Button
              variant="secondary"
              isLoading={isBusy}
              className="self-start"
              onClick={() => void disable()}
            >
              {t('push.disable')}
            </Button>
          </>
        ) : (
          <>
            {isBlocked && <p className="text-slate-800">{t('push.blocked')}</p>}
            <Button isLoading={isBusy} className="self-start" onClick={() => void enable()}>
              {t('push.enable')}
            </Button>
          </>
        ))}
      {error && (
        <p role="alert" className="flex items-start gap-1.5 font-semibold text-primary-700">
          <ErrorCircleIcon className="mt-0.5 size-5 shrink-0" />
          <span>{error}</span>
        </p>
      )}
    </section>
  );
}
