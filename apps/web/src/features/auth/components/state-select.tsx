import { useMemo, type ComponentProps } from 'react';
import { useTranslation } from 'react-i18next';
import { INDIAN_STATES } from '@bdms/shared';
import { Select } from '../../../components/field';

/**
 * India's states and union territories, labelled in the user's language and sorted in it. The
 * value is the English name the API stores; a stored value outside the list is kept as an option.
 */
export function StateSelect({
  currentValue,
  ...props
}: ComponentProps<'select'> & { currentValue?: string | null }) {
  const { t, i18n } = useTranslation('auth');
  const options = useMemo(() => {
    const collator = new Intl.Collator(i18n.language);
    return INDIAN_STATES.map((state) => ({
      value: state.name,
      label: t(`states.${state.code}`),
    })).sort((a, b) => collator.compare(a.label, b.label));
  }, [t, i18n.language]);
  const isListed = !currentValue || options.some((option) => option.value === currentValue);
  return (
    <Select {...props}>
      <option value="">{t('fields.statePlaceholder')}</option>
      {!isListed && <option value={currentValue}>{currentValue}</option>}
      {options.map((option) => (
        <option key={option.value} value={option.value}>
          {option.label}
        </option>
      ))}
    </Select>
  );
}
