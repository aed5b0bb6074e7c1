// IP address text: parsing into one canonical form (so "::1" and
// "0:0:0:0:0:0:0:1" are the same client), and the bucket a client is
// counted in (an IPv6 client usually owns a whole /64, so it is one bucket).

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;
const IPV4_WITH_PORT = /^\d{1,3}(?:\.\d{1,3}){3}:\d+$/;
const HEXTET = /^[0-9a-f]{1,4}$/i;

/**
 * The canonical form of an address (IPv4 dotted, IPv6 as eight lower-case
 * groups), or null when `raw` is not an address. Accepts a port on IPv4
 * (`1.2.3.4:80`) and brackets on IPv6 (`[::1]:80`), drops an IPv6 zone, and
 * turns IPv4-mapped IPv6 (`::ffff:1.2.3.4`) into IPv4.
 */
export function canonicalAddress(raw: string): string | null {
  let text = raw.trim();
  if (text.startsWith("[")) {
    const end = text.indexOf("]");
    if (end < 0) return null;
    text = text.slice(1, end);
  } else if (IPV4_WITH_PORT.test(text)) {
    text = text.slice(0, text.lastIndexOf(":"));
  }
  const zone = text.indexOf("%");
  if (zone >= 0) text = text.slice(0, zone);
  const v4 = ipv4Bytes(text);
  if (v4 !== null) return v4.join(".");
  const groups = ipv6Groups(text);
  if (groups === null) return null;
  const mapped = groups.slice(0, 5).every((g) => g === 0) &&
    groups[5] === 0xffff;
  if (mapped) {
    const [hi, lo] = [groups[6]!, groups[7]!];
    return [hi >> 8, hi & 255, lo >> 8, lo & 255].join(".");
  }
  return groups.map((g) => g.toString(16)).join(":");
}

/** The bucket a canonical address is counted in: itself, or its IPv6 /64. */
export function addressBucket(address: string): string {
  if (!address.includes(":")) return address;
  return `${address.split(":").slice(0, 4).join(":")}::/64`;
}

function ipv4Bytes(text: string): number[] | null {
  const match = IPV4.exec(text);
  if (match === null) return null;
  const bytes = match.slice(1).map(Number);
  return bytes.every((b) => b <= 255) ? bytes : null;
}

function ipv6Groups(text: string): number[] | null {
  let rest = text;
  let tail4: number[] = [];
  const lastColon = rest.lastIndexOf(":");
  if (lastColon < 0) return null;
  if (rest.slice(lastColon + 1).includes(".")) {
    const bytes = ipv4Bytes(rest.slice(lastColon + 1));
    if (bytes === null) return null;
    tail4 = [bytes[0]! * 256 + bytes[1]!, bytes[2]! * 256 + bytes[3]!];
    rest = rest.slice(0, lastColon + 1);
    if (!rest.endsWith("::")) rest = rest.slice(0, -1);
  }
  const halves = rest.split("::");
  if (halves.length > 2) return null;
  const parse = (part: string) =>
    part === ""
      ? []
      : part.split(":").map((g) => HEXTET.test(g) ? parseInt(g, 16) : NaN);
  const head = parse(halves[0]!);
  const tail = halves.length === 2 ? parse(halves[1]!) : [];
  if ([...head, ...tail].some(Number.isNaN)) return null;
  const given = head.length + tail.length + tail4.length;
  if (halves.length === 1) return given === 8 ? [...head, ...tail4] : null;
  if (given > 7) return null;
  const zeros = new Array<number>(8 - given).fill(0);
  return [...head, ...zeros, ...tail, ...tail4];
}
