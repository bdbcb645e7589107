import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DonorDocument } from '@bdms/shared';
import { Button } from '../../../../components/button';
import { ErrorCircleIcon } from '../../../../components/icons';
import { ONBOARDING_DOCUMENTS } from '../../onboarding/document-file';
import { DocumentCard } from './document-card';

const ID_PROOF_INPUT_ID = 'onboarding-id-proof-file';

/** An ID proof counts unless it was rejected (the server's rule for completing onboarding). */
export function hasUsableIdProof(documents: readonly DonorDocument[]): boolean {
  return documents.some(
    (document) => document.type === 'id_proof' && document.status !== 'rejected',
  );
}

/** Step 1: ID proof (required while `documentUpload` is on), photo and medical certificate. */
export function DocumentsStep({
  userId,
  documents,
  idProofRequired,
  onContinue,
  onUploaded,
}: {
  userId: string;
  documents: readonly DonorDocument[];
  idProofRequired: boolean;
  onContinue: () => void;
  onUploaded: () => void;
}) {
  const { t } = useTranslation('onboarding');
  const [isMissingIdProof, setIsMissingIdProof] = useState(false);
  const byType = new Map(documents.map((document) => [document.type, document]));

  const next = () => {
    if (idProofRequired && !hasUsableIdProof(documents)) {
      setIsMissingIdProof(true);
      document.getElementById(ID_PROOF_INPUT_ID)?.focus();
      return;
    }
    onContinue();
  };

  return (
    <div className="flex flex-col gap-5">
      <p className="max-w-3xl text-slate-700">{t('documents.intro')}</p>
      <ul className="grid gap-4 lg:grid-cols-2">
        {ONBOARDING_DOCUMENTS.map((type) => (
          <DocumentCard
            key={type}
            userId={userId}
            type={type}
            document={byType.get(type)}
            isRequired={type === 'id_proof' && idProofRequired}
            fileInputId={type === 'id_proof' ? ID_PROOF_INPUT_ID : undefined}
            onUploaded={() => {
              if (type === 'id_proof') setIsMissingIdProof(false);
              onUploaded();
            }}
          />
        ))}
      </ul>
      {isMissingIdProof && idProofRequired && !hasUsableIdProof(documents) && (
        <p role="alert" className="flex items-start gap-1.5 font-semibold text-primary-700">
          <ErrorCircleIcon className="mt-0.5 size-5 shrink-0" />
          <span>{t('documents.errors.idProofNeeded')}</span>
        </p>
      )}
      <div className="flex flex-col gap-3 sm:flex-row sm:justify-end">
        <Button size="lg" onClick={next}>
          {t('continue')}
        </Button>
      </div>
    </div>
  );
}
