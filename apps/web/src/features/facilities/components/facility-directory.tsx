import { useEffect, useId, useMemo, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { FacilityNearbyResult } from '@bdms/shared';
import { Button } from '../../../components/button';
import { Field, Input } from '../../../components/field';
import { Pagination } from '../../../components/pagination';
import { LoadError } from '../../../components/query-state';
import { useFeatureFlag } from '../../../config/use-config';
import { isApiError } from '../../../lib/api-client';
import {
  DIRECTORY_PAGE_SIZE,
  NEARBY_LIMIT,
  useFacilityDirectory,
  useFacilityFacets,
  useFacilityNearby,
  useFacilitySearch,
  type NearbyOrigin,
} from '../api/facilities-api';
import { useStockAvailability } from '../api/stock-api';
import { useDebouncedValue } from '../hooks/use-debounced-value';
import { useGeolocation } from '../hooks/use-geolocation';
import { useMediaQuery } from '../hooks/use-media-query';
import {
  RADIUS_CHOICES,
  SEARCH_MIN_LENGTH,
  countActiveFilters,
  directoryMode,
  matchesFilters,
  toFacilityFilters,
  type RadiusKm,
} from '../lib/directory-params';
import { formatCount, formatDistance, placeLine } from '../lib/format';
import { originLabel, originText } from '../lib/origin-text';
import { useDirectoryParams } from '../lib/use-directory-params';
import { DataNotice } from './data-notice';
import { DirectoryFilters } from './directory-filters';
import { facilityPath } from './facility-card';
import { MapIcon, SearchIcon } from './icons';
import { LazyFacilityMap, type MapOrigin, type MapPoint } from './lazy-facility-map';
import { NearbyFinder } from './nearby-finder';
import { EmptyResults, ResultList, ResultSkeleton, type ResultItem } from './result-list';

/** Wait this long after the last keystroke before searching. */
export const SEARCH_DEBOUNCE_MS = 300;
/** From this width the map is shown beside the list without asking. */
const WIDE_SCREEN = '(min-width: 1024px)';

/** The next radius choice up, to suggest when nothing is near enough. */
function largerRadius(radius: RadiusKm): RadiusKm | null {
  return RADIUS_CHOICES.find((choice) => choice > radius) ?? null;
}

/**
 * /blood-banks: near a location or PIN code, search (misspellings tolerated), or the whole
 * directory by filter; every view's state is in the address. The list is the page: the map is
 * an extra, loaded only when shown. With the stock filter (inventoryManagement, issue #17) the
 * list and the map are the centres holding the group now near the place, nearest first, each
 * with its units and their age.
 */
export function FacilityDirectory() {
  const { t, i18n } = useTranslation('facilities');
  const language = i18n.language;
  const { params, search, update, clearFilters } = useDirectoryParams();
  const canLocate = useFeatureFlag('locationDetection');
  const canFilterStock = useFeatureFlag('inventoryManagement');
  const geolocation = useGeolocation();
  const location = geolocation.status === 'found' ? geolocation.point : null;
  const mode = directoryMode(params, location !== null, canFilterStock);
  const filters = useMemo(() => toFacilityFilters(params), [params]);
  const hasFilters = countActiveFilters(params) > 0;
  const from = `/blood-banks${search ? `?${search}` : ''}`;
  const searchId = useId();
  const resultsHeadingId = useId();
  const mapId = useId();

  const origin: NearbyOrigin | null = params.pin
    ? { kind: 'pincode', pincode: params.pin }
    : params.place
      ? { kind: 'place', place: params.place }
      : location
        ? { kind: 'point', ...location }
        : null;

  const facets = useFacilityFacets();
  const nearby = useFacilityNearby(mode === 'nearby' ? origin : null, params.radius, filters);
  const searchResults = useFacilitySearch(params.q, filters, mode === 'search');
  const directory = useFacilityDirectory(filters, params.page, mode === 'directory');
  const stock = useStockAvailability(
    mode === 'stock' && params.blood && origin
      ? {
          bloodType: params.blood,
          component: params.component,
          origin,
          radiusKm: params.radius,
        }
      : null,
  );
  const needsPlace = mode === 'stock' && origin === null;

  // The search box: typed text reaches the address (and the server) 300 ms after the last key;
  // the address (Back, a shared link) sets the box.
  const [query, setQuery] = useState(params.q);
  const debouncedQuery = useDebouncedValue(query, SEARCH_DEBOUNCE_MS);
  const syncedQuery = useRef(params.q);
  const setSearch = (value: string) => {
    const next = value.trim();
    if (next === syncedQuery.current) return;
    const previous = syncedQuery.current;
    syncedQuery.current = next;
    // One history entry per search, not one per pause in typing.
    update({ q: next }, { replace: previous !== '' && next !== '' });
    if (next) geolocation.clear();
  };
  useEffect(() => {
    setSearch(debouncedQuery);
    // Only a new debounced value is a user's change.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [debouncedQuery]);
  useEffect(() => {
    if (params.q !== syncedQuery.current) {
      syncedQuery.current = params.q;
      setQuery(params.q);
    }
  }, [params.q]);

  const isWide = useMediaQuery(WIDE_SCREEN);
  const [mapChoice, setMapChoice] = useState<boolean | null>(null);
  const showMap = mapChoice ?? isWide;

  const onSearchSubmit = (event: FormEvent) => {
    event.preventDefault();
    setSearch(query);
  };
  const findNearPin = (pin: string) => {
    geolocation.clear();
    update({ pin });
  };
  const findNearPlace = (place: string) => {
    geolocation.clear();
    update({ place });
  };
  const locate = () => {
    if (params.pin || params.place) update({ pin: undefined, place: undefined });
    geolocation.locate();
  };
  const leaveNearby = () => {
    geolocation.clear();
    update({ pin: undefined, place: undefined });
  };
  const leaveStock = () => update({ blood: undefined });

  // --- What the results area shows -------------------------------------------------------
  let items: ResultItem[] = [];
  let nearbyOrigin: FacilityNearbyResult['origin'] | null = null;
  const active =
    mode === 'stock'
      ? stock
      : mode === 'nearby'
        ? nearby
        : mode === 'search'
          ? searchResults
          : directory;
  if (mode === 'stock' && stock.data) {
    const { bloodType, component } = stock.data;
    // The availability search takes no filters: the ones chosen narrow its centres here.
    items = stock.data.items
      .filter((centre) => matchesFilters(centre, filters))
      .map((centre) => {
        const line = centre.stock.find((figure) => figure.bloodType === bloodType);
        return {
          facility: centre,
          distanceKm: centre.distanceKm,
          stock: line && { bloodType, component, units: line.units, updatedAt: line.updatedAt },
        };
      });
    nearbyOrigin = stock.data.origin;
  } else if (mode === 'nearby' && nearby.data) {
    items = nearby.data.items.map((facility) => ({ facility, distanceKm: facility.distanceKm }));
    nearbyOrigin = nearby.data.origin;
  } else if (mode === 'search' && searchResults.data) {
    items = searchResults.data.items.map((facility) => ({ facility }));
  } else if (mode === 'directory' && directory.data) {
    items = directory.data.items.map((facility) => ({ facility }));
  }
  const isUnknown =
    (mode === 'nearby' || mode === 'stock') &&
    (params.pin !== undefined || params.place !== undefined) &&
    isApiError(active.error) &&
    active.error.status === 404;
  const stockNames = params.blood && {
    bloodType: params.blood,
    component: t(`stock.components.${params.component}`),
  };

  const heading =
    mode === 'stock' && stockNames
      ? t('results.stockTitle', stockNames)
      : mode === 'nearby'
        ? t('results.nearbyTitle')
        : mode === 'search'
          ? t('results.searchTitle')
          : t('results.directoryTitle');

  let summary = '';
  if (mode === 'stock' && stock.data) {
    summary = `${originText(stock.data.origin, t, params.pin)} ${t('results.stockCount', {
      count: items.length,
      value: formatCount(items.length, language),
      radius: Math.max(params.radius, stock.data.origin.radiusKm),
    })}`;
  } else if (mode === 'nearby' && nearby.data) {
    const where = originText(nearby.data.origin, t, params.pin);
    const within = {
      count: items.length,
      value: formatCount(items.length, language),
      // Around an uncertain PIN code or place the server searched further (#15).
      radius: Math.max(params.radius, nearby.data.origin.radiusKm),
    };
    // A full list may have more beyond it: say these are the nearest ones.
    summary = `${where} ${
      items.length >= NEARBY_LIMIT
        ? t('results.nearestCount', within)
        : t('results.withinCount', within)
    }`;
  } else if (mode === 'search' && searchResults.data) {
    summary = t('results.searchCount', {
      count: items.length,
      value: formatCount(items.length, language),
      q: params.q,
    });
  } else if (mode === 'directory' && directory.data) {
    summary = t('results.count', {
      count: directory.data.total,
      value: formatCount(directory.data.total, language),
    });
  }

  const points: MapPoint[] = items
    .filter(({ facility }) => facility.latitude !== null && facility.longitude !== null)
    .map(({ facility, distanceKm, stock: figure }) => ({
      id: facility.id,
      name: facility.name,
      latitude: facility.latitude!,
      longitude: facility.longitude!,
      href: facilityPath(facility.id),
      detail:
        distanceKm !== undefined
          ? t('card.distance', { distance: formatDistance(distanceKm, language) })
          : placeLine(facility),
      stock: figure,
    }));
  const mapOrigin: MapOrigin | null = nearbyOrigin
    ? {
        latitude: nearbyOrigin.latitude,
        longitude: nearbyOrigin.longitude,
        label: originLabel(nearbyOrigin, t),
      }
    : null;

  const clearButton = hasFilters && (
    <Button variant="secondary" onClick={clearFilters}>
      {t('filters.clear')}
    </Button>
  );

  let body;
  if (needsPlace && stockNames) {
    body = (
      <EmptyResults title={t('results.stockNeedsPlace', stockNames)}>
        <Button variant="secondary" onClick={leaveStock}>
          {t('results.leaveStock')}
        </Button>
      </EmptyResults>
    );
  } else if (isUnknown) {
    body = (
      <EmptyResults
        title={
          params.pin
            ? t('results.unknownPin', { pin: params.pin })
            : t('results.unknownPlace', { name: params.place })
        }
      >
        <Button variant="secondary" onClick={leaveNearby}>
          {t('results.showDirectory')}
        </Button>
      </EmptyResults>
    );
  } else if (active.isError && !active.data) {
    body = <LoadError error={active.error} onRetry={() => void active.refetch()} />;
  } else if (!active.data) {
    body = <ResultSkeleton />;
  } else if (items.length === 0) {
    const bigger = largerRadius(params.radius);
    body =
      mode === 'stock' && stockNames ? (
        <EmptyResults
          title={t('results.noneStock', {
            ...stockNames,
            radius: Math.max(params.radius, stock.data?.origin.radiusKm ?? 0),
          })}
        >
          {bigger && (
            <Button onClick={() => update({ radius: bigger })}>
              {t('results.widen', { radius: bigger })}
            </Button>
          )}
          {clearButton}
          <Button variant="secondary" onClick={leaveStock}>
            {t('results.leaveStock')}
          </Button>
        </EmptyResults>
      ) : mode === 'nearby' ? (
        <EmptyResults
          title={
            bigger
              ? t('results.noneNearby', { radius: params.radius })
              : t('results.noneNearbyMax', { radius: params.radius })
          }
        >
          {bigger && (
            <Button onClick={() => update({ radius: bigger })}>
              {t('results.widen', { radius: bigger })}
            </Button>
          )}
          {clearButton}
          <Button variant="secondary" onClick={leaveNearby}>
            {t('results.showDirectory')}
          </Button>
        </EmptyResults>
      ) : mode === 'search' ? (
        <EmptyResults title={t('results.noneSearch', { q: params.q })}>{clearButton}</EmptyResults>
      ) : (
        <EmptyResults title={t('results.noneFiltered')}>{clearButton}</EmptyResults>
      );
  } else {
    body = (
      <>
        {active.isError && <LoadError error={active.error} onRetry={() => void active.refetch()} />}
        <ResultList items={items} from={from} isUpdating={active.isPlaceholderData} />
        {mode === 'stock' && (
          <p className="mt-3 text-sm text-slate-700">{t('stock.finder.crossmatch')}</p>
        )}
        {mode === 'directory' && directory.data && (
          <Pagination
            page={directory.data.page}
            pageSize={directory.data.pageSize || DIRECTORY_PAGE_SIZE}
            total={directory.data.total}
            onPageChange={(page) => {
              update({ page });
              document
                .getElementById(resultsHeadingId)
                ?.scrollIntoView({ block: 'start', behavior: 'smooth' });
            }}
            label={t('results.pages')}
            isLoading={directory.isFetching}
          />
        )}
      </>
    );
  }

  return (
    <div className="mt-6 flex flex-col gap-8">
      <DataNotice className="max-w-4xl" />

      <div className="grid gap-6 lg:grid-cols-2 lg:items-start">
        <NearbyFinder
          pin={params.pin ?? params.place}
          radius={params.radius}
          pinError={isUnknown ? t(params.pin ? 'near.pinUnknown' : 'near.placeUnknown') : null}
          canLocate={canLocate}
          locationStatus={geolocation.status}
          onPin={findNearPin}
          onPlace={findNearPlace}
          onRadius={(radius) => update({ radius })}
          onLocate={locate}
        />

        <section
          aria-labelledby={searchId}
          className="flex flex-col gap-4 rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-5"
        >
          <h2 id={searchId} className="text-xl font-semibold text-slate-900">
            {t('search.title')}
          </h2>
          <form role="search" noValidate onSubmit={onSearchSubmit}>
            <Field label={t('search.label')} hint={t('search.hint')}>
              <div className="flex gap-2">
                <Input
                  type="search"
                  value={query}
                  onChange={(event) => setQuery(event.target.value)}
                  autoComplete="off"
                  enterKeyHint="search"
                  maxLength={100}
                  className="min-w-0 flex-1"
                />
                <Button type="submit" variant="secondary" aria-label={t('search.submit')}>
                  <SearchIcon />
                </Button>
              </div>
            </Field>
            {query.trim().length > 0 && query.trim().length < SEARCH_MIN_LENGTH && (
              <p className="mt-1 text-sm text-slate-700">{t('search.tooShort')}</p>
            )}
          </form>
          <DirectoryFilters
            params={params}
            facets={facets.data}
            onChange={(change) => update(change)}
            onClear={clearFilters}
            canFilterStock={canFilterStock}
          />
        </section>
      </div>

      <section aria-labelledby={resultsHeadingId} className="scroll-mt-4">
        <div className="flex flex-wrap items-end justify-between gap-3">
          <div className="min-w-0">
            <h2 id={resultsHeadingId} className="text-2xl font-semibold text-slate-900">
              {heading}
            </h2>
            <p aria-live="polite" className="mt-1 text-slate-700">
              {summary}
            </p>
          </div>
          <div className="flex flex-wrap gap-2">
            {mode === 'stock' && (
              <Button variant="ghost" className="underline" onClick={leaveStock}>
                {t('results.leaveStock')}
              </Button>
            )}
            {mode === 'nearby' && (
              <Button variant="ghost" className="underline" onClick={leaveNearby}>
                {t('results.showDirectory')}
              </Button>
            )}
            <Button
              variant="secondary"
              aria-expanded={showMap}
              aria-controls={mapId}
              onClick={() => setMapChoice(!showMap)}
            >
              <MapIcon />
              {showMap ? t('map.hide') : t('map.show')}
            </Button>
          </div>
        </div>

        <div
          className={
            showMap
              ? 'mt-4 grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)] lg:items-start'
              : 'mt-4'
          }
        >
          <div id={mapId} className={showMap ? 'lg:sticky lg:top-4 lg:order-2' : 'hidden'}>
            {showMap && (
              <LazyFacilityMap
                points={points}
                origin={mapOrigin}
                label={t('map.label')}
                linkState={{ from }}
                className="h-72 sm:h-96 lg:h-[calc(100vh-2rem)] lg:max-h-[44rem]"
              />
            )}
            {showMap && points.length < items.length && (
              <p className="mt-2 text-sm text-slate-700">
                {t('map.missing', { count: items.length - points.length })}
              </p>
            )}
          </div>
          <div className="min-w-0 lg:order-1">{body}</div>
        </div>
      </section>
    </div>
  );
}
