import { useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  ONBOARDING_STEPS,
  type DonorDocument,
  type OnboardingStatus,
  type Questionnaire,
} from '@bdms/shared';
import { Alert } from '../../../../components/alert';
import { Button } from '../../../../components/button';
import { LinkButton } from '../../../../components/link-button';
import { LoadError, LoadingState } from '../../../../components/query-state';
import { api } from '../../../../lib/api-client';
import { donorKeys } from '../../api/keys';
import { useDocuments, useOnboardingStatus, useQuestionnaire } from '../../api/onboarding';
import {
  clearSavedStep,
  readSavedStep,
  saveStep,
  type OnboardingStep,
} from '../../onboarding/step-store';
import { StatusBanner, donorStatusKind } from '../status-banner';
import { DocumentsStep, hasUsableIdProof } from './documents-step';
import { EligibilitySummary } from './eligibility-summary';
import { QuestionnaireStep } from './questionnaire-step';
import { AnswersSummary, DocumentsSummary } from './registration-summary';
import { StepNav } from './step-nav';

/** What the onboarding reads of the signed-in donor. */
export interface OnboardingDonor {
  id: string;
  status?: string | undefined;
  dateOfBirth?: string | null | undefined;
  gender?: string | null | undefined;
  lastDonationAt?: string | null | undefined;
  rejectionReason?: string | null | undefined;
  suspensionReason?: string | null | undefined;
}

/** The first step the server says is not done (review when everything else is). */
function firstOpenStep(status: OnboardingStatus): OnboardingStep {
  return status.steps.find((step) => !step.done && step.key !== 'review')?.key ?? 'review';
}

/**
 * The donor's registration (`/onboarding`, `/donor/onboarding`): a three-step stepper
 * (documents, health questions, review and submit) while it is incomplete, rejected, or being
 * changed; otherwise where it stands. The server holds what was entered; this device remembers
 * the step, so a reload resumes there.
 *
 * `onStatusChange` is called after a change that may move the donor's status (a rejected donor
 * who changes something goes back to pending), so the page can refresh the signed-in user.
 */
