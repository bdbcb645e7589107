import { useEffect, useId, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { useForm, type FieldError } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import {
  BLOOD_REQUEST_LIMITS,
  BLOOD_TYPES,
  REQUEST_LANGUAGES,
  URGENCIES,
  type BloodRequest,
  type FacilitySearchResult,
} from '@bdms/shared';
import { Alert } from '../../../components/alert';
import { Button } from '../../../components/button';
import { ChoiceGroup } from '../../../components/choice-group';
import { Field, Input, Textarea } from '../../../components/field';
import { useFeatureFlag } from '../../../config/use-config';
import { isApiError } from '../../../lib/api-client';
import { useErrorMessage } from '../../../lib/use-error-message';
import { takeTypedValues, typedValues } from '../../../lib/typed-before-hydration';
import { useHydrated } from '../../../lib/use-hydrated';
import { StateSelect } from '../../auth/components/state-select';
import { createBloodRequest, searchFacilities } from '../api/requests-api';
import {
  REQUEST_VALIDATION_PARAMS,
  invalidRequestFields,
  isRequestValidationKey,
  requestFormSchema,
  requestValidationKey,
  withRequestMessageKeys,
  type RequestFormField,
  type RequestFormInput,
  type RequestFormOutput,
} from '../forms/request-form-schema';

/** Wait this long after the last keystroke before searching the facility directory. */
export const FACILITY_SEARCH_DEBOUNCE_MS = 300;
const FACILITY_SEARCH_MIN = 2;

type Facility = FacilitySearchResult['items'][number];

function SectionHeading({ children }: { children: ReactNode }) {
  return (
    <h2 className="border-b border-slate-200 pb-2 text-xl font-semibold text-slate-900">
      {children}
    </h2>
  );
}

/** Debounced facility search: results for `query` (≥ 2 characters), stale answers dropped. */
function useFacilitySearch(query: string, enabled: boolean) {
  const [result, setResult] = useState<{ query: string; items: Facility[] } | null>(null);
  const trimmed = query.trim();
  useEffect(() => {
    if (!enabled || trimmed.length < FACILITY_SEARCH_MIN) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      searchFacilities(trimmed, controller.signal).then(
        ({ items }) => {
          if (!controller.signal.aborted) setResult({ query: trimmed, items });
        },
        // A failed search (offline, rate limited) leaves the typed name: it is enough.
        () => undefined,
      );
    }, FACILITY_SEARCH_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [trimmed, enabled]);
  return enabled && result?.query === trimmed ? result.items : [];
}

/** The values of the prerendered form posting to `action`, as typed before the app arrived. */
function typedBeforeScript(action: string): Partial<RequestFormInput> {
  if (typeof document === 'undefined') return {};
  return asFormInput(typedValues(action));
}

function asFormInput(values: Record<string, string>): Partial<RequestFormInput> {
  const typed: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(values)) {
    if (name === 'language') continue;
    typed[name] = name === 'unitsNeeded' ? Number(value) : value;
  }
  return typed as Partial<RequestFormInput>;
}

const requestLanguage = (language: string) =>
  (REQUEST_LANGUAGES as readonly string[]).includes(language)
    ? (language as (typeof REQUEST_LANGUAGES)[number])
    : undefined;

type LocationStatus = 'idle' | 'locating' | 'found' | 'denied' | 'unavailable';

/**
 * The blood request form (`POST /api/v1/blood-requests`), for a guest on /emergency and for a
 * hospital's dashboard. Validated with the shared schema, messages translated; a 400 lands on its
 * fields; a 429 says how long to wait. `onCreated` gets the created (or the open duplicate) request.
 */
