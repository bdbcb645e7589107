import { useId, useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../components/alert';
import { EmergencyNumbersText } from '../../components/emergency-numbers';
import { Button } from '../../components/button';
import { Field, Input } from '../../components/field';
import { Page } from '../../components/page';
import { RequestForm } from '../../features/blood-requests/components/request-form';
import { TrackingView } from '../../features/blood-requests/components/tracking-view';
import {
  trackBloodRequest,
  trackingQueryKey,
} from '../../features/blood-requests/api/requests-api';
import { StockFinder } from '../../features/facilities';
import { useFeatureFlag } from '../../config/use-config';

const TRACK_PARAM = 'track';
const CODE_PATTERN = /^[0-9A-Z]{4,16}$/;

/**
 * /emergency: anyone (no account) asks for blood; `?track=CODE` follows a request's progress.
 * Built for a phone on a bad network: one column, big targets, translated messages.
 */
export default function EmergencyPage() {
  const { t } = useTranslation(['pages', 'requests']);
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const isDuplicate = (useLocation().state as { duplicate?: boolean } | null)?.duplicate === true;
  const code = searchParams.get(TRACK_PARAM)?.trim().toUpperCase() ?? '';
  const showStock = useFeatureFlag('inventoryManagement');

  if (code) {
    return (
      <Page title={t('requests:tracking.title')} description={t('pages:emergency.description')}>
        <div className="mt-6 flex max-w-xl flex-col gap-6">
          {isDuplicate && (
            <Alert variant="info" dismissible={false} message={t('requests:tracking.duplicate')} />
          )}
          <TrackingView code={code} />
          {showStock && <TrackedStock code={code} />}
          <Link
            to="/emergency"
            className="inline-flex min-h-11 items-center font-semibold text-primary-700 underline"
          >
            {t('requests:tracking.newRequest')}
          </Link>
        </div>
      </Page>
    );
  }

  return (
    <Page
      title={t('pages:emergency.title')}
      description={t('pages:emergency.description')}
      lead={t('requests:intro.lead')}
    >
      <div className="mt-6 flex max-w-xl flex-col gap-8">
        <Alert
          variant="warning"
          dismissible={false}
          title={t('requests:intro.callFirstTitle')}
          message={<EmergencyNumbersText text={t('requests:intro.callFirst')} />}
        />
        <ol className="flex list-decimal flex-col gap-1 pl-6 text-slate-800">
          <li>{t('requests:intro.step1')}</li>
          <li>{t('requests:intro.step2')}</li>
          <li>{t('requests:intro.step3')}</li>
        </ol>
        {showStock && <StockFinder />}
        <RequestForm
          onCreated={(request, duplicate) =>
            void navigate(`/emergency?${TRACK_PARAM}=${encodeURIComponent(request.trackingCode)}`, {
              state: { duplicate },
            })
          }
        />
        <TrackBox onTrack={(value) => void navigate(`/emergency?${TRACK_PARAM}=${value}`)} />
      </div>
    </Page>
  );
}

/** After a request is sent: the centres holding its group near its place, so the family can call. */
function TrackedStock({ code }: { code: string }) {
  const query = useQuery({
    queryKey: trackingQueryKey(code),
    queryFn: ({ signal }) => trackBloodRequest(code, signal),
  });
  if (!query.data) return null;
  return (
    <StockFinder key={code} initial={{ bloodType: query.data.bloodType, where: query.data.city }} />
  );
}

function TrackBox({ onTrack }: { onTrack: (code: string) => void }) {
  const { t } = useTranslation('requests');
  const headingId = useId();
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | undefined>();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const code = value.replace(/\s+/g, '').toUpperCase();
    if (!CODE_PATTERN.test(code)) {
      setError(t('validation.trackingCode'));
      return;
    }
    setError(undefined);
    onTrack(code);
  };
  return (
    <section aria-labelledby={headingId} className="rounded-lg border border-slate-300 p-5">
      <h2 id={headingId} className="text-xl font-semibold text-slate-900">
        {t('tracking.boxTitle')}
      </h2>
      <form noValidate onSubmit={submit} className="mt-3 flex flex-col gap-3">
        <Field label={t('tracking.codeLabel')} error={error} isRequired>
          <Input
            autoComplete="off"
            autoCapitalize="characters"
            value={value}
            onChange={(event) => setValue(event.target.value)}
          />
        </Field>
        <Button type="submit" variant="secondary">
          {t('tracking.track')}
        </Button>
      </form>
    </section>
  );
}
