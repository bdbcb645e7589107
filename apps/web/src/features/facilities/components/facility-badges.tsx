import { useTranslation } from 'react-i18next';
import type { Facility } from '@bdms/shared';
import { Badge } from '../../../components/badge';
import { cn } from '../../../lib/cn';

/** The category (Government, Private, Charity) in the user's language; others as published. */
export function useCategoryName() {
  const { t } = useTranslation('facilities');
  return (category: string): string => {
    switch (category.toLowerCase()) {
      case 'government':
        return t('category.government');
      case 'private':
        return t('category.private');
      case 'charity':
        return t('category.charity');
      default:
        return category;
    }
  };
}

/** Category and the services the directory says it has (only those: unknown is not "no"). */
export function FacilityBadges({
  facility,
  className,
}: {
  facility: Pick<Facility, 'category' | 'components' | 'apheresis' | 'is24x7'>;
  className?: string;
}) {
  const { t } = useTranslation('facilities');
  const categoryName = useCategoryName();
  const hasAny = facility.category || facility.components || facility.apheresis || facility.is24x7;
  if (!hasAny) return null;
  return (
    <ul className={cn('flex flex-wrap gap-2', className)} aria-label={t('card.badgesLabel')}>
      {facility.category && (
        <li>
          <Badge>{categoryName(facility.category)}</Badge>
        </li>
      )}
      {facility.is24x7 && (
        <li>
          <Badge variant="success">{t('services.open24x7Badge')}</Badge>
        </li>
      )}
      {facility.components && (
        <li>
          <Badge variant="info">{t('services.componentsBadge')}</Badge>
        </li>
      )}
      {facility.apheresis && (
        <li>
          <Badge variant="primary">{t('services.apheresisBadge')}</Badge>
        </li>
      )}
    </ul>
  );
}
