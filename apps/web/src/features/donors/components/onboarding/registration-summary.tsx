import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { isTimedCondition, type DonorDocument, type Questionnaire } from '@bdms/shared';
import { Badge, type BadgeVariant } from '../../../../components/badge';
import { useFormatDate } from '../../../../lib/dates';
import { ONBOARDING_DOCUMENTS } from '../../onboarding/document-file';

const STATE_BADGES: Record<DonorDocument['status'] | 'missing', BadgeVariant> = {
  missing: 'neutral',
  pending: 'info',
  verified: 'success',
  rejected: 'primary',
};

function SummaryBlock({
  title,
  action,
  children,
}: {
  title: string;
  action?: ReactNode;
  children: ReactNode;
}) {
  return (
    <section className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-5">
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <h3 className="text-lg font-semibold text-slate-900">{title}</h3>
        {action}
      </div>
      {children}
    </section>
  );
}

/** Each onboarding document with its status and, when rejected, the reason. */
export function DocumentsSummary({
  documents,
  idProofRequired,
  action,
}: {
  documents: readonly DonorDocument[];
  idProofRequired: boolean;
  action?: ReactNode;
}) {
  const { t } = useTranslation('onboarding');
  const byType = new Map(documents.map((document) => [document.type, document]));
  return (
    <SummaryBlock title={t('review.documents')} action={action}>
      <dl className="flex flex-col divide-y divide-slate-100">
        {ONBOARDING_DOCUMENTS.map((type) => {
          const document = byType.get(type);
          const state = document?.status ?? 'missing';
          return (
            <div key={type} className="flex flex-wrap items-center justify-between gap-2 py-2">
              <dt className="font-medium text-slate-900">
                {t(`documents.types.${type}.title`)}
                {type === 'id_proof' && idProofRequired && (
                  <span className="ms-2 text-sm font-normal text-slate-700">
                    ({t('documents.required')})
                  </span>
                )}
              </dt>
              <dd className="flex flex-col items-end gap-1">
                <Badge variant={STATE_BADGES[state]}>{t(`documents.status.${state}`)}</Badge>
                {state === 'rejected' && document?.rejectionReason && (
                  <span className="text-sm text-primary-800">
                    {t('documents.reason', { reason: document.rejectionReason })}
                  </span>
                )}
              </dd>
            </div>
          );
        })}
      </dl>
    </SummaryBlock>
  );
}

/** The health answers as the server stored them, in plain words. */
export function AnswersSummary({
  questionnaire,
  action,
}: {
  questionnaire: Questionnaire | null;
  action?: ReactNode;
}) {
  const { t } = useTranslation('onboarding');
  const formatDate = useFormatDate();
  if (!questionnaire) {
    return (
      <SummaryBlock title={t('review.answers')} action={action}>
        <p className="text-slate-700">{t('review.notAnswered')}</p>
      </SummaryBlock>
    );
  }
  const { answers } = questionnaire;
  const yesNo = (value: boolean) => (value ? t('questionnaire.yes') : t('questionnaire.no'));
  const dates = (answers.conditionDates ?? {}) as Record<string, string | undefined>;
  const rows: [string, ReactNode][] = [
    [t('review.weight'), t('review.weightValue', { kg: answers.weightKg })],
    [
      t('review.hemoglobin'),
      answers.hemoglobinGdl === undefined
        ? t('review.notKnown')
        : t('review.hemoglobinValue', { value: answers.hemoglobinGdl }),
    ],
    [t('review.firstTime'), yesNo(answers.firstTimeDonor)],
    ...(answers.lastDonationDate
      ? [
          [t('review.lastDonation'), formatDate(answers.lastDonationDate, 'long')] as [
            string,
            ReactNode,
          ],
        ]
      : []),
    [t('review.feelsWell'), yesNo(answers.feelsWell)],
    [
      t('review.conditions'),
      answers.conditions.length === 0 ? (
        t('review.none')
      ) : (
        <ul className="flex flex-col gap-1">
          {answers.conditions.map((code) => {
            const name = t(`questionnaire.conditions.${code}`);
            const date = isTimedCondition(code) ? dates[code] : undefined;
            return (
              <li key={code}>
                {date
                  ? t('review.conditionWithDate', {
                      condition: name,
                      date: formatDate(date, 'long'),
                    })
                  : name}
              </li>
            );
          })}
        </ul>
      ),
    ],
  ];
  return (
    <SummaryBlock title={t('review.answers')} action={action}>
      <dl className="flex flex-col divide-y divide-slate-100">
        {rows.map(([term, value]) => (
          <div key={term} className="grid gap-1 py-2 sm:grid-cols-[14rem_1fr] sm:gap-4">
            <dt className="font-medium text-slate-900">{term}</dt>
            <dd className="text-slate-800">{value}</dd>
          </div>
        ))}
      </dl>
    </SummaryBlock>
  );
}
