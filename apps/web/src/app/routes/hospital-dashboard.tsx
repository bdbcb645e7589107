import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { BloodType } from '@bdms/shared';
import { Page } from '../../components/page';
import {
  RegistrationStatus,
  useHospitalHold,
} from '../../features/hospitals/components/registration-status';
import { useFeatureFlag } from '../../config/use-config';
import { cn } from '../../lib/cn';
import { StockFinder } from '../../features/facilities';
import { useFacility } from '../../features/facilities/api/facilities-api';
import { groupsRunOut, useMyStock } from '../../features/hospitals/api/stock-api';
import { HospitalDashboard } from '../../features/hospitals/components/hospital-dashboard';

/**
 * "The hospital dashboard shows nearby stock when its own runs out" (issue #17): when the
 * centre's own packed red cells of a group are gone (no fresh units), who holds that group near
 * it, found at once from its PIN code; otherwise the finder waits folded away.
 */
function NearbyStock() {
  const { t } = useTranslation(['hospital', 'facilities']);
  const headingId = useId();
  const mine = useMyStock();
  const facility = useFacility(mine.data?.facility.id ?? '', mine.data !== undefined);
  const runOut = mine.data ? groupsRunOut(mine.data.stock, 'prbc', Date.now()) : [];
  const [chosen, setChosen] = useState<BloodType | null>(null);
  const group = chosen && runOut.includes(chosen) ? chosen : runOut[0];
  const place = facility.data?.facility;
  const where = place?.pincode ?? place?.city ?? undefined;

  if (!group) {
    return (
      <details className="rounded-lg border border-slate-300 p-4">
        <summary className="inline-flex min-h-11 cursor-pointer items-center font-semibold text-slate-900">
          {t('hospital:stock.otherCentres')}
        </summary>
        <div className="mt-3">
          <StockFinder headingLevel={3} />
        </div>
      </details>
    );
  }
  return (
    <section
      aria-labelledby={headingId}
      className="flex flex-col gap-3 rounded-lg border-2 border-primary-700 bg-primary-50 p-4"
    >
      <h2 id={headingId} className="text-xl font-semibold text-primary-900">
        {t('hospital:stock.outTitle', { bloodType: group })}
      </h2>
      {runOut.length > 1 && (
        <div className="flex flex-col gap-2">
          <p className="text-slate-800">
            {t('hospital:stock.outGroups', { groups: runOut.join(', ') })}
          </p>
          <div
            role="group"
            aria-label={t('hospital:stock.outChoose')}
            className="flex flex-wrap gap-2"
          >
            {runOut.map((type) => (
              <button
                key={type}
                type="button"
                aria-pressed={type === group}
                onClick={() => setChosen(type)}
                className={cn(
                  'min-h-11 min-w-11 rounded-md px-3 font-semibold ring-1',
                  type === group
                    ? 'bg-primary-700 text-white ring-primary-700'
                    : 'bg-white text-primary-800 ring-primary-300',
                )}
              >
                {type}
              </button>
            ))}
          </div>
        </div>
      )}
      <div className="bg-white">
        {/* Keyed: a new group or the centre's PIN code arriving starts a new search. */}
        <StockFinder
          key={`${group}|${where ?? ''}`}
          initial={{ bloodType: group, where }}
          headingLevel={3}
        />
      </div>
    </section>
  );
}

/** /hospital/dashboard (hospital accounts): the hospital's blood requests and donations. */
export default function HospitalDashboardPage() {
  const { t } = useTranslation(['pages', 'hospital']);
  const showStock = useFeatureFlag('inventoryManagement');
  // Issue #17: a registration not (or no longer) verified waits instead of the work screens.
  const hold = useHospitalHold();
  if (hold) {
    return (
      <Page
        title={t('pages:hospitalDashboard.title')}
        description={t('pages:hospitalDashboard.description')}
      >
        <RegistrationStatus {...hold} />
      </Page>
    );
  }
  return (
    <Page
      title={t('pages:hospitalDashboard.title')}
      description={t('pages:hospitalDashboard.description')}
      lead={t('pages:hospitalDashboard.intro')}
    >
      {showStock && (
        <div className="mt-4 flex max-w-4xl flex-col gap-4">
          <Link
            to="/hospital/stock"
            className="inline-flex min-h-11 items-center font-semibold text-primary-700 underline"
          >
            {t('hospital:stock.dashboardLink')}
          </Link>
          <NearbyStock />
        </div>
      )}
      <HospitalDashboard />
    </Page>
  );
}