export function RequestForm({
  onCreated,
  defaults,
  submitLabel,
  action,
}: {
  onCreated: (request: BloodRequest, duplicate: boolean) => void;
  defaults?: Partial<RequestFormInput>;
  submitLabel?: string;
  /**
   * Where the form posts while its script has not arrived (a prerendered page on a slow phone:
   * `POST /emergency`, server/features/blood-requests/emergency-form.routes.ts). Until then the
   * browser checks the required fields itself; once React has the form it checks and sends it.
   */
  action?: string;
}) {
  const { t, i18n } = useTranslation(['requests', 'auth']);
  const isHydrated = useHydrated();
  // When React adopts a prerendered form, what was typed before the script arrived is on the
  // page: it becomes the form's starting values instead of being reset (issue #18).
  const [initialValues] = useState<Partial<RequestFormInput>>(() => ({
    unitsNeeded: BLOOD_REQUEST_LIMITS.minUnits,
    hospitalName: '',
    facilityId: '',
    city: '',
    state: '',
    patientName: '',
    contactName: '',
    contactPhone: '',
    requiredBy: '',
    notes: '',
    ...defaults,
    ...(action ? typedBeforeScript(action) : {}),
  }));
  const errorMessage = useErrorMessage();
  const canLocate = useFeatureFlag('locationDetection');
  const [failure, setFailure] = useState<string | null>(null);
  // A duplicate of someone else's open request: the server hands nothing back (privacy).
  const [duplicateElsewhere, setDuplicateElsewhere] = useState(false);
  const [location, setLocation] = useState<LocationStatus>('idle');
  const [pickedFacility, setPickedFacility] = useState<string | null>(null);
  const failureRef = useRef<HTMLDivElement>(null);
  const resultsId = useId();
  const locationNoteId = useId();
  const {
    register,
    handleSubmit,
    setError,
    setValue,
    setFocus,
    getValues,
    watch,
    formState: { errors, isSubmitting },
  } = useForm<RequestFormInput, unknown, RequestFormOutput>({
    resolver: withRequestMessageKeys(zodResolver(requestFormSchema)),
    defaultValues: initialValues,
  });

  // What was typed while React adopted the form: registering the fields reset it on the page
  // (a tap on a blood group mid-hydration unchecked it again). Once, right after the fields are
  // registered and before the browser paints.
  useLayoutEffect(() => {
    if (!action) return;
    const typed = asFormInput(takeTypedValues(action)) as Record<string, string | number>;
    for (const [name, value] of Object.entries(typed)) {
      const field = name as keyof RequestFormInput;
      if (String(getValues(field) ?? '') !== String(value)) {
        setValue(field, value as never, { shouldDirty: true });
      }
    }
    // Once per form: later changes are React's own.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const hospitalName = watch('hospitalName') ?? '';
  const units = watch('unitsNeeded') ?? defaults?.unitsNeeded ?? BLOOD_REQUEST_LIMITS.minUnits;
  const latitude = watch('latitude');
  const facilities = useFacilitySearch(hospitalName, pickedFacility !== hospitalName);

  const message = (field: RequestFormField): string | undefined => {
    const error = errors[field] as FieldError | undefined;
    if (!error) return undefined;
    const key = isRequestValidationKey(error.message) ? error.message : 'invalid';
    return t(`requests:validation.${key}`, REQUEST_VALIDATION_PARAMS[key]);
  };

  const stepUnits = (delta: number) => {
    const current = Number(getValues('unitsNeeded')) || BLOOD_REQUEST_LIMITS.minUnits;
    const next = Math.min(
      BLOOD_REQUEST_LIMITS.maxUnits,
      Math.max(BLOOD_REQUEST_LIMITS.minUnits, current + delta),
    );
    setValue('unitsNeeded', next, { shouldValidate: Boolean(errors.unitsNeeded) });
  };

  const pickFacility = (facility: Facility) => {
    setPickedFacility(facility.name);
    setValue('hospitalName', facility.name, { shouldValidate: Boolean(errors.hospitalName) });
    setValue('facilityId', facility.id);
    if (facility.city) setValue('city', facility.city, { shouldValidate: Boolean(errors.city) });
    setValue('state', facility.state, { shouldValidate: Boolean(errors.state) });
    // The suggestions disappear with the button that was pressed: keep focus where the reader
    // was (the hospital field, now filled) instead of losing it to the page (issue #18).
    setFocus('hospitalName');
  };

  const locate = () => {
    if (!('geolocation' in navigator)) {
      setLocation('unavailable');
      return;
    }
    setLocation('locating');
    navigator.geolocation.getCurrentPosition(
      (position) => {
        setValue('latitude', Math.round(position.coords.latitude * 1e5) / 1e5);
        setValue('longitude', Math.round(position.coords.longitude * 1e5) / 1e5);
        setLocation('found');
      },
      (error) => setLocation(error.code === error.PERMISSION_DENIED ? 'denied' : 'unavailable'),
      { enableHighAccuracy: false, timeout: 15_000, maximumAge: 300_000 },
    );
  };

  const onSubmit = handleSubmit(async (values) => {
    setFailure(null);
    setDuplicateElsewhere(false);
    try {
      const { request, duplicate } = await createBloodRequest({
        ...values,
        language: requestLanguage(i18n.language),
      });
      if (request) onCreated(request, duplicate);
      else {
        setDuplicateElsewhere(true);
        requestAnimationFrame(() => failureRef.current?.focus());
      }
    } catch (error) {
      const fields = invalidRequestFields(error);
      if (fields.length > 0) {
        fields.forEach((field, index) =>
          setError(
            field,
            { type: 'server', message: requestValidationKey(field, getValues(field)) },
            { shouldFocus: index === 0 },
          ),
        );
        return;
      }
      if (isApiError(error) && error.status === 429) {
        const minutes = Math.max(1, Math.ceil((error.retryAfterSeconds ?? 60) / 60));
        setFailure(t('requests:form.tooManyRequests', { count: minutes }));
      } else {
        setFailure(errorMessage(error));
      }
      requestAnimationFrame(() => failureRef.current?.focus());
    }
  });

  const locationNote: Record<LocationStatus, string | null> = {
    idle: null,
    locating: t('requests:form.locating'),
    found: t('requests:form.locationFound'),
    denied: t('requests:form.locationDenied'),
    unavailable: t('requests:form.locationUnavailable'),
  };

  return (
    <form
      noValidate={isHydrated || !action}
      method={action ? 'post' : undefined}
      action={action}
      onSubmit={onSubmit}
      className="flex flex-col gap-8"
    >
      {action && <input type="hidden" name="language" value={i18n.language} />}
      <div ref={failureRef} tabIndex={-1} className="outline-none">
        {failure && <Alert variant="error" dismissible={false} message={failure} />}
        {duplicateElsewhere && (
          <Alert
            variant="info"
            dismissible={false}
            title={t('requests:form.duplicateTitle')}
            message={t('requests:form.duplicateElsewhere')}
          />
        )}
      </div>

      <section className="flex flex-col gap-5">
        <SectionHeading>{t('requests:form.patientSection')}</SectionHeading>
        <ChoiceGroup
          legend={t('requests:fields.bloodType')}
          error={message('bloodType')}
          options={BLOOD_TYPES.map((type) => ({ value: type, label: type }))}
          optionsClassName="grid-cols-4"
          registration={register('bloodType')}
          isRequired
        />
        <Field
          label={t('requests:fields.units')}
          hint={t('requests:fields.unitsHint', { max: BLOOD_REQUEST_LIMITS.maxUnits })}
          error={message('unitsNeeded')}
          isRequired
        >
          <Input
            type="number"
            inputMode="numeric"
            min={BLOOD_REQUEST_LIMITS.minUnits}
            max={BLOOD_REQUEST_LIMITS.maxUnits}
            className="max-w-24 text-center text-lg"
            defaultValue={defaults?.unitsNeeded ?? BLOOD_REQUEST_LIMITS.minUnits}
            required
            {...register('unitsNeeded', { valueAsNumber: true })}
          />
        </Field>
        <div className="-mt-3 flex gap-3">
          <Button
            type="button"
            variant="secondary"
            size="lg"
            onClick={() => stepUnits(-1)}
            disabled={Number(units) <= BLOOD_REQUEST_LIMITS.minUnits}
            aria-label={t('requests:fields.unitsLess')}
          >
            −
          </Button>
          <Button
            type="button"
            variant="secondary"
            size="lg"
            onClick={() => stepUnits(1)}
            disabled={Number(units) >= BLOOD_REQUEST_LIMITS.maxUnits}
            aria-label={t('requests:fields.unitsMore')}
          >
            +
          </Button>
        </div>
        <ChoiceGroup
          legend={t('requests:fields.urgency')}
          error={message('urgency')}
          options={URGENCIES.map((urgency) => ({
            value: urgency,
            label: (
              <span className="flex flex-col py-1 text-left">
                <span className="font-semibold">{t(`requests:urgency.${urgency}`)}</span>
                <span className="text-sm font-normal">{t(`requests:urgencyHint.${urgency}`)}</span>
              </span>
            ),
          }))}
          optionsClassName="grid-cols-1 sm:grid-cols-2"
          registration={register('urgency')}
          isRequired
        />
        <Field label={t('requests:fields.patientName')} error={message('patientName')}>
          <Input autoComplete="off" {...register('patientName')} />
        </Field>
      </section>

      <section className="flex flex-col gap-5">
        <SectionHeading>{t('requests:form.whereSection')}</SectionHeading>
        <Field
          label={t('requests:fields.hospital')}
          hint={t('requests:fields.hospitalHint')}
          error={message('hospitalName')}
          isRequired
        >
          <Input
            autoComplete="off"
            required
            aria-controls={facilities.length > 0 ? resultsId : undefined}
            {...register('hospitalName', {
              onChange: () => setValue('facilityId', ''),
            })}
          />
        </Field>
        {facilities.length > 0 && (
          <div className="-mt-3">
            <p className="text-sm text-slate-700">{t('requests:form.facilityResults')}</p>
            <ul id={resultsId} className="mt-1 flex flex-col gap-1">
              {facilities.map((facility) => (
                <li key={facility.id}>
                  <button
                    type="button"
                    onClick={() => pickFacility(facility)}
                    className="flex min-h-11 w-full flex-col items-start rounded-lg border border-slate-300 px-3 py-2 text-left hover:bg-slate-50 focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-primary-700"
                  >
                    <span className="font-semibold text-slate-900">{facility.name}</span>
                    <span className="text-sm text-slate-700">
                      {[facility.city ?? facility.district, facility.state]
                        .filter(Boolean)
                        .join(', ')}
                    </span>
                  </button>
                </li>
              ))}
            </ul>
          </div>
        )}
        <Field label={t('auth:fields.state')} error={message('state')} isRequired>
          <StateSelect autoComplete="address-level1" required {...register('state')} />
        </Field>
        <Field label={t('requests:fields.city')} error={message('city')} isRequired>
          <Input autoComplete="address-level2" required {...register('city')} />
        </Field>
        {canLocate && (
          <div className="flex flex-col gap-2">
            <Button
              type="button"
              variant="secondary"
              onClick={locate}
              isLoading={location === 'locating'}
              aria-describedby={locationNoteId}
            >
              {latitude === undefined
                ? t('requests:form.useLocation')
                : t('requests:form.updateLocation')}
            </Button>
            <p id={locationNoteId} aria-live="polite" className="text-sm text-slate-700">
              {locationNote[location] ?? t('requests:form.locationHint')}
            </p>
          </div>
        )}
      </section>

      <section className="flex flex-col gap-5">
        <SectionHeading>{t('requests:form.contactSection')}</SectionHeading>
        <p className="rounded-lg bg-slate-50 p-4 text-slate-800">
          {t('requests:form.contactPrivacy')}
        </p>
        <Field label={t('requests:fields.contactName')} error={message('contactName')} isRequired>
          <Input autoComplete="name" required {...register('contactName')} />
        </Field>
        <Field
          label={t('requests:fields.contactPhone')}
          hint={t('requests:fields.contactPhoneHint')}
          error={message('contactPhone')}
          isRequired
        >
          <Input
            type="tel"
            autoComplete="tel-national"
            inputMode="tel"
            required
            {...register('contactPhone')}
          />
        </Field>
        <Field
          label={t('requests:fields.requiredBy')}
          hint={t('requests:fields.requiredByHint')}
          error={message('requiredBy')}
        >
          <Input type="datetime-local" {...register('requiredBy')} />
        </Field>
        <Field
          label={t('requests:fields.notes')}
          hint={t('requests:fields.notesHint', { max: BLOOD_REQUEST_LIMITS.notesMax })}
          error={message('notes')}
        >
          <Textarea maxLength={BLOOD_REQUEST_LIMITS.notesMax} {...register('notes')} />
        </Field>
      </section>

      <Button type="submit" size="lg" fullWidth isLoading={isSubmitting}>
        {submitLabel ?? t('requests:form.submit')}
      </Button>
    </form>
  );
}
