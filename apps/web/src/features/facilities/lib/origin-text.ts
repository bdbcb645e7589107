import type { FacilityNearbyResult } from '@bdms/shared';
import type { TFunction } from 'i18next';
import { displayName } from './format';

type Origin = FacilityNearbyResult['origin'];
type Translate = TFunction<'facilities'>;

/**
 * Where a nearby list was measured from, as the results say it: "near your location", "near
 * PIN 500001 (Hyderabad, Telangana)", "near Koramangala (…)". A point the server marks
 * `approximate` (low confidence, #15) says so ("near PIN 500003, approximate"), and a radius the
 * server widened says how far it looked.
 */
export function originText(origin: Origin, t: Translate, typedPin?: string): string {
  const place = [origin.district, origin.state]
    .filter((part): part is string => Boolean(part))
    .map(displayName)
    .join(', ');
  let where: string;
  if (origin.source === 'pincode') {
    const pin = origin.pincode ?? typedPin;
    if (origin.approximate) {
      where = place
        ? t('results.nearPinApprox', { pin, place })
        : t('results.nearPinApproxNoPlace', { pin });
    } else {
      where = place ? t('results.nearPin', { pin, place }) : t('results.nearPinNoPlace', { pin });
    }
  } else if (origin.source === 'place') {
    const name = origin.place ?? '';
    if (origin.approximate) {
      where = place
        ? t('results.nearPlaceApprox', { name, place })
        : t('results.nearPlaceApproxNoPlace', { name });
    } else {
      where = place
        ? t('results.nearPlace', { name, place })
        : t('results.nearPlaceNoPlace', { name });
    }
  } else {
    where = t('results.nearYou');
  }
  return origin.radiusKm > origin.requestedRadiusKm
    ? `${where} ${t('results.widened', { radius: origin.radiusKm })}`
    : where;
}

/** The label of the map's origin marker. */
export function originLabel(origin: Origin, t: Translate): string {
  if (origin.source === 'pincode') {
    const pin = origin.pincode ?? '';
    return origin.approximate ? t('map.pinOriginApprox', { pin }) : t('map.pinOrigin', { pin });
  }
  if (origin.source === 'place') return t('map.placeOrigin', { name: origin.place ?? '' });
  return t('map.yourLocation');
}
