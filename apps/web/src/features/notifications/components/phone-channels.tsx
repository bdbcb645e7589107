import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { CHANNEL_CONSENT_WORDING, consentLanguage, type ChannelConsent } from '@bdms/shared';
import { Alert } from '../../../components/alert';
import { Switch } from '../../../components/switch';
import { intlLocale } from '../../../lib/intl';
import { useErrorMessage } from '../../../lib/use-error-message';
import { useChannelConsents, useUpdateChannelConsent } from '../api/notifications';

function ChannelConsentRow({ consent }: { consent: ChannelConsent }) {
  const { t, i18n } = useTranslation('notifications');
  const errorMessage = useErrorMessage();
  const update = useUpdateChannelConsent();
  const labelId = useId();
  const wordingId = useId();
  const language = consentLanguage(i18n.language);
  const date = (value: string) =>
    new Intl.DateTimeFormat(intlLocale(i18n.language), {
      dateStyle: 'medium',
      timeStyle: 'short',
      timeZone: 'Asia/Kolkata',
    }).format(new Date(value));
  return (
    <li className="flex flex-col gap-2 border-t border-slate-200 pt-4 first:border-t-0 first:pt-0">
      <div className="flex items-center justify-between gap-3">
        <h3 id={labelId} className="font-semibold text-slate-900">
          {t(`phoneChannels.name.${consent.channel}`)}
        </h3>
        <Switch
          isOn={consent.consented}
          isBusy={update.isPending}
          disabled={!consent.available && !consent.consented}
          aria-labelledby={labelId}
          aria-describedby={wordingId}
          onChange={(isOn) => update.mutate({ channel: consent.channel, consent: isOn, language })}
        />
      </div>
      <p id={wordingId} className="text-sm text-slate-700">
        {CHANNEL_CONSENT_WORDING[consent.channel][language]}
      </p>
      <p className="text-sm font-medium text-slate-900">
        {consent.consented && consent.grantedAt
          ? t('phoneChannels.onSince', { date: date(consent.grantedAt) })
          : consent.withdrawnAt && consent.withdrawnVia === 'reply'
            ? t('phoneChannels.stoppedByReply', { date: date(consent.withdrawnAt) })
            : consent.available
              ? t('phoneChannels.off')
              : t('phoneChannels.unavailable')}
      </p>
      {update.isError && (
        <Alert variant="error" dismissible={false} message={errorMessage(update.error)} />
      )}
    </li>
  );
}

/** Alerts by SMS and WhatsApp: each switch records the consent with the wording beside it. */
export function PhoneChannelSettings() {
  const { t } = useTranslation('notifications');
  const headingId = useId();
  const consents = useChannelConsents();
  const shown = (consents.data?.channels ?? []).filter(
    (consent) => consent.available || consent.consented,
  );
  if (shown.length === 0) return null;
  return (
    <section
      aria-labelledby={headingId}
      className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm"
    >
      <h2 id={headingId} className="text-lg font-bold text-slate-900">
        {t('phoneChannels.title')}
      </h2>
      <p className="mt-1 text-sm text-slate-700">{t('phoneChannels.description')}</p>
      <ul className="mt-4 flex flex-col gap-4">
        {shown.map((consent) => (
          <ChannelConsentRow key={consent.channel} consent={consent} />
        ))}
      </ul>
    </section>
  );
}
