import { useTranslation } from 'react-i18next';
import { Page } from '../../components/page';
import { FacilityDirectory } from '../../features/facilities';

/**
 * /blood-banks: the public directory of blood banks (features/facilities). With
 * inventoryManagement, its "has in stock now" filter lists the centres holding a group near a
 * place, with units and their age on the cards and the map (issue #17).
 */
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
