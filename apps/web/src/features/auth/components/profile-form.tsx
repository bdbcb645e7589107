import { useEffect, useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import { BLOOD_TYPES, type UpdateProfile } from '@bdms/shared';
import { Button } from '../../../components/button';
import { Field, Input } from '../../../components/field';
import { useToast } from '../../../components/toast';
import { updateProfile } from '../api/auth-api';
import { useAuthActions } from '../auth-context';
import {
  createProfileFormSchema,
  type ProfileFormInput,
  type ProfileFormOutput,
} from '../forms/schemas';
import { applyServerErrors, useFieldMessage, withMessageKeys } from '../forms/validation';
import type { User } from '../types';
import { ChoiceGroup } from '../../../components/choice-group';
import { PhoneChangeConfirm } from './phone-change-confirm';
import { PhoneVerification } from './phone-verification';
import { FormError } from './sign-in-form';
import { StateSelect } from './state-select';

const FIELDS = ['fullName', 'phone', 'city', 'state', 'pincode', 'bloodType'] as const;

/** The phone as the user knows it: 10 digits, without +91. */
function localPhone(user: User): string {
  const phone = user.phone ?? user.phoneNumber ?? '';
  return phone.startsWith('+91') ? phone.slice(3) : phone;
}

function toFormValues(user: User): ProfileFormInput {
  return {
    fullName: user.fullName ?? user.name ?? '',
    phone: localPhone(user),
    city: user.city ?? '',
    state: user.state ?? '',
    pincode: user.pincode ?? '',
    bloodType: user.bloodType ?? undefined,
  };
}

/** Only what changed is sent (`PATCH /users/{id}` refuses an empty body). */
function changedFields(user: User, values: ProfileFormOutput, canEditBloodType: boolean) {
  const changes: UpdateProfile = {};
  if (values.fullName !== (user.fullName ?? user.name ?? '')) changes.fullName = values.fullName;
  if (values.phone && values.phone !== (user.phone ?? user.phoneNumber)) {
    changes.phone = values.phone;
  }
  if (values.city && values.city !== user.city) changes.city = values.city;
  if (values.state && values.state !== user.state) changes.state = values.state;
  if (values.pincode !== (user.pincode ?? null)) changes.pincode = values.pincode;
  if (canEditBloodType && values.bloodType && values.bloodType !== user.bloodType) {
    changes.bloodType = values.bloodType;
  }
  return changes;
}

/**
 * Edits one's own profile: name, phone, city, state, PIN code, and the blood type while the
 * donor is still pending (API.md: 409 BLOOD_TYPE_LOCKED afterwards). The e-mail is shown only.
 */
export function ProfileForm({ user }: { user: User }) {
  const { t } = useTranslation('auth');
  const toast = useToast();
  const { updateUser } = useAuthActions();
  const fieldMessage = useFieldMessage();
  const [failure, setFailure] = useState<unknown>(null);
  /** The new phone waiting for its SMS code (the account keeps the old one until then). */
  const [pendingPhone, setPendingPhone] = useState<string | null>(null);
  const isDonor = user.role === 'donor';
  const canEditBloodType = isDonor && (user.status ?? 'pending') === 'pending';
  const hasPhone = Boolean(user.phone ?? user.phoneNumber);

  const schema = useMemo(
    () =>
      createProfileFormSchema({
        phone: isDonor || hasPhone,
        city: isDonor || Boolean(user.city),
        state: isDonor || Boolean(user.state),
      }),
    [isDonor, hasPhone, user.city, user.state],
  );
  const {
    register,
    handleSubmit,
    setError,
    getValues,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<ProfileFormInput, unknown, ProfileFormOutput>({
    resolver: withMessageKeys(zodResolver(schema)),
    defaultValues: toFormValues(user),
  });

  // A newer user (saved, or confirmed by the server) updates the form, keeping unsaved edits.
  useEffect(() => {
    reset(toFormValues(user), { keepDirtyValues: true });
  }, [user, reset]);

  const onSubmit = handleSubmit(async (values) => {
    setFailure(null);
    const changes = changedFields(user, values, canEditBloodType);
    if (Object.keys(changes).length === 0) {
      toast.info(t('profile.noChanges'));
      return;
    }
    try {
      const { user: updated, phoneChange } = await updateProfile(user.id, changes);
      await updateUser(updated);
      reset(toFormValues(updated as User));
      setPendingPhone(phoneChange?.phone ?? null);
      // With only the phone changed, nothing is saved yet: the code panel says what happens.
      if (!phoneChange || Object.keys(changes).length > 1) toast.success(t('profile.saved'));
    } catch (error) {
      if (!applyServerErrors(error, { setError, getValues }, FIELDS)) setFailure(error);
    }
  });

  const message = (field: (typeof FIELDS)[number]) => fieldMessage(errors[field]);

  return (
    <div className="flex flex-col gap-5">
      {!pendingPhone && <PhoneVerification user={user} />}
      {pendingPhone && (
        <PhoneChangeConfirm
          userId={user.id}
          phone={pendingPhone}
          onDone={() => setPendingPhone(null)}
        />
      )}
      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-5">
        <FormError error={failure} />
        <Field label={t('fields.email')} hint={t('profile.emailHint')}>
          <Input type="email" value={user.email} readOnly className="bg-slate-100!" />
        </Field>
        <Field label={t('fields.fullName')} error={message('fullName')} isRequired>
          <Input autoComplete="name" {...register('fullName')} />
        </Field>
        <Field
          label={t('fields.phone')}
          hint={t('fields.phoneHint')}
          error={message('phone')}
          isRequired={isDonor || hasPhone}
        >
          <Input type="tel" autoComplete="tel-national" inputMode="tel" {...register('phone')} />
        </Field>
        {canEditBloodType ? (
          <ChoiceGroup
            legend={t('fields.bloodType')}
            hint={t('fields.bloodTypeHint')}
            error={message('bloodType')}
            options={BLOOD_TYPES.map((type) => ({ value: type, label: type }))}
            optionsClassName="grid-cols-4"
            registration={register('bloodType')}
          />
        ) : (
          isDonor &&
          user.bloodType && (
            <div className="flex flex-col gap-1.5">
              <p className="font-semibold text-slate-900">{t('fields.bloodType')}</p>
              <p className="text-2xl font-bold text-primary-800">{user.bloodType}</p>
              <p className="text-sm text-slate-700">{t('profile.bloodTypeLocked')}</p>
            </div>
          )
        )}
        <Field label={t('fields.state')} error={message('state')} isRequired={isDonor}>
          <StateSelect
            autoComplete="address-level1"
            currentValue={user.state}
            {...register('state')}
          />
        </Field>
        <Field label={t('fields.city')} error={message('city')} isRequired={isDonor}>
          <Input autoComplete="address-level2" {...register('city')} />
        </Field>
        <Field
          label={t('fields.pincode')}
          hint={t('fields.pincodeHint')}
          error={message('pincode')}
        >
          <Input
            inputMode="numeric"
            autoComplete="postal-code"
            maxLength={6}
            className="max-w-40"
            {...register('pincode')}
          />
        </Field>
        <Button type="submit" size="lg" isLoading={isSubmitting} className="self-start">
          {t('profile.save')}
        </Button>
      </form>
    </div>
  );
}