export function OnboardingFlow({
  donor,
  onStatusChange,
}: {
  donor: OnboardingDonor;
  onStatusChange: () => Promise<unknown>;
}) {
  const { t } = useTranslation(['onboarding', 'donors']);
  const queryClient = useQueryClient();
  const statusQuery = useOnboardingStatus(donor.id);
  const documentsQuery = useDocuments(donor.id);
  const questionnaireQuery = useQuestionnaire(donor.id);
  const [step, setStep] = useState<OnboardingStep | null>(() => readSavedStep(donor.id));
  const [hasJustSubmitted, setHasJustSubmitted] = useState(false);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const thanksRef = useRef<HTMLDivElement>(null);
  /** Where a donor with no saved step starts, fixed once: the step changes only when they move. */
  const startStep = useRef<OnboardingStep | null>(null);
  const previousStep = useRef(step);

  // A step change moves focus (and the view) to the new step's heading; a submission, to the
  // thanks that replaces the stepper.
  useEffect(() => {
    if (previousStep.current === step) return;
    previousStep.current = step;
    headingRef.current?.focus();
  }, [step]);
  useEffect(() => {
    if (hasJustSubmitted) thanksRef.current?.focus();
  }, [hasJustSubmitted]);
  // An administrator may have acted since the session's user was cached (5 minutes): when the
  // server's status differs, refresh the user so the route guard lets an approved donor through.
  const serverStatus = statusQuery.data?.status;
  useEffect(() => {
    if (serverStatus && serverStatus !== (donor.status ?? 'pending')) void onStatusChange();
  }, [serverStatus, donor.status, onStatusChange]);

  const goTo = (next: OnboardingStep | null) => {
    if (next) saveStep(donor.id, next);
    else clearSavedStep(donor.id);
    setHasJustSubmitted(false);
    setStep(next);
  };

  const queries = [statusQuery, documentsQuery, questionnaireQuery];
  const failed = queries.find((query) => query.isError);
  if (failed) {
    return (
      <div className="mt-6 max-w-2xl">
        <LoadError
          error={failed.error}
          onRetry={() => queries.forEach((query) => void query.refetch())}
        >
          <p className="font-semibold">{t('loadFailed')}</p>
        </LoadError>
      </div>
    );
  }
  if (!statusQuery.data || !documentsQuery.data || questionnaireQuery.data === undefined) {
    return <LoadingState />;
  }

  const status = statusQuery.data;
  const documents = documentsQuery.data;
  const questionnaire = questionnaireQuery.data;
  const kind = donorStatusKind({
    status: status.status,
    onboardingCompleted: status.onboardingCompleted,
  });
  const isRejected = kind === 'rejected';
  const showStepper =
    kind !== 'suspended' && (step !== null || !status.onboardingCompleted || isRejected);

  const afterChange = async () => {
    if (isRejected) await onStatusChange();
  };

  if (!showStepper) {
    return (
      <div className="mt-6 flex max-w-3xl flex-col gap-5">
        {hasJustSubmitted && (
          <div ref={thanksRef} tabIndex={-1}>
            <Alert variant="success" dismissible={false} title={t('summary.thanks')} />
          </div>
        )}
        <StatusBanner
          kind={kind}
          reason={kind === 'suspended' ? donor.suspensionReason : status.rejectionReason}
          showAction={false}
        />
        <DocumentsSummary documents={documents} idProofRequired={status.idProofRequired} />
        <AnswersSummary questionnaire={questionnaire} />
        {questionnaire && <EligibilitySummary eligibility={questionnaire} gender={donor.gender} />}
        <div className="flex flex-col gap-3 sm:flex-row">
          {kind === 'approved' && (
            <LinkButton to="/dashboard" size="lg">
              {t('summary.dashboard')}
            </LinkButton>
          )}
          {kind !== 'suspended' && (
            <Button variant="secondary" size="lg" onClick={() => goTo('documents')}>
              {t('summary.edit')}
            </Button>
          )}
        </div>
      </div>
    );
  }

  startStep.current ??= isRejected ? 'documents' : firstOpenStep(status);
  const current = step ?? startStep.current;
  const index = ONBOARDING_STEPS.indexOf(current);
  const done = Object.fromEntries(status.steps.map((entry) => [entry.key, entry.done]));

  return (
    <div className="mt-6 flex flex-col gap-6">
      {isRejected && (
        <StatusBanner
          kind="rejected"
          reason={status.rejectionReason ?? donor.rejectionReason}
          showAction={false}
          className="max-w-3xl"
        />
      )}
      <StepNav current={current} done={done} onSelect={goTo} />
      <section aria-labelledby="onboarding-step-heading" className="flex flex-col gap-4">
        <div>
          <p className="text-sm font-semibold tracking-wide text-slate-700 uppercase">
            {t('stepOf', { step: index + 1, total: ONBOARDING_STEPS.length })}
          </p>
          <h2
            ref={headingRef}
            id="onboarding-step-heading"
            tabIndex={-1}
            className="scroll-mt-4 text-2xl font-bold text-slate-900"
          >
            {current === 'documents'
              ? t('documents.heading')
              : current === 'questionnaire'
                ? t('questionnaire.heading')
                : t('review.heading')}
          </h2>
        </div>
        {current === 'documents' && (
          <DocumentsStep
            userId={donor.id}
            documents={documents}
            idProofRequired={status.idProofRequired}
            onContinue={() => goTo('questionnaire')}
            onUploaded={() => void afterChange()}
          />
        )}
        {current === 'questionnaire' && (
          <QuestionnaireStep
            userId={donor.id}
            questionnaire={questionnaire}
            dateOfBirth={donor.dateOfBirth}
            gender={donor.gender}
            lastDonationAt={donor.lastDonationAt}
            onBack={() => goTo('documents')}
            onSaved={() => {
              void afterChange();
              goTo('review');
            }}
          />
        )}
        {current === 'review' && (
          <ReviewStep
            donor={donor}
            status={status}
            documents={documents}
            questionnaire={questionnaire}
            onEdit={goTo}
            onSubmitted={async () => {
              await onStatusChange();
              await queryClient.invalidateQueries({ queryKey: donorKeys.all(donor.id) });
              goTo(null);
              setHasJustSubmitted(true);
            }}
          />
        )}
      </section>
    </div>
  );
}

