import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Donation } from '@bdms/shared';
import { Button } from '../../../../components/button';
import { useToast } from '../../../../components/toast';
import { useFormatDate } from '../../../../lib/dates';
import { saveFile } from '../../../../lib/save-file';
import { useErrorMessage } from '../../../../lib/use-error-message';
import { fetchCertificate } from '../../api/donations';

/** The file name the server also gives it: `certificate-<number>.pdf`. */
export function certificateFileName(donation: Pick<Donation, 'id' | 'certificateNumber'>): string {
  return `certificate-${donation.certificateNumber ?? donation.id}.pdf`;
}

/**
 * Fetches the certificate PDF with the bearer token (`GET /donations/{id}/certificate`) and
 * saves it. Its accessible name says which donation it is for.
 */
export function DownloadCertificateButton({
  donation,
  variant = 'primary',
}: {
  donation: Pick<Donation, 'id' | 'certificateNumber' | 'donatedAt'>;
  variant?: 'primary' | 'secondary';
}) {
  const { t } = useTranslation('donors');
  const formatDate = useFormatDate();
  const toast = useToast();
  const errorMessage = useErrorMessage();
  const [isLoading, setIsLoading] = useState(false);

  const download = async () => {
    setIsLoading(true);
    try {
      saveFile(await fetchCertificate(donation.id), certificateFileName(donation));
      toast.success(t('certificates.downloaded'));
    } catch (error) {
      toast.error(errorMessage(error));
    } finally {
      setIsLoading(false);
    }
  };

  return (
    <Button
      variant={variant}
      isLoading={isLoading}
      aria-label={t('certificates.downloadFor', { date: formatDate(donation.donatedAt, 'long') })}
      onClick={() => void download()}
    >
      {t('certificates.download')}
    </Button>
  );
}
