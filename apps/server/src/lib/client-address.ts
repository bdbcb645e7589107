import { isIPv4, isIPv6 } from 'node:net';

/**
 * The key of a client address for the per-address limits (issue #32 item 8). An IPv4 address is
 * itself. An IPv6 client is given a whole /64 (RFC 6177, RFC 7934: one subscriber's network, and
 * a phone on Jio or Airtel gets one), and picks any of its 2^64 addresses at will (privacy
 * addresses, RFC 8981): keyed per address it would have 2^64 allowances. So an IPv6 address is
 * keyed by its /64 (`2001:db8:1:2::/64`). An IPv4-mapped IPv6 address (`::ffff:203.0.113.5`, a
 * dual-stack socket) is the IPv4 address it carries. Anything else (no address) is kept as it is.
 */
export function addressKey(ip: string | null | undefined): string {
  if (!ip) return 'unknown';
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped && isIPv4(mapped[1]!)) return mapped[1]!;
  if (!isIPv6(ip)) return ip;
  // A zone (`fe80::1%eth0`) names the interface, not the network.
  const address = ip.split('%')[0]!.toLowerCase();
  const [head = '', tail] = address.split('::') as [string, string | undefined];
  const headGroups = head ? head.split(':') : [];
  let groups: string[];
  if (tail === undefined) {
    groups = headGroups;
  } else {
    const tailGroups = tail ? tail.split(':') : [];
    // An embedded IPv4 tail (`64:ff9b::192.0.2.1`) is two groups; only the first four matter.
    const tailCount = tailGroups.reduce((n, group) => n + (group.includes('.') ? 2 : 1), 0);
    groups = [...headGroups, ...Array(8 - headGroups.length - tailCount).fill('0'), ...tailGroups];
  }
  const prefix = groups.slice(0, 4).map((group) => (group.includes('.') ? '0' : group));
  while (prefix.length < 4) prefix.push('0');
  return `${prefix.map((group) => Number.parseInt(group, 16).toString(16)).join(':')}::/64`;
}
