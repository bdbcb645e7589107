import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  CONDITION_CODES,
  RULE_CODES,
  evaluateEligibility,
  indianDate,
  type Deferral,
  type Questionnaire,
  type User,
} from '@bdms/shared';
import { Alert } from '../../../../components/alert';
import { Badge } from '../../../../components/badge';
import { Button } from '../../../../components/button';
import { useToast } from '../../../../components/toast';
import { useReviewQuestionnaire } from '../../api/admin-api';
import { useFormat } from '../../lib/format';
import { useAdminErrorMessage } from '../../lib/use-admin-error';
import { ConfirmDialog } from '../confirm-dialog';
import { EmptyState } from '../states';

type ConditionCode = (typeof CONDITION_CODES)[number];
type RuleCode = (typeof RULE_CODES)[number];

function isCondition(code: string): code is ConditionCode {
  return (CONDITION_CODES as readonly string[]).includes(code);
}
function isRule(code: string): code is RuleCode {
  return (RULE_CODES as readonly string[]).includes(code);
}

function useDeferralLabel() {
  const { t } = useTranslation('admin');
  return (code: string) => {
    if (isCondition(code)) return t(`conditions.${code}`);
    if (isRule(code)) return t(`rules.${code}`);
    return code;
  };
}

function DeferralList({ deferrals }: { deferrals: Deferral[] }) {
  const { t } = useTranslation('admin');
  const format = useFormat();
  const label = useDeferralLabel();
  return (
    <ul className="mt-2 flex flex-col gap-1.5">
      {deferrals.map((deferral) => (
        <li key={deferral.code} className="flex flex-wrap items-baseline gap-x-2 text-slate-900">
          <span className="font-medium">{label(deferral.code)}</span>
          <span className="text-sm text-slate-700">
            {deferral.permanent
              ? t('questionnaire.permanent')
              : deferral.until
                ? t('questionnaire.until', {
                    date: format.calendarDate(indianDate(deferral.until)),
                  })
                : t('questionnaire.whileItLasts')}
          </span>
        </li>
      ))}
    </ul>
  );
}

