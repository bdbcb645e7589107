import { z } from 'zod';
import { plainText } from './text';
import { isoDateSchema } from './auth';

/**
 * Contracts of the donor's journey (API.md "Users", "Documents"; issue "The donor's journey").
 * The eligibility rules themselves live in eligibility.ts.
 */

/** Conditions a donor can report, by how they defer (API.md "Users", questionnaire). */
export const TIMED_CONDITIONS = [
  'tattoo_piercing',
  'transfusion_received',
  'major_surgery',
  'minor_surgery',
  'delivery',
  'abortion',
  'malaria',
  'typhoid',
  'dengue_chikungunya',
  'tuberculosis',
  'hepatitis_a_e',
  'antibiotics',
  'vaccine_inactivated',
  'vaccine_live',
  'rabies_post_exposure',
  'hepatitis_contact',
  // Asked since issue #14 (NBTC 2017 and its COVID-19 advisories); periods in eligibility.ts.
  'covid_infection',
  'covid_contact',
  'covid_vaccine',
  'malaria_travel',
  'zika_travel',
  'dental_work',
  'alcohol',
  'hepatitis_b_immunoglobulin',
  // Asked since issue #32 item 5 (NBTC 2017); periods and sources in eligibility.ts.
  'bone_marrow_harvest',
  'stem_cell_harvest',
  'imprisonment',
] as const;
export const CURRENT_CONDITIONS = [
  'pregnant',
  'breastfeeding',
  'cold_flu',
  'menstruating',
] as const;
export const PERMANENT_CONDITIONS = [
  'hepatitis_b_c',
  'hiv',
  'heart_disease',
  'diabetes_insulin',
  'cancer',
  'bleeding_disorder',
  'epilepsy',
  'organ_transplant',
  // Asked since issue #14 (NBTC 2017 permanent deferrals); sources in eligibility.ts.
  'high_risk_behaviour',
  'kidney_disease',
  'liver_disease',
  'lung_disease',
  'asthma_steroids',
  'mental_illness',
  'leprosy',
  'sexually_transmitted_infection',
  'endocrine_disorder',
  'cjd_risk',
  'polycythaemia',
] as const;
/**
 * Facts recorded that defer nobody but change what the donor is told (issue #32 item 5: a
 * hazardous occupation; the advice and its source are in eligibility.ts `ADVISORIES`).
 */
export const ADVISORY_CONDITIONS = ['hazardous_occupation'] as const;
export const CONDITION_CODES = [
  ...TIMED_CONDITIONS,
  ...CURRENT_CONDITIONS,
  ...PERMANENT_CONDITIONS,
  ...ADVISORY_CONDITIONS,
] as const;
export type TimedCondition = (typeof TIMED_CONDITIONS)[number];
export type ConditionCode = (typeof CONDITION_CODES)[number];

const TIMED = new Set<string>(TIMED_CONDITIONS);
export function isTimedCondition(code: string): code is TimedCondition {
  return TIMED.has(code);
}
export type AdvisoryCondition = (typeof ADVISORY_CONDITIONS)[number];
const ADVISORY = new Set<string>(ADVISORY_CONDITIONS);
export function isAdvisoryCondition(code: string): code is AdvisoryCondition {
  return ADVISORY.has(code);
}

/** `PUT /users/{id}/questionnaire` body: only what eligibility needs; never an Aadhaar number. */
export const questionnaireAnswersSchema = z
  .object({
    weightKg: z.number().min(20).max(300),
    /** g/dL, when the donor knows it (from a recent test). */
    hemoglobinGdl: z.number().min(3).max(25).optional(),
    firstTimeDonor: z.boolean(),
    /** YYYY-MM-DD of the last whole-blood donation, if any. */
    lastDonationDate: isoDateSchema.optional(),
    feelsWell: z.boolean(),
    conditions: z.array(z.enum(CONDITION_CODES)).max(CONDITION_CODES.length),
    /**
     * YYYY-MM-DD per timed condition: the event, recovery, cure, last dose or release the period
     * runs from (surgery: the day of full recovery, NBTC 2017, issue #32 item 5).
     */
    conditionDates: z.record(z.string(), isoDateSchema).optional(),
  })
  .superRefine((answers, ctx) => {
    const dates = answers.conditionDates ?? {};
    for (const code of answers.conditions) {
      if (isTimedCondition(code) && !dates[code]) {
        ctx.addIssue({
          code: 'custom',
          path: ['conditionDates', code],
          message: 'This condition needs its date.',
        });
      }
    }
    for (const key of Object.keys(dates)) {
      if (!isTimedCondition(key)) {
        ctx.addIssue({
          code: 'custom',
          path: ['conditionDates', key],
          message: 'Not a timed condition.',
        });
      }
    }
  });
