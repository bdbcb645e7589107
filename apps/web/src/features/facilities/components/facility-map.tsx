// The map and Leaflet (with its CSS) are one lazy chunk: only pages that show a map download it
// (components/lazy-facility-map.tsx). Markers are drawn (CircleMarker), so no image assets.
import 'leaflet/dist/leaflet.css';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Browser, latLngBounds, type LatLngTuple } from 'leaflet';
import { CircleMarker, MapContainer, Popup, TileLayer, useMap } from 'react-leaflet';
import { cn } from '../../../lib/cn';
import { MapPopupContent } from './map-popup';
import type { StockNowFigure } from './stock-now';

export interface MapPoint {
  id: string;
  name: string;
  latitude: number;
  longitude: number;
  /** The facility page. */
  href: string;
  /** A second line: the distance or the place. */
  detail?: string;
  /** With the stock filter: what it holds of the group asked, and how old the figure is. */
  stock?: StockNowFigure;
}

export interface MapOrigin {
  latitude: number;
  longitude: number;
  label: string;
}

export interface FacilityMapProps {
  points: MapPoint[];
  /** Where distances are measured from (a PIN code's centre, the user's location). */
  origin?: MapOrigin | null;
  /** Names the map for assistive technology. */
  label: string;
  /** Passed with the links of the popups (where to go back to). */
  linkState?: unknown;
  /** Said when the map images cannot be loaded; by default, that the list has everything. */
  tilesFailedText?: string;
  className?: string;
}

const TILE_URL = 'https://tile.openstreetmap.org/{z}/{x}/{y}.png';
const ATTRIBUTION =
  '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors';
/** India, when there is nothing to show. */
const INDIA_CENTER: LatLngTuple = [22.5, 80];
const INDIA_ZOOM = 4;
const SINGLE_ZOOM = 14;
/** The accent red and the info blue of src/index.css, drawn with a white ring. */
const FACILITY_STYLE = { color: '#ffffff', weight: 2, fillColor: '#b91c1c', fillOpacity: 1 };
const ORIGIN_STYLE = { color: '#ffffff', weight: 3, fillColor: '#1d4ed8', fillOpacity: 1 };

/** Leaflet's container is focusable (arrow keys move the map): it needs a role and a name. */
function NameTheMap({ label }: { label: string }) {
  const map = useMap();
  useEffect(() => {
    const container = map.getContainer();
    container.setAttribute('role', 'region');
    container.setAttribute('aria-label', label);
  }, [map, label]);
  return null;
}

/** Keeps every point (and the origin) in view when the results change. */
function FitToPoints({ points, origin }: Pick<FacilityMapProps, 'points' | 'origin'>) {
  const map = useMap();
  const key = [
    origin ? `${origin.latitude},${origin.longitude}` : '',
    ...points.map((point) => point.id),
  ].join('|');
  useEffect(() => {
    const corners: LatLngTuple[] = points.map((point) => [point.latitude, point.longitude]);
    if (origin) corners.push([origin.latitude, origin.longitude]);
    if (corners.length === 0) map.setView(INDIA_CENTER, INDIA_ZOOM);
    else if (corners.length === 1) map.setView(corners[0]!, SINGLE_ZOOM);
    else map.fitBounds(latLngBounds(corners), { padding: [24, 24], maxZoom: SINGLE_ZOOM });
    // The key stands for the points: refit only when the set changes.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [map, key]);
  return null;
}

export default function FacilityMap({
  points,
  origin,
  label,
  linkState,
  tilesFailedText,
  className,
}: FacilityMapProps) {
  const { t } = useTranslation('facilities');
  const [tilesFailed, setTilesFailed] = useState(false);
  return (
    <div
      className={cn(
        'relative isolate overflow-hidden rounded-xl border border-slate-300',
        className,
      )}
    >
      <MapContainer
        center={INDIA_CENTER}
        zoom={INDIA_ZOOM}
        scrollWheelZoom={false}
        // One finger scrolls the page on a phone; two fingers move and zoom the map.
        dragging={!Browser.mobile}
        className="size-full"
      >
        <NameTheMap label={label} />
        <TileLayer
          url={TILE_URL}
          attribution={ATTRIBUTION}
          eventHandlers={{ tileerror: () => setTilesFailed(true) }}
        />
        <FitToPoints points={points} origin={origin} />
        {origin && (
          <CircleMarker
            center={[origin.latitude, origin.longitude]}
            radius={9}
            pathOptions={ORIGIN_STYLE}
          >
            <Popup>
              <span className="font-semibold">{origin.label}</span>
            </Popup>
          </CircleMarker>
        )}
        {points.map((point) => (
          <CircleMarker
            key={point.id}
            center={[point.latitude, point.longitude]}
            radius={8}
            pathOptions={FACILITY_STYLE}
          >
            <Popup>
              <MapPopupContent point={point} linkState={linkState} />
            </Popup>
          </CircleMarker>
        ))}
      </MapContainer>
      {tilesFailed && (
        <p className="absolute top-2 right-2 left-14 z-[1000] rounded-lg bg-white/95 px-3 py-2 text-sm text-slate-800 shadow">
          {tilesFailedText ?? t('map.tilesFailed')}
        </p>
      )}
    </div>
  );
}
