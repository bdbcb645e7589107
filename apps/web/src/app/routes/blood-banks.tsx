import { useTranslation } from 'react-i18next';
import { Page } from '../../components/page';
import { FacilityDirectory } from '../../features/facilities';

/** /blood-banks: the public directory of blood banks (features/facilities). */
export default function BloodBanksPage() {
  const { t } = useTranslation('pages');
  return (
    <Page
      title={t('bloodBanks.title')}
      description={t('bloodBanks.description')}
      lead={t('bloodBanks.intro')}
    >
      <FacilityDirectory />
    </Page>
  );
}