type Problem = 'missing' | 'stillRejected';

/**
 * Step 3: everything at a glance with links back, and "Submit for review". Answers and
 * documents are already stored; submitting checks with the server that the registration is
 * complete (and no longer the rejected one), then shows where it stands.
 */
function ReviewStep({
  donor,
  status,
  documents,
  questionnaire,
  onEdit,
  onSubmitted,
}: {
  donor: OnboardingDonor;
  status: OnboardingStatus;
  documents: readonly DonorDocument[];
  questionnaire: Questionnaire | null;
  onEdit: (step: OnboardingStep) => void;
  onSubmitted: () => Promise<void>;
}) {
  const { t } = useTranslation('onboarding');
  const queryClient = useQueryClient();
  const [problem, setProblem] = useState<Problem | null>(null);
  const [failure, setFailure] = useState<unknown>(null);
  const [isSubmitting, setIsSubmitting] = useState(false);
  const problemRef = useRef<HTMLDivElement>(null);

  const isMissingIdProof = status.idProofRequired && !hasUsableIdProof(documents);
  const isMissingAnswers = !status.questionnaireCompleted || !questionnaire;

  useEffect(() => {
    if (problem) problemRef.current?.focus();
  }, [problem]);

  const submit = async () => {
    setProblem(null);
    setFailure(null);
    setIsSubmitting(true);
    try {
      // Ask the server, not the cache: it decides whether the registration is complete.
      const fresh = await queryClient.fetchQuery({
        queryKey: donorKeys.onboardingStatus(donor.id),
        queryFn: () =>
          api.get<OnboardingStatus>(`/users/${encodeURIComponent(donor.id)}/onboarding-status`),
        staleTime: 0,
      });
      if (!fresh.onboardingCompleted) setProblem('missing');
      else if (fresh.status === 'rejected') setProblem('stillRejected');
      else await onSubmitted();
    } catch (error) {
      setFailure(error);
    } finally {
      setIsSubmitting(false);
    }
  };

  const editButton = (target: OnboardingStep, label: string) => (
    <Button variant="ghost" className="underline" onClick={() => onEdit(target)}>
      {label}
    </Button>
  );

  return (
    <div className="flex max-w-3xl flex-col gap-5">
      <p className="text-slate-700">{t('review.intro')}</p>
      <DocumentsSummary
        documents={documents}
        idProofRequired={status.idProofRequired}
        action={editButton('documents', t('review.editDocuments'))}
      />
      <AnswersSummary
        questionnaire={questionnaire}
        action={editButton('questionnaire', t('review.editAnswers'))}
      />
      {questionnaire && <EligibilitySummary eligibility={questionnaire} gender={donor.gender} />}

      {problem && (
        <div ref={problemRef} tabIndex={-1}>
          {problem === 'missing' ? (
            <Alert variant="warning" dismissible={false} title={t('review.missing.title')}>
              <ul className="mt-2 flex list-disc flex-col gap-1 ps-5">
                {isMissingIdProof && <li>{t('review.missing.idProof')}</li>}
                {isMissingAnswers && <li>{t('review.missing.questionnaire')}</li>}
              </ul>
            </Alert>
          ) : (
            <Alert variant="warning" dismissible={false} message={t('review.stillRejected')} />
          )}
        </div>
      )}
      {failure !== null && <LoadError error={failure} />}

      <p className="text-slate-700">{t('review.whatNext')}</p>
      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-between">
        <Button variant="secondary" size="lg" onClick={() => onEdit('questionnaire')}>
          {t('back')}
        </Button>
        <Button size="lg" isLoading={isSubmitting} onClick={() => void submit()}>
          {t('review.submit')}
        </Button>
      </div>
    </div>
  );
}
