import { Link } from 'react-router';
import type { MapPoint } from './facility-map';
import { StockNow } from './stock-now';

/** A marker's popup: the centre (to its page), the distance or place, and its stock if asked. */
export function MapPopupContent({ point, linkState }: { point: MapPoint; linkState?: unknown }) {
  return (
    <>
      <Link to={point.href} state={linkState} className="font-semibold text-primary-700">
        {point.name}
      </Link>
      {point.detail && <span className="mt-1 block text-slate-700">{point.detail}</span>}
      {point.stock && <StockNow figure={point.stock} className="mt-2" />}
    </>
  );
}
