import { useEffect, useId, useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../components/alert';
import { EmergencyNumbersText } from '../../components/emergency-numbers';
import { Button } from '../../components/button';
import { Field, Input } from '../../components/field';
import { Page } from '../../components/page';
import { useHydrated } from '../../lib/use-hydrated';
import { RequestForm } from '../../features/blood-requests/components/request-form';
import { MyRequestsList } from '../../features/blood-requests/components/my-requests-list';
import { RequestSent } from '../../features/blood-requests/components/request-sent';
import { TrackingView } from '../../features/blood-requests/components/tracking-view';
import {
  trackBloodRequest,
  trackingQueryKey,
} from '../../features/blood-requests/api/requests-api';
import { StockFinder } from '../../features/facilities';
import { useFeatureFlag } from '../../config/use-config';
import { rememberRequest } from '../../features/blood-requests/lib/my-requests';

const TRACK_PARAM = 'track';
/** Set by the server after the form was sent without the app (POST /emergency). */
const SENT_PARAM = 'sent';
const DUPLICATE_PARAM = 'duplicate';

interface EmergencyState {
  duplicate?: boolean;
  /** Just sent from this page: show the confirmation. */
  sent?: boolean;
}
const CODE_PATTERN = /^[0-9A-Z]{4,16}$/;

/**
 * /emergency: anyone (no account) asks for blood; `?track=CODE` follows a request's progress.
 * Built for a phone on a bad network: one column, big targets, translated messages.
 */
export default function EmergencyPage() {
  const { t } = useTranslation(['pages', 'requests']);
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const state = useLocation().state as EmergencyState | null;
  const code = searchParams.get(TRACK_PARAM)?.trim().toUpperCase() ?? '';
  const showStock = useFeatureFlag('inventoryManagement');
  const sentWithoutApp = searchParams.get(SENT_PARAM) === '1';
  const isDuplicate =
    state?.duplicate === true || (sentWithoutApp && searchParams.get(DUPLICATE_PARAM) === '1');
  const isJustSent = state?.sent === true || sentWithoutApp;

  // Sent before the app arrived: keep it on this device, and drop the marks from the address
  // (a reload, a shared link, must not say "sent" again).
  useEffect(() => {
    if (!sentWithoutApp || !code) return;
    rememberRequest({ code });
    void navigate(`/emergency?${TRACK_PARAM}=${encodeURIComponent(code)}`, {
      replace: true,
      state: { sent: true, duplicate: isDuplicate } satisfies EmergencyState,
    });
  }, [sentWithoutApp, code, isDuplicate, navigate]);

  if (code) {
    return (
      <Page title={t('requests:tracking.title')} description={t('pages:emergency.description')}>
        <div className="mt-6 flex max-w-xl flex-col gap-6">
          {isDuplicate && (
            <Alert variant="info" dismissible={false} message={t('requests:tracking.duplicate')} />
          )}
          {isJustSent && <RequestSent code={code} />}
          <TrackingView
            code={code}
            onNotFound={
              <TrackBox
                key={code}
                initialCode={code}
                onTrack={(value) => void navigate(`/emergency?${TRACK_PARAM}=${value}`)}
              />
            }
          />
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
        <MyRequestsList />
        {showStock && <StockFinder />}
        <RequestForm
          action="/emergency"
          onCreated={(request, duplicate) => {
            rememberRequest({
              code: request.trackingCode,
              bloodType: request.bloodType,
              hospitalName: request.hospitalName,
            });
            void navigate(`/emergency?${TRACK_PARAM}=${encodeURIComponent(request.trackingCode)}`, {
              state: { duplicate, sent: true } satisfies EmergencyState,
            });
          }}
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

/**
 * "Track a request": a plain GET form (`/emergency?track=CODE`), so that it works before the
 * app's script has arrived too; once it has, the code is checked here first.
 */
function TrackBox({
  onTrack,
  initialCode = '',
}: {
  onTrack: (code: string) => void;
  initialCode?: string;
}) {
  const { t } = useTranslation('requests');
  const headingId = useId();
  const isHydrated = useHydrated();
  const [error, setError] = useState<string | undefined>();
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const typed = new FormData(event.currentTarget).get(TRACK_PARAM);
    const code = String(typed ?? '')
      .replace(/\s+/g, '')
      .toUpperCase();
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
        {initialCode ? t('tracking.tryAgainTitle') : t('tracking.boxTitle')}
      </h2>
      <form
        method="get"
        action="/emergency"
        noValidate={isHydrated}
        onSubmit={submit}
        className="mt-3 flex flex-col gap-3"
      >
        <Field label={t('tracking.codeLabel')} error={error} isRequired>
          <Input
            name={TRACK_PARAM}
            autoComplete="off"
            autoCapitalize="characters"
            required
            defaultValue={initialCode}
          />
        </Field>
        <Button type="submit" variant="secondary">
          {t('tracking.track')}
        </Button>
      </form>
    </section>
  );
}
