import type { Role } from './world';

/**
 * Issue #14, "privacy matrix": the personal values of the security tests' cast, whose each one
 * is, and who may receive it. The authorisation matrix calls every route as every role; each
 * reply is searched for every value the caller is not entitled to, and a hit fails with the route,
 * the caller, whose value it is and the JSON path that carried it.
 */
export const OWNERS = [
  'admin',
  'hospital',
  'pendingDonor',
  'approvedDonor',
  'otherDonor',
  'subjectDonor',
  /** approvedDonor's own request. */
  'donorRequest',
  /** The hospital account's own request; approvedDonor was matched to it. */
  'hospitalRequest',
  /** A guest's request naming another hospital. */
  'guestRequest',
] as const;
export type Owner = (typeof OWNERS)[number];

export type SecretKind =
  | 'fullName'
  | 'surname'
  | 'email'
  | 'phone'
  | 'point'
  | 'patientName'
  | 'notes'
  | 'contactName'
  | 'contactPhone'
  | 'contactEmail'
  | 'address';

export interface Secret {
  owner: Owner;
  kind: SecretKind;
  value: string;
}

/** The national part of an Indian number: found however a reply formats it. */
const nationalDigits = (phone: string) => phone.replace(/\D/g, '').slice(-10);

export function accountSecrets(
  owner: Owner,
  row: {
    fullName: string;
    email: string;
    phone: string | null;
    latitude?: number | null;
    role: string;
  },
): Secret[] {
  const secrets: Secret[] = [
    { owner, kind: 'email', value: row.email },
    ...(row.phone ? [{ owner, kind: 'phone' as const, value: nationalDigits(row.phone) }] : []),
  ];
  // A hospital account's name is its hospital's, shown on every request that names it.
  if (row.role !== 'hospital') {
    const surname = row.fullName.trim().split(/\s+/).at(-1)!;
    secrets.push({ owner, kind: 'fullName', value: row.fullName });
    secrets.push({ owner, kind: 'surname', value: surname });
  }
  // The cast stands on one meridian north of Hyderabad: the latitude tells them apart.
  if (row.latitude != null) secrets.push({ owner, kind: 'point', value: String(row.latitude) });
  return secrets;
}

export function requestSecrets(
  owner: Owner,
  request: {
    patientName: string | null;
    notes: string | null;
    contactName: string;
    contactPhone: string;
    contactEmail: string | null;
    address: string | null;
    latitude: number | null;
  },
): Secret[] {
  const secrets: Secret[] = [
    { owner, kind: 'contactName', value: request.contactName },
    { owner, kind: 'contactPhone', value: nationalDigits(request.contactPhone) },
  ];
  const optional: [SecretKind, string | null][] = [
    ['patientName', request.patientName],
    ['notes', request.notes],
    ['contactEmail', request.contactEmail],
    ['address', request.address],
    ['point', request.latitude === null ? null : String(request.latitude)],
  ];
  for (const [kind, value] of optional) if (value) secrets.push({ owner, kind, value });
  return secrets;
}

const OWN: Partial<Record<Role, readonly Owner[]>> = {
  hospital: ['hospital', 'hospitalRequest'],
  pendingDonor: ['pendingDonor'],
  approvedDonor: ['approvedDonor', 'donorRequest'],
  otherDonor: ['otherDonor'],
};

/**
 * Who may receive what besides their own, each with the reason (the decisions of issue #14, also
 * written in the OpenAPI description):
 * - administrators see everything (their reads of others' contacts are logged);
 * - a donor who accepted a request sees its contact name, phone and address, and (issue #18: what
 *   they need to get there) its point for a maps link and its notes (ward, blood bank) — never
 *   the patient's name or the requester's e-mail — in the matched view, and none of it again
 *   after withdrawing;
 * - the hospital sees the name and phone of donors who accepted its request in its donor list
 *   (it calls them to arrange the donation); the tracking page shows their first names only.
 */
const EXCEPTIONS: {
  role: Role;
  owner: Owner;
  kinds: readonly SecretKind[];
  routes: readonly string[];
}[] = [
  {
    role: 'approvedDonor',
    owner: 'hospitalRequest',
    kinds: ['contactName', 'contactPhone', 'address', 'point', 'notes'],
    routes: [
      'GET /api/v1/blood-requests',
      'GET /api/v1/blood-requests/:id',
      'POST /api/v1/blood-requests/:id/respond',
    ],
  },
  {
    role: 'hospital',
    owner: 'approvedDonor',
    kinds: ['fullName', 'surname', 'phone'],
    routes: ['GET /api/v1/blood-requests/:id/donors'],
  },
];

export function isEntitled(role: Role, route: string, secret: Secret): boolean {
  if (role === 'admin') return true;
  if (OWN[role]?.includes(secret.owner)) return true;
  return EXCEPTIONS.some(
    (rule) =>
      rule.role === role &&
      rule.owner === secret.owner &&
      rule.kinds.includes(secret.kind) &&
      rule.routes.includes(route),
  );
}

/** JSON paths of the leaves that carry `value` (the whole text when the body is not JSON). */
function pathsOf(body: string, value: string): string[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return ['(body)'];
  }
  const found: string[] = [];
  const walk = (node: unknown, path: string) => {
    if (node === null || node === undefined) return;
    if (typeof node === 'object') {
      for (const [key, child] of Object.entries(node)) {
        walk(child, Array.isArray(node) ? `${path}[${key}]` : `${path}.${key}`);
      }
      return;
    }
    if (String(node).includes(value)) found.push(path);
  };
  walk(parsed, '$');
  return found.length > 0 ? found : ['(body)'];
}

/** Every value in `body` that `role` may not receive from `route`, described for the failure. */
export function leaksIn(
  body: string,
  role: Role,
  route: string,
  secrets: readonly Secret[],
): string[] {
  const leaks: string[] = [];
  for (const secret of secrets) {
    if (!body.includes(secret.value) || isEntitled(role, route, secret)) continue;
    for (const path of pathsOf(body, secret.value)) {
      leaks.push(`${route} as ${role}: ${path} carries ${secret.owner}'s ${secret.kind}`);
    }
  }
  return leaks;
}
