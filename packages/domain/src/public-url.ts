/**
 * Public links (docs/product/runtime-and-security.md#public-url): every QR code, printed link and
 * share link is the public base — PUBLIC_URL, or without it the address the request came in on —
 * followed by a path. A base whose host a customer's phone cannot reach (localhost, a loopback,
 * private or link-local address) is worth a warning where slips are printed.
 */

/** `https://lot.example.com` + `/verify/ABC` (the base never ends in a slash; the path starts with one). */
export const publicLink = (base: string, path: string): string => `${base.replace(/\/+$/, '')}${path}`;

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

function unreachableIpv4(octets: number[]): boolean {
  const [a = -1, b = -1] = octets;
  return (
    a === 0 || // this network, 0.0.0.0
    a === 10 ||
    a === 127 ||
    (a === 100 && b >= 64 && b <= 127) || // carrier-grade NAT
    (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168)
  );
}

/**
 * Whether a host name is one only this machine or its local network can reach: `localhost` (and
 * `*.localhost`), IPv4 loopback, private (RFC 1918, shared 100.64/10), link-local and 0.0.0.0, IPv6
 * loopback, unspecified, unique-local (fc00::/7), link-local (fe80::/10) and IPv4-mapped forms of
 * those. `hostname` as `URL.hostname` gives it (IPv6 in brackets is fine).
 */
export function isUnreachableHost(hostname: string): boolean {
  const host = hostname
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  const v4 = IPV4.exec(host);
  if (v4) return unreachableIpv4(v4.slice(1).map(Number));
  if (!host.includes(':')) return false;
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(host);
  if (mapped?.[1]) return isUnreachableHost(mapped[1]);
  // URL writes a mapped IPv4 address in hex: [::ffff:7f00:1] is 127.0.0.1.
  const mappedHex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(host);
  if (mappedHex) {
    const [high, low] = [parseInt(mappedHex[1] ?? '0', 16), parseInt(mappedHex[2] ?? '0', 16)];
    return unreachableIpv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
  }
  if (host === '::1' || host === '::') return true;
  const first = parseInt(host.split(':')[0] || '0', 16);
  return (first & 0xfe00) === 0xfc00 || (first & 0xffc0) === 0xfe80;
}
