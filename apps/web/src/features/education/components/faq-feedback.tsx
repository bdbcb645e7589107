import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/button';
import { CheckCircleIcon } from '../../../components/icons';
import { useToast } from '../../../components/toast';
import { useErrorMessage } from '../../../lib/use-error-message';
import { useFaqFeedback } from '../api/education';
import { readFaqVote, saveFaqVote, type FaqVote } from '../lib/faq-votes';

/**
 * "Was this helpful?" Yes / No under an answer: `POST /faqs/{id}/feedback`, then "Thanks for your
 * feedback." in place of the buttons (focus moves to it). The vote is remembered on this device,
 * so the question is not asked again after a reload.
 */
export function FaqFeedback({ faqId }: { faqId: string }) {
  const { t } = useTranslation('education');
  const toast = useToast();
  const errorMessage = useErrorMessage();
  const questionId = useId();
  const thanksRef = useRef<HTMLParagraphElement>(null);
  const [vote, setVote] = useState<FaqVote | undefined>(() => readFaqVote(faqId));
  const feedback = useFaqFeedback();
  const hasJustVoted = useRef(false);

  // The pressed button is gone: keep the keyboard (and the screen reader) where the reader is.
  useEffect(() => {
    if (!vote || !hasJustVoted.current) return;
    hasJustVoted.current = false;
    thanksRef.current?.focus();
  }, [vote]);

  const send = (helpful: boolean) => {
    feedback.mutate(
      { id: faqId, helpful },
      {
        onSuccess: () => {
          const value: FaqVote = helpful ? 'helpful' : 'notHelpful';
          saveFaqVote(faqId, value);
          hasJustVoted.current = true;
          setVote(value);
        },
        onError: (error) => toast.error(errorMessage(error)),
      },
    );
  };

  if (vote) {
    return (
      <p
        ref={thanksRef}
        tabIndex={-1}
        role="status"
        className="mt-4 flex items-center gap-2 font-medium text-success-800"
      >
        <CheckCircleIcon className="size-5 shrink-0 text-success-700" />
        {t('help.thanks')}
      </p>
    );
  }

  const pending = feedback.isPending ? feedback.variables?.helpful : undefined;
  return (
    <div
      role="group"
      aria-labelledby={questionId}
      className="mt-4 flex flex-wrap items-center gap-x-3 gap-y-2"
    >
      <p id={questionId} className="font-medium text-slate-800">
        {t('help.wasHelpful')}
      </p>
      <div className="flex gap-2">
        <Button
          variant="secondary"
          isLoading={pending === true}
          disabled={feedback.isPending}
          onClick={() => send(true)}
        >
          {t('help.yes')}
        </Button>
        <Button
          variant="secondary"
          isLoading={pending === false}
          disabled={feedback.isPending}
          onClick={() => send(false)}
        >
          {t('help.no')}
        </Button>
      </div>
    </div>
  );
}
