import {
  BLOOD_COMPONENTS,
  BLOOD_TYPES,
  COMPONENT_COMPATIBILITY_RULE,
  componentDonorTypes,
  haversineKm,
  isStockStale,
  roundKm,
  STOCK_REMINDER_AFTER_MS,
  STOCK_STALE_AFTER_MS,
  type BloodComponent,
  type BloodType,
  type FacilityNearbyQuery,
  type FacilityStock,
  type NearbyOrigin,
  type StockAvailability,
  type StockAvailabilityQuery,
  type StockCentre,
  type StockChange,
  type StockHistoryPage,
  type StockSummary,
  type UpdateStock,
} from '@bdms/shared';
import type { Db } from '../../db/client';
import type { BloodStockRow } from '../../db/schema';
import { createActivityLog } from '../../lib/activity-log';
import { AppError } from '../../lib/app-error';
import { createMemoryChangeBus, type ChangeBus } from '../../lib/change-bus';
import { cacheKey, createReplyCache, type CachedReply } from '../../lib/reply-cache';
import type { RequestMeta } from '../../lib/request-context';
import type { AuthUser } from '../../plugins/auth';
import { createBloodStockRepository, type AvailabilityRow } from './blood-stock.repository';

/** Public stock replies are computed again after this long, and at once after any stock write. */
export const STOCK_CACHE_TTL_MS = 30_000;
export const STOCK_REPLY_CACHE_MAX = 2000;
export const ORIGIN_CACHE_MAX = 5000;
/** The change-bus topic of a stock write: every instance drops its cached public replies. */
export const STOCK_CHANGE_TOPIC = 'blood-stock';

export interface BloodStockServiceDeps {
  db: Db;
  /** The facilities feature's origin resolver (point, PIN code or place; composed in services.ts). */
  resolveOrigin: (query: FacilityNearbyQuery) => Promise<NearbyOrigin>;
  now?: () => number;
  /** The cross-instance change bus (services.ts); default in-process. */
  bus?: ChangeBus;
}

const notYours = () =>
  new AppError(
    'FORBIDDEN',
    'Only the verified accounts of this blood centre can change or read its stock records.',
  );

const lineKey = (bloodType: string, component: string) => `${bloodType}/${component}`;

/**
 * The "expiring within 3 days" figure to keep: the one sent (null clears it), else the previous
 * one, never more than the units on hand (a desk that only steps units keeps its expiry note).
 */
function expiringFigure(line: UpdateStock['lines'][number], old: BloodStockRow | undefined) {
  if (line.expiringUnits !== undefined) return line.expiringUnits;
  if (old?.expiringUnits == null) return null;
  return Math.min(old.expiringUnits, line.units);
}

/** Stock lines in the order screens show them: component, then blood group. */
function byScreenOrder(a: BloodStockRow, b: BloodStockRow): number {
  return (
    BLOOD_COMPONENTS.indexOf(a.component) - BLOOD_COMPONENTS.indexOf(b.component) ||
    BLOOD_TYPES.indexOf(a.bloodType) - BLOOD_TYPES.indexOf(b.bloodType)
  );
}

export function toFacilityStock(
  facilityId: string,
  rows: BloodStockRow[],
  now: number,
): FacilityStock {
  const latest = rows.reduce<Date | null>(
    (max, row) => (max === null || row.updatedAt > max ? row.updatedAt : max),
    null,
  );
  return {
    facilityId,
    updatedAt: latest?.toISOString() ?? null,
    stale: latest === null || isStockStale(latest, now),
    items: [...rows].sort(byScreenOrder).map((row) => ({
      bloodType: row.bloodType,
      component: row.component,
      units: row.units,
      expiringUnits: row.expiringUnits,
      updatedAt: row.updatedAt.toISOString(),
      stale: isStockStale(row.updatedAt, now),
    })),
  };
}

/**
 * Blood stock: centres publish what they hold, the public reads it. Only a verified, enabled
 * account of the hospital linked to the facility may write (or read the history); figures older
 * than 24 h are stale and never counted as available.
 */
