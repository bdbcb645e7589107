import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../../components/alert';
import { Button } from '../../../components/button';
import { Field, Input } from '../../../components/field';
import { useAuth } from '../../auth';
import { useErrorMessage } from '../../../lib/use-error-message';
import {
  useConfirmRegistrationCode,
  useRegistrationStatus,
  useSendRegistrationCode,
} from '../api/registration-api';

function CodeForm({ channel }: { channel: 'email' | 'phone' }) {
  const { t } = useTranslation('hospital');
  const errorMessage = useErrorMessage();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const send = useSendRegistrationCode();
  const confirm = useConfirmRegistrationCode();

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    if (!/^\d{6}$/.test(code.trim())) {
      setError(t('status.codeInvalid'));
      return;
    }
    try {
      await confirm.mutateAsync({ channel, code: code.trim() });
    } catch (failure) {
      setError(errorMessage(failure));
    }
  }

  return (
    <form noValidate onSubmit={submit} className="flex flex-col gap-3">
      <Field
        label={channel === 'email' ? t('status.emailCode') : t('status.phoneCode')}
        error={error ?? undefined}
      >
        <Input
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          value={code}
          onChange={(event) => setCode(event.target.value)}
        />
      </Field>
      {notice && <Alert variant="info" dismissible={false} message={notice} />}
      <div className="flex flex-wrap gap-3">
        <Button type="submit" isLoading={confirm.isPending}>
          {t('status.confirm')}
        </Button>
        <Button
          variant="secondary"
          isLoading={send.isPending}
          onClick={async () => {
            setError(null);
            setNotice(null);
            try {
              await send.mutateAsync(channel);
              setNotice(channel === 'email' ? t('status.emailSent') : t('status.phoneSent'));
            } catch (failure) {
              setError(errorMessage(failure));
            }
          }}
        >
          {channel === 'email' ? t('status.resendEmail') : t('status.sendPhone')}
        </Button>
      </div>
    </form>
  );
}

export interface HospitalHold {
  verificationStatus: 'pending' | 'rejected';
  rejectionReason: string | null | undefined;
}

/**
 * Issue #17: the signed-in centre's registration when it is not (or no longer) verified, so a
 * work screen shows where it stands instead; null for a verified account.
 */
export function useHospitalHold(): HospitalHold | null {
  const hospital = useAuth().user?.hospital;
  return hospital?.verificationStatus === 'pending' || hospital?.verificationStatus === 'rejected'
    ? {
        verificationStatus: hospital.verificationStatus,
        rejectionReason: hospital.rejectionReason,
      }
    : null;
}

/**
 * What a blood centre whose registration is not verified sees instead of the work screens:
 * waiting (or the administrator's reason for a rejection), and its e-mail and phone to confirm.
 */
export function RegistrationStatus({
  verificationStatus,
  rejectionReason,
}: {
  verificationStatus: 'pending' | 'rejected';
  rejectionReason?: string | null | undefined;
}) {
  const { t } = useTranslation('hospital');
  const status = useRegistrationStatus();
  const registration = status.data?.registration;
  return (
    <section aria-labelledby="registration-status" className="mt-6 flex max-w-2xl flex-col gap-5">
      <h2 id="registration-status" className="text-xl font-semibold text-slate-900">
        {verificationStatus === 'rejected' ? t('status.rejectedTitle') : t('status.pendingTitle')}
      </h2>
      {verificationStatus === 'rejected' ? (
        <Alert
          variant="error"
          dismissible={false}
          message={t('status.rejectedMessage', { reason: rejectionReason ?? '' })}
        />
      ) : (
        <Alert variant="info" dismissible={false} message={t('status.pendingMessage')} />
      )}
      {registration && (
        <>
          <div className="flex flex-col gap-2">
            <h3 className="font-semibold text-slate-900">{t('status.emailTitle')}</h3>
            {registration.emailConfirmed ? (
              <p className="text-success-800">{t('status.emailConfirmed')}</p>
            ) : (
              <CodeForm channel="email" />
            )}
          </div>
          <div className="flex flex-col gap-2">
            <h3 className="font-semibold text-slate-900">{t('status.phoneTitle')}</h3>
            {registration.phoneConfirmed ? (
              <p className="text-success-800">{t('status.phoneConfirmed')}</p>
            ) : registration.smsAvailable ? (
              <CodeForm channel="phone" />
            ) : (
              <p className="text-slate-700">{t('status.smsUnavailable')}</p>
            )}
          </div>
        </>
      )}
    </section>
  );
}
