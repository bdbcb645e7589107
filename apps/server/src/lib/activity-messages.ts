import type { ActivityItem } from '@bdms/shared';
import type { ActivityLogRow } from '../db/schema';

const DOCUMENT_NAMES: Record<string, string> = {
  id_proof: 'ID proof',
  address_proof: 'Address proof',
  medical_certificate: 'Medical certificate',
  photo: 'Photo',
};

type Message = string | ((details: Record<string, unknown>) => string);

const document = (details: Record<string, unknown>) =>
  DOCUMENT_NAMES[String(details.documentType)] ?? 'Document';

/**
 * Plain English for the donor's activity list (the web translates by `action`). Messages never
 * name the administrator who acted, nor anything personal.
 */
export const ACTIVITY_MESSAGES: Record<string, Message> = {
  'user.registered': 'You created your account.',
  'user.signed_in': (details) =>
    details.method === 'otp' ? 'Signed in with a one-time code.' : 'Signed in.',
  'user.updated': (details) =>
    Array.isArray(details.fields) && details.fields.length > 0
      ? `Profile updated: ${details.fields.join(', ')}.`
      : 'Profile updated.',
  'user.password_changed': 'Password changed.',
  'user.password_reset': 'Password reset with an e-mailed link.',
  'user.phone_change_requested':
    'Asked to change the phone number; a code was sent to the new number.',
  'user.phone_changed': 'Phone number changed after confirming the code sent to it.',
  'user.phone_verified': 'Phone number verified with the code sent to it.',
  'user.data_exported': 'A copy of the personal data was downloaded.',
  'document.uploaded': (details) => `${document(details)} uploaded.`,
  'document.verified': (details) => `${document(details)} verified.`,
  'document.rejected': (details) => `${document(details)} not accepted.`,
  'questionnaire.submitted': 'Health questionnaire submitted.',
  'donor.resubmitted': 'Registration sent for review again.',
  'donor.onboarding_completed': 'Onboarding completed; waiting for verification.',
  'donor.approved': 'Registration approved.',
  'donor.rejected': 'Registration not approved.',
  'donor.suspended': 'Account suspended.',
  'donor.reactivated': 'Account reactivated.',
  'donation.reported': 'Donation reported.',
  'donation.recorded': 'Donation recorded by a blood centre or hospital.',
  'availability.updated': (details) =>
    details.available ? 'Marked as available to donate.' : 'Marked as not available to donate.',
  'availability.lapsed': 'Availability ended (not confirmed for 90 days, or its end date passed).',
  'eligibility.reminded': 'Told you can give blood again.',
  'flags.updated': 'Feature flags changed.',
  'donor.viewed': 'An administrator opened your registration details.',
  'questionnaire.reviewed': (details) =>
    details.decision === 'accepted'
      ? 'Health questionnaire reviewed and accepted.'
      : 'Health questionnaire reviewed; not accepted.',
  'user.invitation_accepted': 'Password set from the invitation e-mail.',
  'settings.notifications.updated': 'Notification settings changed.',
  'donors.exported': 'Donor list exported.',
  'hospital.created': 'Hospital account created.',
  'hospital.disabled': 'Hospital account disabled.',
  'hospital.enabled': 'Hospital account enabled again.',
  'hospital.registered': 'Blood centre registered; waiting for verification.',
  'hospital.email_confirmed': 'Blood centre e-mail address confirmed.',
  'hospital.verified': 'Blood centre registration verified.',
  'hospital.rejected': 'Blood centre registration rejected.',
  'blood_request.created': 'Blood request made.',
  'blood_request.updated': 'Blood request details changed.',
  'blood_request.status_changed': (details) =>
    `Blood request ${String(details.trackingCode ?? '')} is now ${String(details.to ?? '').replace('_', ' ')}.`,
  'blood_request.responded': (details) =>
    details.response === 'accepted'
      ? 'You accepted a blood request.'
      : details.response === 'withdrawn'
        ? 'You withdrew from a blood request you had accepted.'
        : 'You declined a blood request.',
  'blood_request.contacts_viewed': 'Blood request contact details viewed.',
  'blood_request.donor_contacts_viewed': 'Accepted donors’ contact details viewed.',
};

export function activityMessage(row: Pick<ActivityLogRow, 'action' | 'details'>): string {
  const message = ACTIVITY_MESSAGES[row.action];
  if (typeof message === 'function') return message(row.details ?? {});
  if (message) return message;
  const words = row.action.replace(/[._]+/g, ' ').trim();
  return `${words.charAt(0).toUpperCase()}${words.slice(1)}.`;
}

export function toActivityItem(row: ActivityLogRow): ActivityItem {
  return {
    id: row.id,
    at: row.at.toISOString(),
    action: row.action,
    message: activityMessage(row),
  };
}