export function createBloodStockService(deps: BloodStockServiceDeps) {
  const { db } = deps;
  const now = deps.now ?? Date.now;
  const repository = createBloodStockRepository(db);
  const replies = createReplyCache<unknown>({
    max: STOCK_REPLY_CACHE_MAX,
    ttlMs: STOCK_CACHE_TTL_MS,
    now,
  });
  const bus = deps.bus ?? createMemoryChangeBus();
  bus.subscribe(STOCK_CHANGE_TOPIC, () => replies.clear());
  /** This instance at once (the writer reads its own write), every other one through the bus. */
  const stockChanged = async () => {
    replies.clear();
    await bus.publish(STOCK_CHANGE_TOPIC);
  };
  const memo = <T>(key: string, compute: () => Promise<T>) =>
    replies.get(key, compute) as Promise<CachedReply<T>>;
  /**
   * Search origins by query: PIN code and place points change only when the server starts (the
   * loader runs before it listens), so a busy PIN code costs its lookup once. Failures (an
   * unknown PIN code) are not kept; the oldest entry goes first beyond ORIGIN_CACHE_MAX.
   */
  const origins = new Map<string, NearbyOrigin>();
  async function originOf(query: StockAvailabilityQuery): Promise<NearbyOrigin> {
    const key = cacheKey({
      lat: query.lat,
      lng: query.lng,
      pincode: query.pincode,
      place: query.place?.toLowerCase(),
      radiusKm: query.radiusKm,
    });
    const known = origins.get(key);
    if (known) return known;
    const origin = await deps.resolveOrigin(query);
    origins.set(key, origin);
    if (origins.size > ORIGIN_CACHE_MAX) origins.delete(origins.keys().next().value as string);
    return origin;
  }

  /** The caller's own centre, or FORBIDDEN: a verified, enabled hospital linked to `facilityId`. */
  async function requireOwnCentre(caller: AuthUser, facilityId: string) {
    if (caller.role !== 'hospital') throw notYours();
    const hospital = await repository.findHospitalOfUser(caller.id);
    if (
      !hospital ||
      hospital.facilityId !== facilityId ||
      hospital.verificationStatus !== 'verified' ||
      hospital.disabledAt !== null
    )
      throw notYours();
    return hospital;
  }

  async function requireFacility(facilityId: string) {
    const facility = await repository.findFacility(facilityId);
    if (!facility) throw new AppError('NOT_FOUND', 'There is no facility with this id.');
    return facility;
  }

  function toCentre(rows: AvailabilityRow[], distanceKm: number, order: BloodType[]): StockCentre {
    const first = rows[0]!.facility;
    return {
      ...first,
      latitude: first.latitude as number,
      longitude: first.longitude as number,
      distanceKm: roundKm(distanceKm),
      stock: [...rows]
        .sort((a, b) => order.indexOf(a.bloodType) - order.indexOf(b.bloodType))
        .map((row) => ({
          bloodType: row.bloodType,
          units: row.units,
          expiringUnits: row.expiringUnits,
          updatedAt: row.updatedAt.toISOString(),
        })),
    };
  }

  const service = {
    /** The public table of one facility (404 for an unknown one; empty when none published). */
    async read(facilityId: string): Promise<FacilityStock> {
      await requireFacility(facilityId);
      return toFacilityStock(facilityId, await repository.stockOf(facilityId), now());
    },

    /** The signed-in centre's own facility and stock (403 for anyone else). */
    async mine(caller: AuthUser) {
      if (caller.role !== 'hospital') throw notYours();
      const hospital = await repository.findHospitalOfUser(caller.id);
      if (!hospital?.facilityId) throw notYours();
      const facility = await requireFacility(hospital.facilityId);
      const canUpdate = hospital.verificationStatus === 'verified' && hospital.disabledAt === null;
      return {
        facility,
        verificationStatus: hospital.verificationStatus,
        canUpdate,
        stock: toFacilityStock(facility.id, await repository.stockOf(facility.id), now()),
      };
    },

    /**
     * Sets the figures sent; every line of the centre (sent or not) is confirmed as of now. The
     * history keeps the lines whose figures changed, with who and when; nothing changed is kept as
     * a confirmation.
     */
    async update(
      caller: AuthUser,
      facilityId: string,
      input: UpdateStock,
      meta: RequestMeta,
    ): Promise<FacilityStock> {
      await requireFacility(facilityId);
      await requireOwnCentre(caller, facilityId);
      const at = new Date(now());
      const stock = await db.transaction(async (tx) => {
        const repo = createBloodStockRepository(tx);
        await repo.lockFacility(facilityId);
        const before = new Map(
          (await repo.stockOf(facilityId)).map((row) => [
            lineKey(row.bloodType, row.component),
            row,
          ]),
        );
        const changes: StockChange[] = [];
        for (const line of input.lines) {
          const old = before.get(lineKey(line.bloodType, line.component));
          const expiring = expiringFigure(line, old);
          if (old && old.units === line.units && old.expiringUnits === expiring) continue;
          changes.push({
            bloodType: line.bloodType,
            component: line.component,
            unitsBefore: old?.units ?? null,
            units: line.units,
            expiringBefore: old?.expiringUnits ?? null,
            expiringUnits: expiring,
          });
        }
        await repo.upsertLines(
          input.lines.map((line) => ({
            facilityId,
            bloodType: line.bloodType,
            component: line.component,
            units: line.units,
            expiringUnits: expiringFigure(
              line,
              before.get(lineKey(line.bloodType, line.component)),
            ),
            updatedAt: at,
            updatedBy: caller.id,
          })),
        );
        await repo.touchAll(facilityId, at, caller.id);
        const kind = changes.length > 0 ? 'updated' : 'confirmed';
        await repo.insertUpdate({ facilityId, kind, at, userId: caller.id, changes });
        await createActivityLog(tx).record({
          action: `stock.${kind}`,
          actorId: caller.id,
          actorRole: caller.role,
          targetType: 'facility',
          targetId: facilityId,
          details: { changedLines: changes.length },
          requestId: meta.requestId,
        });
        return toFacilityStock(facilityId, await repo.stockOf(facilityId), at.getTime());
      });
      await stockChanged();
      return stock;
    },

    /** "Nothing changed": every line confirmed as of now. 409 before any stock is published. */
    async confirm(caller: AuthUser, facilityId: string, meta: RequestMeta): Promise<FacilityStock> {
      await requireFacility(facilityId);
      await requireOwnCentre(caller, facilityId);
      const at = new Date(now());
      const stock = await db.transaction(async (tx) => {
        const repo = createBloodStockRepository(tx);
        await repo.lockFacility(facilityId);
        const touched = await repo.touchAll(facilityId, at, caller.id);
        if (touched === 0)
          throw new AppError(
            'CONFLICT',
            'There is no stock to confirm yet: enter the figures once first.',
          );
        await repo.insertUpdate({
          facilityId,
          kind: 'confirmed',
          at,
          userId: caller.id,
          changes: [],
        });
        await createActivityLog(tx).record({
          action: 'stock.confirmed',
          actorId: caller.id,
          actorRole: caller.role,
          targetType: 'facility',
          targetId: facilityId,
          details: { changedLines: 0 },
          requestId: meta.requestId,
        });
        return toFacilityStock(facilityId, await repo.stockOf(facilityId), at.getTime());
      });
      await stockChanged();
      return stock;
    },

    /** Every submission, newest first: the centre's own accounts and administrators. */
    async history(
      caller: AuthUser,
      facilityId: string,
      page: number,
      pageSize: number,
    ): Promise<StockHistoryPage> {
      await requireFacility(facilityId);
      if (caller.role !== 'admin') await requireOwnCentre(caller, facilityId);
      const { items, total } = await repository.history(facilityId, page, pageSize);
      return {
        items: items.map((row) => ({
          id: row.id,
          kind: row.kind,
          at: row.at.toISOString(),
          by: { id: row.userId, name: row.name },
          changes: row.changes,
        })),
        total,
        page,
        pageSize,
      };
    },

    /**
     * Centres holding the group asked (fresh, non-zero) nearest first, then centres holding only
     * compatible groups (componentDonorTypes), within the radius of the origin.
     */
    async availability(query: StockAvailabilityQuery): Promise<StockAvailability> {
      const origin = await originOf(query);
      const types = componentDonorTypes(query.component, query.bloodType);
      const rows = await repository.available({
        types,
        component: query.component,
        freshSince: new Date(now() - STOCK_STALE_AFTER_MS),
        latitude: origin.latitude,
        longitude: origin.longitude,
        radiusKm: origin.radiusKm,
      });
      const center = { latitude: origin.latitude, longitude: origin.longitude };
      const byCentre = new Map<string, { rows: AvailabilityRow[]; distanceKm: number }>();
      for (const row of rows) {
        const entry = byCentre.get(row.facility.id);
        if (entry) {
          entry.rows.push(row);
          continue;
        }
        const distanceKm = haversineKm(center, {
          latitude: row.facility.latitude as number,
          longitude: row.facility.longitude as number,
        });
        if (distanceKm <= origin.radiusKm)
          byCentre.set(row.facility.id, { rows: [row], distanceKm });
      }
      const sorted = [...byCentre.values()].sort(
        (a, b) =>
          a.distanceKm - b.distanceKm ||
          a.rows[0]!.facility.name.localeCompare(b.rows[0]!.facility.name),
      );
      const holdsAsked = (entry: { rows: AvailabilityRow[] }) =>
        entry.rows.some((row) => row.bloodType === query.bloodType);
      return {
        origin,
        bloodType: query.bloodType,
        component: query.component,
        rule: COMPONENT_COMPATIBILITY_RULE[query.component],
        compatibleTypes: types.slice(1),
        items: sorted
          .filter(holdsAsked)
          .slice(0, query.limit)
          .map((entry) => toCentre(entry.rows, entry.distanceKm, types)),
        compatible: sorted
          .filter((entry) => !holdsAsked(entry))
          .slice(0, query.limit)
          .map((entry) => toCentre(entry.rows, entry.distanceKm, types)),
      };
    },
  };

  /** National and per-state availability of one component, and the centres that went quiet. */
  async function summary(component: BloodComponent): Promise<StockSummary> {
    const at = now();
    const freshSince = new Date(at - STOCK_STALE_AFTER_MS);
    const [byState, centres] = await Promise.all([
      repository.availabilityByState(component, freshSince),
      repository.centresByFreshness(),
    ]);
    const figures = (rows: { bloodType: BloodType; units: number; centres: number }[]) =>
      BLOOD_TYPES.map((bloodType) => {
        const matching = rows.filter((row) => row.bloodType === bloodType);
        return {
          bloodType,
          units: matching.reduce((sum, row) => sum + row.units, 0),
          centres: matching.reduce((sum, row) => sum + row.centres, 0),
        };
      });
    const states = [...new Set(byState.map((row) => row.state))].sort((a, b) =>
      a.localeCompare(b, 'en'),
    );
    const stale = centres.filter((centre) => centre.updatedAt < freshSince);
    const quietSince = new Date(at - STOCK_REMINDER_AFTER_MS);
    const toSilent = (centre: (typeof centres)[number]) => ({
      ...centre,
      updatedAt: centre.updatedAt.toISOString(),
    });
    return {
      component,
      generatedAt: new Date(at).toISOString(),
      reportingCentres: centres.length,
      freshCentres: centres.length - stale.length,
      // A centre counts once per state and group, so the national count is the states' sum.
      national: figures(byState),
      states: states.map((state) => ({
        state,
        groups: figures(byState.filter((row) => row.state === state)),
      })),
      staleCentres: stale.map(toSilent),
      // The reminder job's threshold: a centre silent this long has stopped updating.
      quietCentres: stale.filter((centre) => centre.updatedAt < quietSince).map(toSilent),
    };
  }

  return {
    ...service,
    summary,
    repository,
    /** Public replies with their ETags, kept STOCK_CACHE_TTL_MS and dropped on every stock write. */
    cached: {
      read: (facilityId: string) => memo(`read:${facilityId}`, () => service.read(facilityId)),
      availability: (query: StockAvailabilityQuery) =>
        memo(`availability:${cacheKey({ ...query, place: query.place?.toLowerCase() })}`, () =>
          service.availability(query),
        ),
    },
  };
}

export type BloodStockService = ReturnType<typeof createBloodStockService>;
