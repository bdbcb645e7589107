import { Suspense, useEffect, useState } from 'react';
import { useLocation, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { FeatureBoundary } from '../../components/boundaries';
import { Page } from '../../components/page';
import { useConfig } from '../../config/use-config';
import { useAuthActions } from '../../features/auth';
import { useDisplayNames } from '../../features/auth/display-name';
import {
  openMatched,
  useMatchedRequests,
} from '../../features/blood-requests/api/matched-requests';
import { DonorDashboard } from '../../features/donors/components/dashboard/donor-dashboard';
import { donorStatusKind } from '../../features/donors/components/status-banner';
import { loadNamespaces } from '../../i18n';
import { lazyWithRetry } from '../../lib/lazy-with-retry';
import { DonorOnly } from './donor-only';

/** "Requests for you" (with its texts), downloaded only for approved donors with `bloodRequests`. */
const MatchedRequests = lazyWithRetry('matched-requests', async () => {
  const [module] = await Promise.all([
    import('../../features/blood-requests/components/matched-requests'),
    loadNamespaces(['requests']),
  ]);
  return module;
});

function Greeting({
  user,
}: {
  user: Parameters<typeof useDisplayNames>[0] & { bloodType?: string | null };
}) {
  const { t } = useTranslation('donors');
  const { donor } = useDisplayNames(user);
  return (
    <p className="mt-2 flex flex-wrap items-center gap-x-3 gap-y-1 text-xl text-slate-800">
      <span>{t('greeting', { name: donor })}</span>
      {user?.bloodType && (
        <span className="inline-flex items-center gap-1.5 rounded-full bg-primary-50 px-3 py-0.5 text-base font-semibold text-primary-800 ring-1 ring-primary-200">
          <span className="sr-only">{t('bloodType')}:</span>
          {user.bloodType}
        </span>
      )}
    </p>
  );
}

/**
 * "Requests for you": first on the dashboard when a request waits for the donor (or an alert
 * opened one, `?request=<id>`), else after the cards. The place is decided once the list is
 * known and then kept for the visit, so the section never jumps under the donor's finger.
 */
function useRequestsPlacement(enabled: boolean, alertedId: string | null) {
  const query = useMatchedRequests(enabled);
  const [placement, setPlacement] = useState<'first' | 'last' | null>(null);
  const known = query.isSuccess || query.isError;
  const wantsFirst = query.isSuccess && (Boolean(alertedId) || openMatched(query.data).length > 0);
  useEffect(() => {
    if (known && placement === null) setPlacement(wantsFirst ? 'first' : 'last');
  }, [known, placement, wantsFirst]);
  return enabled ? placement : null;
}

function DonorOverview({
  user,
  flags,
}: {
  user: Parameters<typeof DonorDashboard>[0]['donor'] & Parameters<typeof Greeting>[0]['user'];
  flags: ReturnType<typeof useConfig>['flags'];
}) {
  const [searchParams] = useSearchParams();
  const alertedId = searchParams.get('request');
  const placement = useRequestsPlacement(
    flags.bloodRequests && donorStatusKind(user) === 'approved',
    alertedId,
  );
  const requests = (
    <FeatureBoundary>
      <Suspense fallback={null}>
        <div className={placement === 'first' ? 'mt-6' : 'mt-8'}>
          <MatchedRequests alertedId={alertedId} />
        </div>
      </Suspense>
    </FeatureBoundary>
  );
  return (
    <>
      <Greeting user={user} />
      {placement === 'first' && requests}
      <DonorDashboard donor={user} flags={flags} />
      {placement === 'last' && requests}
    </>
  );
}

/** /dashboard and /donor/dashboard (the same screen, titled by its path): the donor's overview. */
export default function DashboardPage() {
  const { t } = useTranslation('pages');
  const page = useLocation().pathname.startsWith('/donor/') ? 'donorDashboard' : 'dashboard';
  const { flags } = useConfig();
  const { refreshUser } = useAuthActions();

  // The banner shows the status the server has now (the 5-minute cache decides whether to ask).
  useEffect(() => {
    void refreshUser();
  }, [refreshUser]);

  return (
    <Page title={t(`${page}.title`)} description={t(`${page}.description`)}>
      <DonorOnly>{(user) => <DonorOverview user={user} flags={flags} />}</DonorOnly>
    </Page>
  );
}
