import { useId, useMemo, useState } from 'react';
import { useForm, type FieldError, type UseFormRegister } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import {
  evaluateEligibility,
  isAdvisoryCondition,
  isIsoDate,
  isTimedCondition,
  type ConditionCode,
  type Questionnaire,
  type TimedCondition,
} from '@bdms/shared';
import { Alert } from '../../../../components/alert';
import { Button } from '../../../../components/button';
import { ChoiceGroup } from '../../../../components/choice-group';
import { Field, Input } from '../../../../components/field';
import { useToast } from '../../../../components/toast';
import { isApiError } from '../../../../lib/api-client';
import { localIsoDate } from '../../../../lib/dates';
import { useErrorMessage } from '../../../../lib/use-error-message';
import type onboarding from '../../../../i18n/locales/en/onboarding.json';
import { useSaveQuestionnaire } from '../../api/onboarding';
import {
  CONDITION_GROUPS,
  answersFrom,
  conditionsFor,
  formValuesFrom,
  parseDecimal,
  type QuestionnaireFormValues,
} from '../../onboarding/questionnaire-form';
import { EligibilitySummary } from './eligibility-summary';

type ErrorKey = keyof (typeof onboarding)['questionnaire']['errors'];

/** A past (or today's) real date, for the condition and last-donation dates. */
function checkPastDate(value: string | undefined): ErrorKey | true {
  if (!value) return 'dateRequired';
  if (!isIsoDate(value)) return 'dateInvalid';
  if (value > localIsoDate()) return 'dateFuture';
  return true;
}

function inRange(value: string, min: number, max: number): boolean {
  const number = parseDecimal(value);
  return number >= min && number <= max;
}

/**
 * Step 2: what the eligibility rules need, and nothing more (never an Aadhaar number): weight,
 * haemoglobin if known, first time or when last, feeling well, and the conditions by kind,
 * timed ones with their date. The verdict is previewed live with the server's own rules
 * (`evaluateEligibility`); "Save and continue" stores the answers (`PUT /users/{id}/questionnaire`).
 */
export function QuestionnaireStep({
  userId,
  questionnaire,
  dateOfBirth,
  gender,
  lastDonationAt,
  onSaved,
  onBack,
}: {
  userId: string;
  questionnaire: Questionnaire | null;
  dateOfBirth: string | null | undefined;
  gender: string | null | undefined;
  lastDonationAt: string | null | undefined;
  onSaved: () => void;
  onBack: () => void;
}) {
  const { t } = useTranslation('onboarding');
  const errorMessage = useErrorMessage();
  const toast = useToast();
  const save = useSaveQuestionnaire(userId);
  const [failure, setFailure] = useState<unknown>(null);
  const [hasInvalidSubmit, setHasInvalidSubmit] = useState(false);
  const previewId = useId();
  const today = localIsoDate();
  const {
    register,
    handleSubmit,
    watch,
    setError,
    getValues,
    formState: { errors, isSubmitting },
  } = useForm<QuestionnaireFormValues>({
    defaultValues: formValuesFrom(questionnaire?.answers),
    shouldFocusError: true,
  });

  const values = watch();
  const checked = new Set(values.conditions ?? []);
  const message = (error: FieldError | undefined) =>
    error?.message ? t(`questionnaire.errors.${error.message as ErrorKey}`) : undefined;

  // The same verdict the server will store, recomputed as the donor answers.
  const serialized = JSON.stringify(values);
  const preview = useMemo(() => {
    const answers = answersFrom(JSON.parse(serialized) as QuestionnaireFormValues);
    if (!answers) return null;
    return evaluateEligibility({
      dateOfBirth: dateOfBirth ?? null,
      gender: gender ?? null,
      answers,
      lastDonationAt: lastDonationAt ?? null,
    });
  }, [serialized, dateOfBirth, gender, lastDonationAt]);

  const onSubmit = handleSubmit(
    async (formValues) => {
      setFailure(null);
      setHasInvalidSubmit(false);
      const answers = answersFrom(formValues);
      if (!answers) return;
      try {
        await save.mutateAsync(answers);
        toast.success(t('questionnaire.saved'));
        onSaved();
      } catch (error) {
        // Dates the server refuses land on their fields; anything else above the buttons.
        const details = isApiError(error) && Array.isArray(error.details) ? error.details : [];
        let placed = false;
        for (const detail of details as { path?: string }[]) {
          const path = detail.path?.replace(/^body\.answers\./, '') ?? '';
          if (path === 'lastDonationDate' || path.startsWith('conditionDates.')) {
            setError(
              path as 'lastDonationDate',
              { message: 'dateInvalid' },
              { shouldFocus: !placed },
            );
            placed = true;
          }
        }
        if (!placed) setFailure(error);
      }
    },
    () => setHasInvalidSubmit(true),
  );

  const isFirstTime = values.firstTimeDonor;

  return (
    <form noValidate onSubmit={(event) => void onSubmit(event)} className="flex flex-col gap-8">
      <p className="max-w-3xl text-slate-700">{t('questionnaire.intro')}</p>
      {hasInvalidSubmit && Object.keys(errors).length > 0 && (
        <Alert variant="error" dismissible={false} message={t('questionnaire.errors.summary')} />
      )}

      <fieldset className="flex max-w-xl flex-col gap-5">
        <legend className="mb-3 text-xl font-semibold text-slate-900">
          {t('questionnaire.basics')}
        </legend>
        <Field
          label={t('questionnaire.weight')}
          hint={t('questionnaire.weightHint')}
          error={message(errors.weightKg)}
          isRequired
        >
          <Input
            inputMode="decimal"
            autoComplete="off"
            className="max-w-40"
            {...register('weightKg', {
              validate: (value) =>
                !value.trim() ? 'weightRequired' : inRange(value, 20, 300) || 'weightRange',
            })}
          />
        </Field>
        <Field
          label={t('questionnaire.hemoglobin')}
          hint={t('questionnaire.hemoglobinHint')}
          error={message(errors.hemoglobinGdl)}
        >
          <Input
            inputMode="decimal"
            autoComplete="off"
            className="max-w-40"
            {...register('hemoglobinGdl', {
              validate: (value) => !value.trim() || inRange(value, 3, 25) || 'hemoglobinRange',
            })}
          />
        </Field>
        <ChoiceGroup
          legend={t('questionnaire.firstTime')}
          error={message(errors.firstTimeDonor)}
          isRequired
          options={[
            { value: 'yes', label: t('questionnaire.yes') },
            { value: 'no', label: t('questionnaire.no') },
          ]}
          registration={register('firstTimeDonor', { required: 'choose' })}
        />
        {isFirstTime === 'no' && (
          <Field
            label={t('questionnaire.lastDonation')}
            hint={t('questionnaire.lastDonationHint')}
            error={message(errors.lastDonationDate)}
            isRequired
          >
            <Input
              type="date"
              max={today}
              className="max-w-56"
              {...register('lastDonationDate', {
                validate: (value) => getValues('firstTimeDonor') !== 'no' || checkPastDate(value),
              })}
            />
          </Field>
        )}
        <ChoiceGroup
          legend={t('questionnaire.feelsWell')}
          error={message(errors.feelsWell)}
          isRequired
          options={[
            { value: 'yes', label: t('questionnaire.yes') },
            { value: 'no', label: t('questionnaire.no') },
          ]}
          registration={register('feelsWell', { required: 'choose' })}
        />
      </fieldset>

      {CONDITION_GROUPS.map((group) => {
        const codes = conditionsFor(group.codes, gender);
        if (codes.length === 0) return null;
        return (
          <ConditionGroup
            key={group.key}
            groupKey={group.key}
            codes={codes}
            checked={checked}
            register={register}
            getValues={getValues}
            errors={errors.conditionDates}
            message={message}
            today={today}
          />
        );
      })}

      <section aria-labelledby={`${previewId}-heading`} className="flex flex-col gap-3">
        <h3 id={`${previewId}-heading`} className="text-xl font-semibold text-slate-900">
          {t('eligibility.heading')}
        </h3>
        {/* Polite and not atomic: only what changed in the verdict is read, when the donor pauses. */}
        <div aria-live="polite">
          {preview ? (
            <EligibilitySummary eligibility={preview} gender={gender} headingLevel="h4" />
          ) : (
            <p className="rounded-lg bg-slate-50 p-4 text-slate-700">
              {t('eligibility.incomplete')}
            </p>
          )}
        </div>
      </section>

      {failure !== null && (
        <Alert variant="error" dismissible={false} message={errorMessage(failure)} />
      )}
      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-between">
        <Button variant="secondary" size="lg" onClick={onBack}>
          {t('back')}
        </Button>
        <Button type="submit" size="lg" isLoading={isSubmitting}>
          {t('saveAndContinue')}
        </Button>
      </div>
    </form>
  );
}

