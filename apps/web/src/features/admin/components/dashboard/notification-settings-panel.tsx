import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { NOTIFICATION_SETTINGS_DEFAULTS, type NotificationSettings } from '@bdms/shared';
import { Alert } from '../../../../components/alert';
import { Button } from '../../../../components/button';
import { Field, Input } from '../../../../components/field';
import { useToast } from '../../../../components/toast';
import { useErrorMessage } from '../../../../lib/use-error-message';
import { useNotificationSettings, useSaveNotificationSettings } from '../../api/admin-api';
import { AdminSection } from '../section';
import { ErrorState, Skeleton } from '../states';

type Toggle = 'emailEnabled' | 'pushEnabled' | 'smsEnabled' | 'notifyAdminsOnCritical';
type NumberField = 'matchRadiusKm' | 'maxDonorsPerRequest' | 'maxAlertsPerDonorPer7d';

const TOGGLES: readonly Toggle[] = [
  'emailEnabled',
  'pushEnabled',
  'smsEnabled',
  'notifyAdminsOnCritical',
];

/** The limits of notificationSettingsSchema (@bdms/shared), checked here to name the field. */
export const NUMBER_LIMITS: Record<NumberField, { min: number; max: number }> = {
  matchRadiusKm: { min: 1, max: 200 },
  maxDonorsPerRequest: { min: 1, max: 200 },
  maxAlertsPerDonorPer7d: { min: 1, max: 20 },
};
const NUMBER_FIELDS = Object.keys(NUMBER_LIMITS) as NumberField[];

type FormValues = Record<Toggle, boolean> & Record<NumberField, string>;

function toForm(settings: NotificationSettings): FormValues {
  return {
    emailEnabled: settings.emailEnabled,
    pushEnabled: settings.pushEnabled,
    smsEnabled: settings.smsEnabled,
    notifyAdminsOnCritical: settings.notifyAdminsOnCritical,
    matchRadiusKm: String(settings.matchRadiusKm),
    maxDonorsPerRequest: String(settings.maxDonorsPerRequest),
    maxAlertsPerDonorPer7d: String(
      settings.maxAlertsPerDonorPer7d ?? NOTIFICATION_SETTINGS_DEFAULTS.maxAlertsPerDonorPer7d,
    ),
  };
}

function Checkbox({
  checked,
  onChange,
  label,
  hint,
  extra,
}: {
  checked: boolean;
  onChange: (checked: boolean) => void;
  label: string;
  hint: string;
  extra?: ReactNode;
}) {
  const id = useId();
  return (
    <div className="flex items-start gap-3">
      <input
        id={id}
        type="checkbox"
        checked={checked}
        onChange={(event) => onChange(event.target.checked)}
        aria-describedby={`${id}-hint`}
        className="mt-1 size-6 shrink-0 accent-slate-800"
      />
      <div className="flex flex-col">
        <label htmlFor={id} className="font-semibold text-slate-900">
          {label}
        </label>
        <p id={`${id}-hint`} className="text-sm text-slate-700">
          {hint}
        </p>
        {extra}
      </div>
    </div>
  );
}

function SettingsForm({ settings }: { settings: NotificationSettings }) {
  const { t } = useTranslation('admin');
  const toast = useToast();
  const errorMessage = useErrorMessage();
  const [values, setValues] = useState<FormValues>(() => toForm(settings));
  const [errors, setErrors] = useState<Partial<Record<NumberField, string>>>({});
  const save = useSaveNotificationSettings();

  const set = <K extends keyof FormValues>(key: K, value: FormValues[K]) =>
    setValues((current) => ({ ...current, [key]: value }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found: Partial<Record<NumberField, string>> = {};
    const numbers = {} as Record<NumberField, number>;
    for (const field of NUMBER_FIELDS) {
      const { min, max } = NUMBER_LIMITS[field];
      const raw = values[field].trim();
      const value = Number(raw);
      if (!raw) found[field] = t('validation.numberRequired');
      else if (!Number.isInteger(value)) found[field] = t('validation.wholeNumber');
      else if (value < min || value > max) found[field] = t('validation.numberRange', { min, max });
      else numbers[field] = value;
    }
    setErrors(found);
    if (Object.keys(found).length > 0) {
      // Take the keyboard to the first field to fix.
      const first = NUMBER_FIELDS.find((field) => found[field]);
      document.getElementById(`settings-${first}`)?.focus();
      return;
    }
    save.mutate(
      {
        emailEnabled: values.emailEnabled,
        pushEnabled: values.pushEnabled,
        smsEnabled: values.smsEnabled,
        notifyAdminsOnCritical: values.notifyAdminsOnCritical,
        ...numbers,
      },
      {
        onSuccess: (saved) => {
          setValues(toForm(saved));
          toast.success(t('dashboard.settings.saved'));
        },
      },
    );
  };

  return (
    <form noValidate onSubmit={submit} className="flex flex-col gap-5">
      {save.isError && (
        <Alert variant="error" dismissible={false} message={errorMessage(save.error)} />
      )}
      <fieldset className="flex flex-col gap-4">
        <legend className="mb-3 font-semibold text-slate-900">
          {t('dashboard.settings.channels')}
        </legend>
        {TOGGLES.map((toggle) => (
          <Checkbox
            key={toggle}
            checked={values[toggle]}
            onChange={(checked) => set(toggle, checked)}
            label={t(`dashboard.settings.fields.${toggle}.label`)}
            hint={t(`dashboard.settings.fields.${toggle}.hint`)}
            extra={
              toggle === 'smsEnabled' && values.smsEnabled ? (
                <p className="mt-1 text-sm font-semibold text-warning-800">
                  {t('dashboard.settings.smsNoProvider')}
                </p>
              ) : undefined
            }
          />
        ))}
      </fieldset>
      <fieldset className="grid gap-4 sm:grid-cols-3">
        <legend className="mb-3 font-semibold text-slate-900">
          {t('dashboard.settings.matching')}
        </legend>
        {NUMBER_FIELDS.map((field) => (
          <Field
            key={field}
            id={`settings-${field}`}
            label={t(`dashboard.settings.fields.${field}.label`)}
            hint={t(`dashboard.settings.fields.${field}.hint`, NUMBER_LIMITS[field])}
            error={errors[field]}
            isRequired
          >
            <Input
              type="number"
              inputMode="numeric"
              min={NUMBER_LIMITS[field].min}
              max={NUMBER_LIMITS[field].max}
              step={1}
              value={values[field]}
              onChange={(event) => {
                set(field, event.target.value);
                if (errors[field]) setErrors((current) => ({ ...current, [field]: undefined }));
              }}
            />
          </Field>
        ))}
      </fieldset>
      <div>
        <Button type="submit" isLoading={save.isPending}>
          {t('dashboard.settings.save')}
        </Button>
      </div>
    </form>
  );
}

/** `GET|PUT /admin/notifications/settings`: who is told about a request, and how. */
export function NotificationSettingsPanel() {
  const { t } = useTranslation('admin');
  const settings = useNotificationSettings();
  return (
    <AdminSection
      title={t('dashboard.settings.title')}
      description={t('dashboard.settings.description')}
    >
      {settings.isPending ? (
        <Skeleton lines={6} />
      ) : settings.isError ? (
        <ErrorState error={settings.error} onRetry={() => void settings.refetch()} />
      ) : (
        <SettingsForm settings={settings.data} />
      )}
    </AdminSection>
  );
}
