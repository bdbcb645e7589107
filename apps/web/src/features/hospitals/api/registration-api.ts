import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  HospitalRegistrationResult,
  RegisterHospital,
  RegisterHospitalResult,
  RegistrationCodeSent,
} from '@bdms/shared';
import { api } from '../../../lib/api-client';

/** Calls of a blood centre's own registration (issue #17, flag `hospitalRegistration`). */

export const registrationKey = ['hospital-registration', 'me'] as const;

export function registerHospital(body: RegisterHospital): Promise<RegisterHospitalResult> {
  return api.post<RegisterHospitalResult>('/hospital-registrations', body, { auth: false });
}

export function useRegistrationStatus(enabled = true) {
  return useQuery({
    queryKey: registrationKey,
    queryFn: ({ signal }) =>
      api.get<HospitalRegistrationResult>('/hospital-registrations/me', { signal }),
    enabled,
  });
}

/** `…/me/email/code` or `…/me/phone/code`: a new code. */
export function useSendRegistrationCode() {
  return useMutation({
    mutationFn: (channel: 'email' | 'phone') =>
      api.post<RegistrationCodeSent>(`/hospital-registrations/me/${channel}/code`),
  });
}

/** `…/me/email/confirm` or `…/me/phone/confirm` with `{code}`. */
export function useConfirmRegistrationCode() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ channel, code }: { channel: 'email' | 'phone'; code: string }) =>
      api.post<HospitalRegistrationResult>(`/hospital-registrations/me/${channel}/confirm`, {
        code,
      }),
    onSuccess: (data) => queryClient.setQueryData(registrationKey, data),
  });
}