function ConditionGroup({
  groupKey,
  codes,
  checked,
  register,
  getValues,
  errors,
  message,
  today,
}: {
  groupKey: (typeof CONDITION_GROUPS)[number]['key'];
  codes: ConditionCode[];
  checked: Set<ConditionCode>;
  register: UseFormRegister<QuestionnaireFormValues>;
  getValues: (name: 'conditions') => ConditionCode[];
  errors: Partial<Record<TimedCondition, FieldError>> | undefined;
  message: (error: FieldError | undefined) => string | undefined;
  today: string;
}) {
  const { t } = useTranslation('onboarding');
  const hintId = useId();
  return (
    <fieldset aria-describedby={hintId} className="flex flex-col gap-2">
      <legend className="text-xl font-semibold text-slate-900">
        {t(`questionnaire.groups.${groupKey}.legend`)}
      </legend>
      <p id={hintId} className="mb-1 text-slate-700">
        {t(`questionnaire.groups.${groupKey}.hint`)}
      </p>
      <ul className="grid gap-2 md:grid-cols-2">
        {codes.map((code) => {
          const isChecked = checked.has(code);
          const dateError = isTimedCondition(code) ? errors?.[code] : undefined;
          return (
            <li
              key={code}
              className="rounded-lg border-2 border-slate-300 bg-white has-[:checked]:border-slate-700 has-[:checked]:bg-slate-50"
            >
              <label className="flex min-h-12 cursor-pointer items-center gap-3 px-3 py-2 font-medium text-slate-900">
                <input
                  type="checkbox"
                  value={code}
                  className="size-5 shrink-0 accent-primary-700"
                  {...register('conditions')}
                />
                <span>{t(`questionnaire.conditions.${code}`)}</span>
              </label>
              {isChecked && isAdvisoryCondition(code) && (
                <p className="px-3 pb-3 text-slate-700">{t(`questionnaire.advice.${code}`)}</p>
              )}
              {isChecked && isTimedCondition(code) && (
                <Field
                  label={t(`questionnaire.conditionDates.${code}`)}
                  error={message(dateError)}
                  isRequired
                  className="px-3 pb-3"
                >
                  <Input
                    type="date"
                    max={today}
                    className="max-w-56"
                    {...register(`conditionDates.${code}`, {
                      validate: (value) =>
                        !getValues('conditions').includes(code) || checkPastDate(value),
                    })}
                  />
                </Field>
              )}
            </li>
          );
        })}
      </ul>
    </fieldset>
  );
}
