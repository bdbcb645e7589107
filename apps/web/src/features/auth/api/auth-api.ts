import type {
  AccountExport,
  AvailabilityResult,
  ChangePassword,
  ChangePasswordResult,
  PhoneCodeSent,
  PasswordResetResult,
  UpdateProfile,
  UpdateUserResult,
  UserResult,
} from '@bdms/shared';
import { api, apiRequest } from '../../../lib/api-client';

/**
 * The account calls the form screens make (API.md "Auth" and "Users"). Sign-in, sign-up and
 * the session's own calls live in the AuthProvider, which stores what they return.
 */

/** `POST /auth/check-email` (rate-limited; the register form ignores its failures). */
export function checkEmail(email: string, signal?: AbortSignal): Promise<AvailabilityResult> {
  return api.post('/auth/check-email', { email }, { auth: false, signal });
}

/** `POST /auth/check-phone`, with the number already in E.164. */
export function checkPhone(phone: string, signal?: AbortSignal): Promise<AvailabilityResult> {
  return api.post('/auth/check-phone', { phone }, { auth: false, signal });
}

/** `POST /auth/reset-password` with `{email}`: always `{sent: true}`, whoever asks. */
export function requestPasswordReset(email: string): Promise<{ sent: true }> {
  return api.post('/auth/reset-password', { email }, { auth: false });
}

/** `POST /auth/reset-password` with `{token, password}`; 400 INVALID_RESET_TOKEN. */
export function resetPassword(token: string, password: string): Promise<PasswordResetResult> {
  return api.post('/auth/reset-password', { token, password }, { auth: false });
}

/**
 * `PATCH /users/{id}`: only the changed fields; 409 BLOOD_TYPE_LOCKED. A new phone is not applied:
 * `phoneChange` says a code was sent to it (409 SMS_UNAVAILABLE when SMS is not available).
 */
export function updateProfile(userId: string, changes: UpdateProfile): Promise<UpdateUserResult> {
  return api.patch(`/users/${encodeURIComponent(userId)}`, changes);
}

/** `POST /users/{id}/phone/confirm {code}`: applies the new phone; 400 INVALID_PHONE_CODE. */
export function confirmPhoneChange(userId: string, code: string): Promise<UserResult> {
  return api.post(`/users/${encodeURIComponent(userId)}/phone/confirm`, { code });
}

/** Extension `POST /users/{id}/password`: new tokens keep this device signed in. */
export function changePassword(
  userId: string,
  body: ChangePassword,
): Promise<ChangePasswordResult> {
  return api.post(`/users/${encodeURIComponent(userId)}/password`, body);
}

/** `GET /users/{id}/export`: everything the service holds about the user (DPDP Act, access). */
export function exportMyData(userId: string): Promise<AccountExport> {
  return api.get(`/users/${encodeURIComponent(userId)}/export`);
}

/**
 * `DELETE /users/{id} {password}`: erases the account. A wrong or missing password is 400 on
 * `body.password`; the last administrator cannot erase themself (409).
 */
export function deleteAccount(userId: string, password: string): Promise<{ deleted: true }> {
  return apiRequest(`/users/${encodeURIComponent(userId)}`, {
    method: 'DELETE',
    body: { password },
  });
}

/** `POST /users/{id}/phone/verification`: a code by SMS to the account's phone. */
export function sendPhoneVerification(userId: string): Promise<PhoneCodeSent> {
  return api.post(`/users/${encodeURIComponent(userId)}/phone/verification`, {});
}

/** `POST /users/{id}/phone/verify {code}`: marks the phone verified; 400 INVALID_PHONE_CODE. */
export function verifyPhone(userId: string, code: string): Promise<UserResult> {
  return api.post(`/users/${encodeURIComponent(userId)}/phone/verify`, { code });
}
