import { useEffect, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { DonorDetails, User } from '@bdms/shared';
import { Button } from '../../../../components/button';
import { isApiError } from '../../../../lib/api-client';
import { useDonorDetails } from '../../api/admin-api';
import { useActivityLabel } from '../../lib/activity';
import { formatPhone, useFormat } from '../../lib/format';
import { EmptyState, ErrorState, Skeleton } from '../states';
import { BloodTypeMark, DonorStatusBadge } from '../status-badges';
import { DocumentsSection } from './documents-section';
import { DonorActions } from './donor-actions';
import { QuestionnaireSection } from './questionnaire-section';

function PanelSection({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="border-t border-slate-200 pt-4">
      <h3 className="mb-3 text-lg font-bold text-slate-900">{title}</h3>
      {children}
    </section>
  );
}

function ProfileDetails({ donor }: { donor: User }) {
  const { t } = useTranslation('admin');
  const format = useFormat();
  const phone = donor.phone ?? donor.phoneNumber;
  const yesNo = (value: boolean) => (value ? t('common.yes') : t('common.no'));
  const rows: { key: string; label: string; value: ReactNode }[] = [
    {
      key: 'email',
      label: t('profile.email'),
      value: (
        <a href={`mailto:${donor.email}`} className="break-all text-primary-700 underline">
          {donor.email}
        </a>
      ),
    },
    {
      key: 'phone',
      label: t('profile.phone'),
      value: phone ? (
        <a href={`tel:${phone}`} className="text-primary-700 underline">
          {formatPhone(phone)}
        </a>
      ) : (
        t('common.notGiven')
      ),
    },
    {
      key: 'dateOfBirth',
      label: t('profile.dateOfBirth'),
      value: donor.dateOfBirth ? format.calendarDate(donor.dateOfBirth) : t('common.notGiven'),
    },
    {
      key: 'gender',
      label: t('profile.gender'),
      value:
        donor.gender === 'male' || donor.gender === 'female' || donor.gender === 'other'
          ? t(`profile.genders.${donor.gender}`)
          : t('common.notGiven'),
    },
    {
      key: 'place',
      label: t('profile.place'),
      value:
        [donor.city, donor.state, donor.pincode].filter(Boolean).join(', ') || t('common.notGiven'),
    },
    { key: 'registered', label: t('profile.registered'), value: format.date(donor.createdAt) },
    { key: 'available', label: t('profile.available'), value: yesNo(donor.available) },
    {
      key: 'onboarding',
      label: t('profile.onboarding'),
      value: donor.onboardingCompleted
        ? t('profile.onboardingDone')
        : t('profile.onboardingNotDone'),
    },
    {
      key: 'lastDonation',
      label: t('profile.lastDonation'),
      value: donor.lastDonationAt ? format.date(donor.lastDonationAt) : t('profile.never'),
    },
    {
      key: 'totalDonations',
      label: t('profile.totalDonations'),
      value: format.number(donor.totalDonations),
    },
  ];
  return (
    <dl className="grid grid-cols-1 gap-x-4 gap-y-3 sm:grid-cols-2">
      {rows.map((row) => (
        <div key={row.key} className="min-w-0">
          <dt className="text-sm text-slate-700">{row.label}</dt>
          <dd className="font-medium text-slate-900">{row.value}</dd>
        </div>
      ))}
    </dl>
  );
}

function Donations({ donations }: { donations: DonorDetails['donations'] }) {
  const { t } = useTranslation('admin');
  const format = useFormat();
  if (donations.length === 0) {
    return <EmptyState title={t('donations.emptyTitle')} message={t('donations.emptyMessage')} />;
  }
  return (
    <ul className="divide-y divide-slate-200">
      {donations.map((donation) => (
        <li key={donation.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
          <span>
            <span className="font-medium text-slate-900">{format.date(donation.donatedAt)}</span>
            <span className="text-slate-700"> · {donation.place}</span>
            <span className="text-slate-700">
              {' · '}
              {t('donations.units', { count: donation.units })}
            </span>
          </span>
          <span className="text-sm font-semibold">
            {donation.verified ? (
              <span className="text-success-800">{t('donations.verified')}</span>
            ) : (
              <span className="text-slate-700">{t('donations.reported')}</span>
            )}
          </span>
        </li>
      ))}
    </ul>
  );
}

function Activity({ items }: { items: DonorDetails['activity'] }) {
  const { t } = useTranslation('admin');
  const format = useFormat();
  const label = useActivityLabel();
  if (items.length === 0) {
    return <p className="text-sm text-slate-700">{t('dashboard.activity.emptyMessage')}</p>;
  }
  return (
    <ol className="flex flex-col gap-2">
      {items.map((item) => (
        <li key={item.id} className="flex flex-wrap justify-between gap-x-3 text-sm">
          <span className="text-slate-900">{label(item.action, item.message)}</span>
          <time dateTime={item.at} className="text-slate-700">
            {format.dateTime(item.at)}
          </time>
        </li>
      ))}
    </ol>
  );
}

/**
 * One donor, in full, for the administrator: the profile with contact details, documents,
 * questionnaire, donations and activity, and the status actions. `GET /admin/donors/{id}/details`
 * (the server logs the access).
 */
export function DonorPanel({ donorId, onBack }: { donorId: string; onBack: () => void }) {
  const { t } = useTranslation('admin');
  const details = useDonorDetails(donorId);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const hasData = Boolean(details.data);

  // A newly opened donor: take keyboard and screen-reader users to it.
  useEffect(() => {
    if (hasData) headingRef.current?.focus({ preventScroll: false });
  }, [donorId, hasData]);

  const back = (
    <Button variant="ghost" onClick={onBack} className="lg:hidden">
      <span aria-hidden="true">←</span> {t('verification.panel.back')}
    </Button>
  );

  if (details.isPending) {
    return (
      <div className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
        {back}
        <Skeleton lines={10} />
      </div>
    );
  }
  if (details.isError) {
    const isGone = isApiError(details.error) && details.error.status === 404;
    return (
      <div className="flex flex-col gap-3 rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
        {back}
        {isGone ? (
          <EmptyState
            title={t('verification.panel.goneTitle')}
            message={t('verification.panel.goneMessage')}
          />
        ) : (
          <ErrorState error={details.error} onRetry={() => void details.refetch()} />
        )}
      </div>
    );
  }

  const { donor, documents, questionnaire, donations, activity } = details.data;
  const name = donor.fullName || donor.name || donor.email;
  const reason =
    donor.status === 'rejected'
      ? donor.rejectionReason
      : donor.status === 'suspended'
        ? donor.suspensionReason
        : null;

  return (
    <article
      aria-labelledby="donor-panel-heading"
      className="flex flex-col gap-4 rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-5"
    >
      {back}
      <header className="flex flex-col gap-3">
        <div className="flex items-start gap-3">
          <BloodTypeMark bloodType={donor.bloodType} className="mt-1 min-h-9 text-lg" />
          <div className="min-w-0">
            <h2
              id="donor-panel-heading"
              ref={headingRef}
              tabIndex={-1}
              className="text-2xl font-bold break-words text-slate-900"
            >
              {name}
            </h2>
            <p className="mt-1 flex flex-wrap items-center gap-2">
              <span className="sr-only">{t('verification.panel.status')}:</span>
              <DonorStatusBadge status={donor.status} />
              {details.isFetching && (
                <span className="text-sm text-slate-700">{t('verification.panel.refreshing')}</span>
              )}
            </p>
          </div>
        </div>
        {reason && (
          <p className="rounded-lg bg-slate-50 p-3 text-sm text-slate-800">
            <span className="font-semibold">
              {donor.status === 'rejected'
                ? t('verification.panel.rejectionReason')
                : t('verification.panel.suspensionReason')}
            </span>{' '}
            {reason}
          </p>
        )}
        <DonorActions donor={donor} documents={documents} fallbackFocusRef={headingRef} />
      </header>
      <PanelSection title={t('verification.panel.profile')}>
        <ProfileDetails donor={donor} />
      </PanelSection>
      <PanelSection title={t('verification.panel.documents')}>
        <DocumentsSection documents={documents} donorId={donor.id} />
      </PanelSection>
      <PanelSection title={t('verification.panel.questionnaire')}>
        <QuestionnaireSection questionnaire={questionnaire} donor={donor} />
      </PanelSection>
      <PanelSection title={t('verification.panel.donations')}>
        <Donations donations={donations} />
      </PanelSection>
      <PanelSection title={t('verification.panel.activity')}>
        <Activity items={activity} />
      </PanelSection>
    </article>
  );
}
