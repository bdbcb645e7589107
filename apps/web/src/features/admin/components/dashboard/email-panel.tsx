import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { emailSchema, type TestEmailResult } from '@bdms/shared';
import { Alert } from '../../../../components/alert';
import { Badge } from '../../../../components/badge';
import { Button } from '../../../../components/button';
import { Field, Input } from '../../../../components/field';
import { useErrorMessage } from '../../../../lib/use-error-message';
import { useEmailStatus, useSendTestEmail } from '../../api/admin-api';
import { useFormat } from '../../lib/format';
import { AdminSection } from '../section';
import { ErrorState, Skeleton } from '../states';

function TestEmailForm({ defaultEmail }: { defaultEmail: string }) {
  const { t } = useTranslation('admin');
  const errorMessage = useErrorMessage();
  const [email, setEmail] = useState(defaultEmail);
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [result, setResult] = useState<TestEmailResult | null>(null);
  const send = useSendTestEmail();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setResult(null);
    const parsed = emailSchema.safeParse(email);
    if (!parsed.success) {
      setFieldError(email.trim() ? t('validation.emailInvalid') : t('validation.emailRequired'));
      return;
    }
    setFieldError(null);
    send.mutate(parsed.data, { onSuccess: setResult });
  };

  return (
    <form noValidate onSubmit={submit} className="mt-5 flex flex-col gap-3">
      <h3 className="font-semibold text-slate-900">{t('dashboard.email.testTitle')}</h3>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start">
        <Field
          label={t('dashboard.email.testAddress')}
          hint={t('dashboard.email.testHint')}
          error={fieldError}
          isRequired
          className="flex-1"
        >
          <Input
            type="email"
            autoComplete="email"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
          />
        </Field>
        <Button type="submit" isLoading={send.isPending} className="sm:mt-[3.25rem]">
          {t('dashboard.email.sendTest')}
        </Button>
      </div>
      <div aria-live="polite">
        {result && (
          <Alert
            variant={result.status === 'logged' ? 'info' : 'success'}
            onDismiss={() => setResult(null)}
            title={
              result.status === 'logged'
                ? t('dashboard.email.testLogged')
                : t('dashboard.email.testSent')
            }
            message={t('dashboard.email.messageId', { id: result.messageId })}
          />
        )}
      </div>
      {send.isError && (
        <Alert variant="error" dismissible={false} message={errorMessage(send.error)} />
      )}
    </form>
  );
}

/** `GET /admin/email/status` and `POST /admin/email/test`. */
export function EmailPanel({ defaultTestAddress }: { defaultTestAddress: string }) {
  const { t } = useTranslation('admin');
  const format = useFormat();
  const status = useEmailStatus();

  return (
    <AdminSection title={t('dashboard.email.title')} description={t('dashboard.email.description')}>
      {status.isPending ? (
        <Skeleton lines={4} />
      ) : status.isError ? (
        <ErrorState error={status.error} onRetry={() => void status.refetch()} />
      ) : (
        <>
          <div className="flex flex-wrap items-center gap-2">
            {status.data.transport === 'smtp' ? (
              <Badge variant={status.data.configured ? 'success' : 'warning'}>
                {status.data.configured
                  ? t('dashboard.email.smtpConfigured')
                  : t('dashboard.email.smtpNotConfigured')}
              </Badge>
            ) : (
              <Badge variant="warning">{t('dashboard.email.outbox')}</Badge>
            )}
          </div>
          {status.data.transport === 'outbox' && (
            <p className="mt-2 text-sm text-slate-700">{t('dashboard.email.outboxHint')}</p>
          )}
          <dl className="mt-4 grid grid-cols-2 gap-x-4 gap-y-2 text-sm sm:grid-cols-4">
            <div className="col-span-2 sm:col-span-4">
              <dt className="text-slate-700">{t('dashboard.email.from')}</dt>
              <dd className="font-medium break-all text-slate-900">{status.data.from}</dd>
            </div>
            <div>
              <dt className="text-slate-700">{t('dashboard.email.sent24h')}</dt>
              <dd className="text-lg font-bold tabular-nums">
                {format.number(status.data.sent24h)}
              </dd>
            </div>
            <div>
              <dt className="text-slate-700">{t('dashboard.email.failed24h')}</dt>
              <dd
                className={
                  status.data.failed24h > 0
                    ? 'text-lg font-bold text-primary-800 tabular-nums'
                    : 'text-lg font-bold tabular-nums'
                }
              >
                {format.number(status.data.failed24h)}
              </dd>
            </div>
            <div>
              <dt className="text-slate-700">{t('dashboard.email.queued')}</dt>
              <dd className="text-lg font-bold tabular-nums">
                {format.number(status.data.queued)}
              </dd>
            </div>
          </dl>
          {status.data.lastError && (
            <Alert
              className="mt-4"
              variant="warning"
              dismissible={false}
              title={t('dashboard.email.lastError')}
              message={<span className="break-words">{status.data.lastError}</span>}
            />
          )}
        </>
      )}
      <TestEmailForm defaultEmail={defaultTestAddress} />
    </AdminSection>
  );
}
