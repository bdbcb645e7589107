import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { ChannelStatus, DirectBudget } from '@bdms/shared';
import { Alert } from '../../../../components/alert';
import { Badge } from '../../../../components/badge';
import { Button } from '../../../../components/button';
import { Field, Input } from '../../../../components/field';
import { useErrorMessage } from '../../../../lib/use-error-message';
import { useChannelStatuses, useSaveNotificationSettings } from '../../api/admin-api';
import { useFormat } from '../../lib/format';
import { AdminSection } from '../section';
import { ErrorState, Skeleton } from '../states';

const BUDGET_FIELD = { sms: 'smsDailyBudget', whatsapp: 'whatsappDailyBudget' } as const;
/** Issue #32 item 8: the budgets of codes and of answers to replies, outside the alerts. */
const DIRECT_BUDGET_FIELD = {
  codes: 'phoneCodeDailyBudget',
  answers: 'replyAnswerDailyBudget',
} as const;
type BudgetField =
  | (typeof BUDGET_FIELD)[keyof typeof BUDGET_FIELD]
  | (typeof DIRECT_BUDGET_FIELD)[keyof typeof DIRECT_BUDGET_FIELD];

function BudgetForm({
  field,
  current,
  hint,
}: {
  field: BudgetField;
  current: number | null;
  hint: string;
}) {
  const { t } = useTranslation('admin');
  const errorMessage = useErrorMessage();
  const save = useSaveNotificationSettings();
  const [value, setValue] = useState(String(current ?? ''));
  const [fieldError, setFieldError] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const budget = Number(value);
    if (!/^\d+$/.test(value.trim()) || budget > 1_000_000) {
      setFieldError(t('dashboard.channels.budgetInvalid'));
      return;
    }
    setFieldError(null);
    save.mutate({ [field]: budget });
  };

  return (
    <form
      noValidate
      onSubmit={submit}
      className="mt-3 flex flex-col gap-2 sm:flex-row sm:items-start"
    >
      <Field
        label={t('dashboard.channels.budget')}
        hint={hint}
        error={fieldError}
        className="flex-1"
      >
        <Input
          inputMode="numeric"
          value={value}
          onChange={(event) => setValue(event.target.value)}
        />
      </Field>
      <Button
        type="submit"
        variant="secondary"
        isLoading={save.isPending}
        className="sm:mt-[3.25rem]"
      >
        {t('dashboard.channels.saveBudget')}
      </Button>
      {save.isError && (
        <Alert variant="error" dismissible={false} message={errorMessage(save.error)} />
      )}
    </form>
  );
}

function ChannelRow({ channel }: { channel: ChannelStatus }) {
  const { t } = useTranslation('admin');
  const format = useFormat();
  const badge = !channel.configured
    ? { variant: 'neutral' as const, text: t('dashboard.channels.notConfigured') }
    : channel.failingSince
      ? {
          variant: 'warning' as const,
          text: t('dashboard.channels.failingSince', {
            time: format.dateTime(channel.failingSince),
          }),
        }
      : !channel.enabled
        ? { variant: 'neutral' as const, text: t('dashboard.channels.off') }
        : { variant: 'success' as const, text: t('dashboard.channels.working') };
  return (
    <li className="border-t border-slate-200 py-4 first:border-t-0 first:pt-0">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 className="font-semibold text-slate-900">
          {t(`dashboard.channels.name.${channel.channel}`)}
        </h3>
        <Badge variant={badge.variant}>{badge.text}</Badge>
      </div>
      {channel.failingSince && channel.lastError && (
        <p className="mt-1 text-sm break-words text-slate-700">{channel.lastError}</p>
      )}
      <dl className="mt-2 grid grid-cols-3 gap-x-4 text-sm">
        <div>
          <dt className="text-slate-700">{t('dashboard.channels.sentToday')}</dt>
          <dd className="text-lg font-bold tabular-nums">
            {channel.dailyBudget === null
              ? format.number(channel.sentToday)
              : t('dashboard.channels.ofBudget', {
                  sent: format.number(channel.sentToday),
                  budget: format.number(channel.dailyBudget),
                })}
          </dd>
        </div>
        <div>
          <dt className="text-slate-700">{t('dashboard.channels.failedToday')}</dt>
          <dd className="text-lg font-bold tabular-nums">{format.number(channel.failedToday)}</dd>
        </div>
        <div>
          <dt className="text-slate-700">{t('dashboard.channels.queued')}</dt>
          <dd className="text-lg font-bold tabular-nums">{format.number(channel.queued)}</dd>
        </div>
      </dl>
      {channel.overBudgetToday > 0 && (
        <p className="mt-2 text-sm font-medium text-slate-900">
          {t('dashboard.channels.overBudget', { count: channel.overBudgetToday })}
        </p>
      )}
      {(channel.channel === 'sms' || channel.channel === 'whatsapp') && channel.configured && (
        <BudgetForm
          field={BUDGET_FIELD[channel.channel]}
          current={channel.dailyBudget}
          hint={t('dashboard.channels.budgetHint')}
        />
      )}
    </li>
  );
}

/** Codes or answers to replies sent today against their own daily budget. */
function DirectBudgetRow({ name, budget }: { name: 'codes' | 'answers'; budget: DirectBudget }) {
  const { t } = useTranslation('admin');
  const format = useFormat();
  const spent = budget.sentToday >= budget.dailyBudget;
  return (
    <li className="border-t border-slate-200 py-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 className="font-semibold text-slate-900">{t(`dashboard.channels.direct.${name}`)}</h3>
        {spent && <Badge variant="warning">{t('dashboard.channels.direct.spent')}</Badge>}
      </div>
      <dl className="mt-2 text-sm">
        <dt className="text-slate-700">{t('dashboard.channels.sentToday')}</dt>
        <dd className="text-lg font-bold tabular-nums">
          {t('dashboard.channels.ofBudget', {
            sent: format.number(budget.sentToday),
            budget: format.number(budget.dailyBudget),
          })}
        </dd>
      </dl>
      <BudgetForm
        field={DIRECT_BUDGET_FIELD[name]}
        current={budget.dailyBudget}
        hint={t(`dashboard.channels.direct.${name}Hint`)}
      />
    </li>
  );
}

/** `GET /admin/notifications/channels`: is each channel working, today's figures, budgets. */
export function ChannelsPanel() {
  const { t } = useTranslation('admin');
  const statuses = useChannelStatuses();
  return (
    <AdminSection
      title={t('dashboard.channels.title')}
      description={t('dashboard.channels.description')}
    >
      {statuses.isPending ? (
        <Skeleton lines={4} />
      ) : statuses.isError ? (
        <ErrorState error={statuses.error} onRetry={() => void statuses.refetch()} />
      ) : (
        <ul>
          {statuses.data.channels.map((channel) => (
            <ChannelRow key={channel.channel} channel={channel} />
          ))}
          {statuses.data.directBudgets && (
            <>
              <DirectBudgetRow name="codes" budget={statuses.data.directBudgets.codes} />
              <DirectBudgetRow name="answers" budget={statuses.data.directBudgets.answers} />
            </>
          )}
        </ul>
      )}
    </AdminSection>
  );
}