export type QuestionnaireAnswers = z.infer<typeof questionnaireAnswersSchema>;
export const putQuestionnaireSchema = z.object({ answers: questionnaireAnswersSchema });

export const deferralSchema = z.object({
  /** A condition code, or a rule code such as `underweight`, `low_hemoglobin`, `donation_interval`, `age`. */
  code: z.string(),
  message: z.string(),
  /** ISO date-time when the deferral ends; absent for permanent or "while it lasts" deferrals. */
  until: z.string().optional(),
  permanent: z.boolean().optional(),
});
export type Deferral = z.infer<typeof deferralSchema>;

export const eligibilityResultSchema = z.object({
  eligible: z.boolean(),
  /** ISO date-time from which the donor may give again; null when permanently deferred or unknown. */
  nextEligibleAt: z.string().nullable(),
  deferrals: z.array(deferralSchema),
  /** Extension: the most the donor may give by weight (350 or 450 ml); null when underweight. */
  maxVolumeMl: z.number().int().nullable().optional(),
});
export type EligibilityResult = z.infer<typeof eligibilityResultSchema>;

export const QUESTIONNAIRE_REVIEW_DECISIONS = ['accepted', 'rejected'] as const;
/**
 * Why the answers wait for an administrator's review, out of matching until one decides:
 * the donor changed answers an administrator had rejected, or removed a permanent deferral
 * (NBTC 2017: such a deferral does not end; a donor who withdraws one is asked why).
 */
export const QUESTIONNAIRE_REVIEW_REASONS = [
  'changed_after_rejection',
  'permanent_deferral_removed',
] as const;
export type QuestionnaireReviewReason = (typeof QUESTIONNAIRE_REVIEW_REASONS)[number];
export const questionnaireSchema = z.object({
  answers: questionnaireAnswersSchema,
  submittedAt: z.string(),
  eligible: z.boolean(),
  nextEligibleAt: z.string().nullable(),
  deferrals: z.array(deferralSchema),
  /** Extension: as in eligibilityResultSchema. */
  maxVolumeMl: z.number().int().nullable().optional(),
  review: z
    .object({
      decision: z.enum(QUESTIONNAIRE_REVIEW_DECISIONS),
      notes: z.string().nullable(),
      reviewedAt: z.string(),
      reviewedBy: z.string(),
    })
    .nullable()
    .optional(),
  /**
   * Extension: set while the answers wait for an administrator's review (the donor is not
   * matched meanwhile); null otherwise.
   */
  reviewRequired: z.enum(QUESTIONNAIRE_REVIEW_REASONS).nullable().optional(),
});
export type Questionnaire = z.infer<typeof questionnaireSchema>;

export const DOCUMENT_TYPES = [
  'id_proof',
  'address_proof',
  'medical_certificate',
  'photo',
] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];
export const DOCUMENT_MIME_TYPES = [
  'application/pdf',
  'image/jpeg',
  'image/png',
  'image/webp',
] as const;
export const DOCUMENT_MAX_BYTES = 5 * 1024 * 1024;

export const documentSchema = z.object({
  id: z.string(),
  type: z.enum(DOCUMENT_TYPES),
  fileName: z.string(),
  mimeType: z.enum(DOCUMENT_MIME_TYPES),
  size: z.number().int(),
  verified: z.boolean(),
  rejectionReason: z.string().nullable(),
  /** Extension: derived from verified + rejectionReason, for the screens. */
  status: z.enum(['pending', 'verified', 'rejected']),
  uploadedAt: z.string(),
});
export type DonorDocument = z.infer<typeof documentSchema>;

