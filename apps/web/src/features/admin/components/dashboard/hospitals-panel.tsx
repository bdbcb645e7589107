import { useMemo, useRef, useState, type ComponentProps, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import {
  INDIAN_STATES,
  emailSchema,
  normalizeIndianContactPhone,
  type CreateHospital,
  type HospitalAccount,
} from '@bdms/shared';
import { Alert } from '../../../../components/alert';
import { Badge } from '../../../../components/badge';
import { Button } from '../../../../components/button';
import { Field, Input, Select } from '../../../../components/field';
import { useToast } from '../../../../components/toast';
import { isApiError } from '../../../../lib/api-client';
import { useErrorMessage } from '../../../../lib/use-error-message';
import {
  HOSPITALS_PAGE_SIZE,
  useCreateHospital,
  useHospitals,
  useSetHospitalDisabled,
} from '../../api/admin-api';
import { formatPhone, useFormat } from '../../lib/format';
import { ConfirmDialog } from '../confirm-dialog';
import { Pagination } from '../../../../components/pagination';
import { AdminSection } from '../section';
import { EmptyState, ErrorState, Skeleton } from '../states';
import { PendingHospitals } from './pending-hospitals';

type HospitalField = 'name' | 'email' | 'phone' | 'city' | 'state' | 'facilityId';
const FIELDS: readonly HospitalField[] = ['name', 'email', 'phone', 'city', 'state', 'facilityId'];
type Values = Record<HospitalField, string> & { language: 'en' | 'es' | 'hi' };

const EMPTY: Values = {
  name: '',
  email: '',
  phone: '',
  city: '',
  state: '',
  facilityId: '',
  language: 'en',
};

/** The lengths of createHospitalSchema (@bdms/shared). */
function validate(values: Values): {
  errors: Partial<Record<HospitalField, string>>;
  body?: CreateHospital;
} {
  const errors: Partial<Record<HospitalField, string>> = {};
  const name = values.name.trim();
  const city = values.city.trim();
  const facilityId = values.facilityId.trim();
  if (name.length < 2 || name.length > 200) errors.name = name ? 'nameLength' : 'required';
  const email = emailSchema.safeParse(values.email);
  if (!email.success) errors.email = values.email.trim() ? 'emailInvalid' : 'required';
  const phone = normalizeIndianContactPhone(values.phone);
  if (!phone) errors.phone = values.phone.trim() ? 'phoneInvalid' : 'required';
  if (city.length < 2 || city.length > 80) errors.city = city ? 'placeLength' : 'required';
  if (!values.state) errors.state = 'stateRequired';
  if (facilityId.length > 64) errors.facilityId = 'facilityIdLength';
  if (Object.keys(errors).length > 0 || !email.success || !phone) return { errors };
  return {
    errors,
    body: {
      name,
      email: email.data,
      phone,
      city,
      state: values.state,
      language: values.language,
      ...(facilityId ? { facilityId } : {}),
    },
  };
}

function StateSelect(props: ComponentProps<'select'>) {
  const { t, i18n } = useTranslation(['admin', 'auth']);
  const options = useMemo(() => {
    const collator = new Intl.Collator(i18n.language);
    return INDIAN_STATES.map((state) => ({
      value: state.name,
      label: t(`auth:states.${state.code}`),
    })).sort((a, b) => collator.compare(a.label, b.label));
  }, [t, i18n.language]);
  return (
    <Select {...props}>
      <option value="">{t('admin:dashboard.hospitals.statePlaceholder')}</option>
      {options.map((option) => (
        <option key={option.value} value={option.value}>
          {option.label}
        </option>
      ))}
    </Select>
  );
}

function CreateHospitalForm({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation('admin');
  const toast = useToast();
  const errorMessage = useErrorMessage();
  const [values, setValues] = useState<Values>(EMPTY);
  const [errors, setErrors] = useState<Partial<Record<HospitalField, string>>>({});
  const create = useCreateHospital();
  const formRef = useRef<HTMLFormElement>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const result = validate(values);
    setErrors(result.errors);
    if (!result.body) {
      const first = FIELDS.find((field) => result.errors[field]);
      formRef.current?.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
      return;
    }
    create.mutate(result.body, {
      onSuccess: ({ hospital }) => {
        toast.success(t('dashboard.hospitals.created', { name: hospital.name }), {
          message: t('dashboard.hospitals.createdMessage', { email: hospital.email }),
        });
        setValues(EMPTY);
        onDone();
      },
      onError: (error) => {
        if (isApiError(error) && error.code === 'EMAIL_TAKEN') setErrors({ email: 'emailTaken' });
        else if (isApiError(error) && error.code === 'PHONE_TAKEN')
          setErrors({ phone: 'phoneTaken' });
      },
    });
  };

  const fieldProps = (field: HospitalField) => ({
    name: field,
    value: values[field],
    onChange: (event: { target: { value: string } }) => {
      setValues((current) => ({ ...current, [field]: event.target.value }));
      if (errors[field]) setErrors((current) => ({ ...current, [field]: undefined }));
    },
  });
  const error = (field: HospitalField) =>
    errors[field]
      ? t(`validation.${errors[field] as 'required'}`, { min: 2, max: field === 'name' ? 200 : 80 })
      : undefined;
  const showFormError =
    create.isError &&
    !(isApiError(create.error) && ['EMAIL_TAKEN', 'PHONE_TAKEN'].includes(create.error.code));

  return (
    <form
      ref={formRef}
      noValidate
      onSubmit={submit}
      className="mt-4 flex flex-col gap-4 rounded-lg border border-slate-200 bg-slate-50 p-4"
    >
      <h3 className="font-semibold text-slate-900">{t('dashboard.hospitals.createTitle')}</h3>
      <p className="text-sm text-slate-700">{t('dashboard.hospitals.createHint')}</p>
      {showFormError && (
        <Alert variant="error" dismissible={false} message={errorMessage(create.error)} />
      )}
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label={t('dashboard.hospitals.fields.name')} error={error('name')} isRequired>
          <Input autoComplete="organization" {...fieldProps('name')} />
        </Field>
        <Field label={t('dashboard.hospitals.fields.email')} error={error('email')} isRequired>
          <Input type="email" autoComplete="off" {...fieldProps('email')} />
        </Field>
        <Field
          label={t('dashboard.hospitals.fields.phone')}
          hint={t('dashboard.hospitals.fields.phoneHint')}
          error={error('phone')}
          isRequired
        >
          <Input type="tel" inputMode="tel" autoComplete="off" {...fieldProps('phone')} />
        </Field>
        <Field label={t('dashboard.hospitals.fields.city')} error={error('city')} isRequired>
          <Input autoComplete="off" {...fieldProps('city')} />
        </Field>
        <Field label={t('dashboard.hospitals.fields.state')} error={error('state')} isRequired>
          <StateSelect {...fieldProps('state')} />
        </Field>
        <Field
          label={t('dashboard.hospitals.fields.facilityId')}
          hint={t('dashboard.hospitals.fields.facilityIdHint')}
          error={error('facilityId')}
        >
          <Input autoComplete="off" {...fieldProps('facilityId')} />
        </Field>
        <Field label={t('dashboard.hospitals.fields.language')}>
          <Select
            value={values.language}
            onChange={(event) =>
              setValues((current) => ({
                ...current,
                language: event.target.value as Values['language'],
              }))
            }
          >
            <option value="en">English</option>
            <option value="hi">हिन्दी</option>
            <option value="es">Español</option>
          </Select>
        </Field>
      </div>
      <div className="flex flex-wrap gap-3">
        <Button type="submit" isLoading={create.isPending}>
          {t('dashboard.hospitals.create')}
        </Button>
        <Button variant="secondary" onClick={onDone}>
          {t('common.cancel')}
        </Button>
      </div>
    </form>
  );
}

function HospitalRow({
  hospital,
  onToggle,
}: {
  hospital: HospitalAccount;
  onToggle: (hospital: HospitalAccount) => void;
}) {
  const { t } = useTranslation('admin');
  const format = useFormat();
  return (
    <li className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:justify-between">
      <div className="min-w-0">
        <p className="flex flex-wrap items-center gap-2 font-semibold text-slate-900">
          {hospital.name}
          {hospital.disabled ? (
            <Badge variant="neutral">{t('dashboard.hospitals.disabled')}</Badge>
          ) : hospital.verificationStatus === 'rejected' ? (
            <Badge variant="primary">{t('dashboard.hospitals.rejected')}</Badge>
          ) : hospital.verificationStatus === 'pending' ? (
            <Badge variant="warning">{t('dashboard.hospitals.pending.badge')}</Badge>
          ) : (
            <Badge variant="success">{t('dashboard.hospitals.active')}</Badge>
          )}
        </p>
        <p className="text-sm break-all text-slate-700">
          <a href={`mailto:${hospital.email}`} className="underline">
            {hospital.email}
          </a>
          {hospital.phone && (
            <>
              {' · '}
              <a href={`tel:${hospital.phone}`} className="underline">
                {formatPhone(hospital.phone)}
              </a>
            </>
          )}
        </p>
        <p className="text-sm text-slate-700">
          {[hospital.city, hospital.state].filter(Boolean).join(', ')}
          {hospital.facilityId &&
            ` · ${t('dashboard.hospitals.facility', { id: hospital.facilityId })}`}
          {' · '}
          {t('dashboard.hospitals.since', { date: format.date(hospital.createdAt) })}
        </p>
      </div>
      <Button
        variant={hospital.disabled ? 'secondary' : 'danger'}
        onClick={() => onToggle(hospital)}
        className="shrink-0"
      >
        {hospital.disabled ? t('dashboard.hospitals.enable') : t('dashboard.hospitals.disable')}
        <span className="sr-only">: {hospital.name}</span>
      </Button>
    </li>
  );
}

/** `GET|POST /admin/hospitals`, `POST /admin/hospitals/{id}/disable|enable`. */
export function HospitalsPanel() {
  const { t } = useTranslation('admin');
  const toast = useToast();
  const errorMessage = useErrorMessage();
  const [page, setPage] = useState(1);
  const [isCreating, setIsCreating] = useState(false);
  const [confirming, setConfirming] = useState<HospitalAccount | null>(null);
  const hospitals = useHospitals(page);
  const setDisabled = useSetHospitalDisabled();
  const actionsRef = useRef<HTMLDivElement>(null);

  return (
    <AdminSection
      title={t('dashboard.hospitals.title')}
      description={t('dashboard.hospitals.description')}
      actions={
        <div ref={actionsRef}>
          {!isCreating && (
            <Button variant="secondary" onClick={() => setIsCreating(true)}>
              {t('dashboard.hospitals.add')}
            </Button>
          )}
        </div>
      }
    >
      {isCreating && (
        <CreateHospitalForm
          onDone={() => {
            setIsCreating(false);
            // The form is gone: back to the button that opened it.
            requestAnimationFrame(() => actionsRef.current?.querySelector('button')?.focus());
          }}
        />
      )}
      <PendingHospitals />
      <div className="mt-2">
        {hospitals.isPending ? (
          <Skeleton lines={4} />
        ) : hospitals.isError ? (
          <ErrorState error={hospitals.error} onRetry={() => void hospitals.refetch()} />
        ) : hospitals.data.items.length === 0 ? (
          <EmptyState
            title={t('dashboard.hospitals.emptyTitle')}
            message={t('dashboard.hospitals.emptyMessage')}
          />
        ) : (
          <>
            <ul className="divide-y divide-slate-200">
              {hospitals.data.items.map((hospital) => (
                <HospitalRow key={hospital.id} hospital={hospital} onToggle={setConfirming} />
              ))}
            </ul>
            <Pagination
              page={hospitals.data.page}
              pageSize={hospitals.data.pageSize || HOSPITALS_PAGE_SIZE}
              total={hospitals.data.total}
              onPageChange={setPage}
              isLoading={hospitals.isFetching}
              label={t('dashboard.hospitals.pages')}
            />
          </>
        )}
      </div>
      {confirming && (
        <ConfirmDialog
          title={
            confirming.disabled
              ? t('dashboard.hospitals.enableTitle', { name: confirming.name })
              : t('dashboard.hospitals.disableTitle', { name: confirming.name })
          }
          message={
            confirming.disabled
              ? t('dashboard.hospitals.enableMessage')
              : t('dashboard.hospitals.disableMessage')
          }
          confirmLabel={
            confirming.disabled ? t('dashboard.hospitals.enable') : t('dashboard.hospitals.disable')
          }
          tone={confirming.disabled ? 'primary' : 'danger'}
          describeError={errorMessage}
          onClose={() => setConfirming(null)}
          onConfirm={async () => {
            const { hospital } = await setDisabled.mutateAsync({
              hospitalId: confirming.id,
              disabled: !confirming.disabled,
            });
            toast.success(
              hospital.disabled
                ? t('dashboard.hospitals.disabledToast', { name: hospital.name })
                : t('dashboard.hospitals.enabledToast', { name: hospital.name }),
            );
          }}
        />
      )}
    </AdminSection>
  );
}