/** Answers, the verdict recomputed today (deferrals end), and the administrator's review. */
export function QuestionnaireSection({
  questionnaire,
  donor,
}: {
  questionnaire: Questionnaire | null;
  donor: User;
}) {
  const { t } = useTranslation('admin');
  const toast = useToast();
  const format = useFormat();
  const label = useDeferralLabel();
  const describeError = useAdminErrorMessage('donor');
  const review = useReviewQuestionnaire(donor.id);
  const [decision, setDecision] = useState<'accepted' | 'rejected' | null>(null);

  // The same rules as the server (@bdms/shared eligibility), as of now.
  const now = useMemo(
    () =>
      questionnaire
        ? evaluateEligibility({
            answers: questionnaire.answers,
            dateOfBirth: donor.dateOfBirth,
            gender: donor.gender,
            lastDonationAt: donor.lastDonationAt,
          })
        : null,
    [questionnaire, donor.dateOfBirth, donor.gender, donor.lastDonationAt],
  );

  if (!questionnaire || !now) {
    return (
      <EmptyState title={t('questionnaire.emptyTitle')} message={t('questionnaire.emptyMessage')} />
    );
  }
  const { answers } = questionnaire;
  const yesNo = (value: boolean) => (value ? t('common.yes') : t('common.no'));
  const dates = answers.conditionDates ?? {};

  return (
    <div className="flex flex-col gap-4">
      <p className="text-sm text-slate-700">
        {t('questionnaire.submitted', { date: format.dateTime(questionnaire.submittedAt) })}
      </p>
      <dl className="grid grid-cols-1 gap-x-4 gap-y-2 sm:grid-cols-2">
        <div>
          <dt className="text-sm text-slate-700">{t('questionnaire.weight')}</dt>
          <dd className="font-medium">
            {t('questionnaire.kg', { value: format.number(answers.weightKg) })}
          </dd>
        </div>
        <div>
          <dt className="text-sm text-slate-700">{t('questionnaire.hemoglobin')}</dt>
          <dd className="font-medium">
            {answers.hemoglobinGdl === undefined
              ? t('common.notGiven')
              : t('questionnaire.gdl', { value: format.number(answers.hemoglobinGdl) })}
          </dd>
        </div>
        <div>
          <dt className="text-sm text-slate-700">{t('questionnaire.firstTime')}</dt>
          <dd className="font-medium">{yesNo(answers.firstTimeDonor)}</dd>
        </div>
        <div>
          <dt className="text-sm text-slate-700">{t('questionnaire.lastDonation')}</dt>
          <dd className="font-medium">
            {answers.lastDonationDate
              ? format.calendarDate(answers.lastDonationDate)
              : t('common.notGiven')}
          </dd>
        </div>
        <div>
          <dt className="text-sm text-slate-700">{t('questionnaire.feelsWell')}</dt>
          <dd className="font-medium">{yesNo(answers.feelsWell)}</dd>
        </div>
        <div className="sm:col-span-2">
          <dt className="text-sm text-slate-700">{t('questionnaire.conditions')}</dt>
          <dd className="font-medium">
            {answers.conditions.length === 0 ? (
              t('questionnaire.noConditions')
            ) : (
              <ul className="list-disc ps-5">
                {answers.conditions.map((code) => (
                  <li key={code}>
                    {label(code)}
                    {dates[code] && (
                      <span className="font-normal text-slate-700">
                        {' '}
                        ({format.calendarDate(dates[code])})
                      </span>
                    )}
                  </li>
                ))}
              </ul>
            )}
          </dd>
        </div>
      </dl>

      <div
        className={
          now.eligible
            ? 'rounded-lg border-s-4 border-success-700 bg-success-50 p-3 text-success-800'
            : 'rounded-lg border-s-4 border-warning-700 bg-warning-50 p-3 text-warning-800'
        }
      >
        <p className="font-semibold">
          {now.eligible ? t('questionnaire.eligibleNow') : t('questionnaire.deferredNow')}
        </p>
        {!now.eligible && <DeferralList deferrals={now.deferrals} />}
        {now.nextEligibleAt && !now.eligible && (
          <p className="mt-2 text-sm">
            {t('questionnaire.nextEligible', {
              date: format.calendarDate(indianDate(now.nextEligibleAt)),
            })}
          </p>
        )}
        {now.maxVolumeMl !== null && (
          <p className="mt-1 text-sm">
            {t('questionnaire.maxVolume', { value: format.number(now.maxVolumeMl) })}
          </p>
        )}
        <p className="mt-2 text-sm">{t('questionnaire.computedHint')}</p>
      </div>

      <div className="flex flex-col gap-2 border-t border-slate-200 pt-3">
        <h4 className="font-semibold text-slate-900">{t('questionnaire.reviewTitle')}</h4>
        {questionnaire.reviewRequired && (
          // Out of matching until an administrator reviews the answers (issue #14).
          <Alert
            variant="warning"
            dismissible={false}
            message={t(`questionnaire.reviewRequired.${questionnaire.reviewRequired}`)}
          />
        )}
        {questionnaire.review ? (
          <div className="flex flex-col gap-1">
            <p className="flex flex-wrap items-center gap-2">
              <Badge variant={questionnaire.review.decision === 'accepted' ? 'success' : 'primary'}>
                {t(`questionnaire.decisions.${questionnaire.review.decision}`)}
              </Badge>
              <span className="text-sm text-slate-700">
                {format.dateTime(questionnaire.review.reviewedAt)}
              </span>
            </p>
            {questionnaire.review.notes && (
              <p className="text-sm text-slate-800">
                <span className="font-semibold">{t('questionnaire.notes')}:</span>{' '}
                {questionnaire.review.notes}
              </p>
            )}
          </div>
        ) : (
          <p className="text-sm text-slate-700">{t('questionnaire.notReviewed')}</p>
        )}
        {review.isError && decision === null && (
          <Alert variant="error" dismissible={false} message={describeError(review.error)} />
        )}
        <div className="flex flex-wrap gap-2">
          {questionnaire.review?.decision !== 'accepted' && (
            <Button variant="secondary" onClick={() => setDecision('accepted')}>
              {t('questionnaire.accept')}
            </Button>
          )}
          {questionnaire.review?.decision !== 'rejected' && (
            <Button variant="danger" onClick={() => setDecision('rejected')}>
              {t('questionnaire.reject')}
            </Button>
          )}
        </div>
      </div>

      {decision && (
        <ConfirmDialog
          title={t(`questionnaire.${decision === 'accepted' ? 'acceptTitle' : 'rejectTitle'}`)}
          message={t(
            `questionnaire.${decision === 'accepted' ? 'acceptMessage' : 'rejectMessage'}`,
          )}
          confirmLabel={t(`questionnaire.${decision === 'accepted' ? 'accept' : 'reject'}`)}
          tone={decision === 'rejected' ? 'danger' : 'primary'}
          reason={{
            label: t('questionnaire.notes'),
            hint:
              decision === 'rejected'
                ? t('questionnaire.notesRequiredHint')
                : t('questionnaire.notesOptionalHint'),
            required: decision === 'rejected',
          }}
          describeError={describeError}
          onClose={() => {
            setDecision(null);
            review.reset();
          }}
          onConfirm={async (notes) => {
            await review.mutateAsync(notes ? { decision, notes } : { decision });
            toast.success(t(`questionnaire.${decision === 'accepted' ? 'accepted' : 'rejected'}`));
          }}
        />
      )}
    </div>
  );
}