export const ONBOARDING_STEPS = ['documents', 'questionnaire', 'review'] as const;
export const onboardingStatusSchema = z.object({
  status: z.string(),
  documentsUploaded: z.boolean(),
  questionnaireCompleted: z.boolean(),
  onboardingCompleted: z.boolean(),
  steps: z.array(z.object({ key: z.enum(ONBOARDING_STEPS), done: z.boolean() })),
  /** Extension: whether an ID proof is required (the documentUpload flag). */
  idProofRequired: z.boolean(),
  rejectionReason: z.string().nullable(),
});
export type OnboardingStatus = z.infer<typeof onboardingStatusSchema>;

export const donorStatsSchema = z.object({
  totalDonations: z.number().int(),
  lastDonationAt: z.string().nullable(),
  nextEligibleAt: z.string().nullable(),
  /** Each whole-blood unit can help up to three patients (red cells, plasma, platelets). */
  livesImpacted: z.number().int(),
  requestsResponded: z.number().int(),
});
export type DonorStats = z.infer<typeof donorStatsSchema>;

export const donationSchema = z.object({
  id: z.string(),
  donatedAt: z.string(),
  units: z.number().int(),
  place: z.string(),
  facilityId: z.string().nullable().optional(),
  requestId: z.string().nullable().optional(),
  verified: z.boolean(),
  certificateAvailable: z.boolean(),
  /** Extension: set when a certificate exists. */
  certificateNumber: z.string().nullable().optional(),
  /**
   * Extension: a verified donation recorded for a donor who had not accepted one of the
   * recording hospital's requests (they walked in). Administrators see these in the donor's list.
   */
  walkIn: z.boolean().optional(),
});
export type Donation = z.infer<typeof donationSchema>;

/** `POST /users/{id}/donations`: a donation made elsewhere (unverified; hides the donor from matching). */
export const reportDonationSchema = z.object({
  donatedAt: isoDateSchema,
  place: plainText(z.string().trim().min(2).max(200)),
});
export type ReportDonation = z.infer<typeof reportDonationSchema>;

export const activityItemSchema = z.object({
  id: z.string(),
  at: z.string(),
  action: z.string(),
  message: z.string(),
});
export type ActivityItem = z.infer<typeof activityItemSchema>;

/** Availability goes stale after 90 days without reconfirmation. */
export const AVAILABILITY_TTL_DAYS = 90;
/** Extension: `PUT /users/{id}/availability`. */
export const setAvailabilitySchema = z.object({
  available: z.boolean(),
  /** YYYY-MM-DD: available until (inclusive), at most 90 days ahead. */
  until: isoDateSchema.nullable().optional(),
});
export type SetAvailability = z.infer<typeof setAvailabilitySchema>;
export const availabilitySchema = z.object({
  available: z.boolean(),
  until: z.string().nullable(),
  confirmedAt: z.string().nullable(),
  /** When availability lapses unless reconfirmed. */
  expiresAt: z.string().nullable(),
  needsReconfirmation: z.boolean(),
});
export type Availability = z.infer<typeof availabilitySchema>;

/** Extension: public `GET /api/v1/certificates/{number}` (the certificate's verification URL). */
export const certificateVerificationSchema = z.object({
  valid: z.boolean(),
  certificateNumber: z.string(),
  /** First name and last initial only. */
  donorName: z.string().nullable(),
  donatedAt: z.string().nullable(),
  place: z.string().nullable(),
  bloodType: z.string().nullable(),
});
export type CertificateVerification = z.infer<typeof certificateVerificationSchema>;

export const notificationSchema = z.object({
  id: z.string(),
  type: z.string(),
  title: z.string(),
  message: z.string(),
  link: z.string().nullable().optional(),
  readAt: z.string().nullable(),
  createdAt: z.string(),
});
export type AppNotification = z.infer<typeof notificationSchema>;

export const pushSubscriptionSchema = z.object({
  subscription: z.object({
    endpoint: z.url().max(2048),
    expirationTime: z.number().nullable().optional(),
    keys: z.object({ p256dh: z.string().min(1).max(512), auth: z.string().min(1).max(512) }),
  }),
});
export type PushSubscriptionBody = z.infer<typeof pushSubscriptionSchema>;
