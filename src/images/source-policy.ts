/**
 * Where the build takes images from. An image URL is content: an editor's mistake or a compromised
 * CMS can point it anywhere, and the build (in CI, on the webhook server) would fetch it from inside
 * the network it runs in: a metadata service, a database's HTTP port, a router. So images come only
 * from the repository's Prismic image CDN (`https://images.prismic.io/<repository>/…`) and from the
 * hosts the operator lists (`NZF_IMAGE_HOSTS`, `host` or `host:port`), and never from a private,
 * loopback, link-local, shared or reserved address, whatever a host name resolves to (checked on
 * the addresses the connection then uses, so a rebinding DNS answer cannot slip one in).
 *
 * The one way to reach a local address is to list it by its address (`127.0.0.1:4567`): a local
 * image server the operator runs on purpose (the tests' stand-ins). A listed *name* that resolves
 * to such an address is still refused.
 */
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from "node:dns";
import ipaddr from "ipaddr.js";
import { NzfError } from "../core/errors.js";

export const PRISMIC_IMAGE_HOST = "images.prismic.io";

export interface ImageSourcePolicy {
  /** The Prismic repository whose CDN path images may come from (the content's own repository). */
  repository?: string;
  /** More hosts (`host` or `host:port`, lower case) images may come from: the NZF_IMAGE_HOSTS setting. */
  hosts: readonly string[];
}

/** Whether `address` (IPv4 or IPv6, IPv4-mapped IPv6 included) is a public unicast address. */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  // process() turns ::ffff:127.0.0.1 into 127.0.0.1, so a mapped address is judged as the IPv4 one.
  // Every range but "unicast" is refused: loopback, private, linkLocal (169.254.169.254, the cloud
  // metadata address), uniqueLocal (fd00:ec2::254), carrierGradeNat, unspecified, multicast, and
  // the translation ranges (6to4, teredo, rfc6052) that can carry a private IPv4 address inside.
  return ipaddr.process(address).range() === "unicast";
}

/** The host of a URL without IPv6 brackets. */
function bareHostname(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, "");
}

/**
 * Why the build must not fetch `url`, or null when it may (before DNS: the addresses are checked
 * when connecting, by `checkedLookup`).
 */
export function imageUrlRefusal(url: string, policy: ImageSourcePolicy): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "it is not an absolute URL";
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:")
    return `it is a ${parsed.protocol.slice(0, -1)}: URL, not http(s)`;
  if (parsed.username || parsed.password) return "it carries credentials";
  const host = parsed.host.toLowerCase();
  if (policy.hosts.includes(host)) {
    // A listed address is the operator's choice; a listed name is checked after DNS resolution.
    return null;
  }
  if (host === PRISMIC_IMAGE_HOST) {
    if (parsed.protocol !== "https:") return `Prismic's image CDN is taken over https only`;
    if (policy.repository && parsed.pathname.startsWith(`/${policy.repository}/`)) return null;
    return `it is not on the repository's path of Prismic's image CDN (https://${PRISMIC_IMAGE_HOST}/${policy.repository ?? "<repository>"}/)`;
  }
  const name = bareHostname(parsed);
  if (ipaddr.isValid(name) && !isPublicAddress(name))
    return `its host ${host} is not a public address (${ipaddr.process(name).range()})`;
  return `its host ${host} is not ${PRISMIC_IMAGE_HOST}/${policy.repository ?? "<repository>"} or one of NZF_IMAGE_HOSTS (${policy.hosts.join(", ") || "none"})`;
}

/** The error a connection refused by `checkedLookup` fails with (the download maps it to IMAGE_REFUSED). */
export class AddressRefusedError extends Error {
  readonly hostname: string;
  readonly address: string;
  constructor(hostname: string, address: string) {
    super(
      `${hostname} resolves to ${address}, not a public address (${ipaddr.isValid(address) ? ipaddr.process(address).range() : "invalid"})`,
    );
    this.name = "AddressRefusedError";
    this.hostname = hostname;
    this.address = address;
  }
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for node:http(s) connections: resolves the name as the system would, and fails the
 * connection when any address it resolves to is not public. Node connects to the addresses this
 * returns, so what was checked is what is used.
 */
export function checkedLookup(hostname: string, options: LookupOptions, callback: LookupCallback): void {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, []);
    const refused = addresses.find((a) => !isPublicAddress(a.address));
    if (refused) return callback(new AddressRefusedError(hostname, refused.address) as NodeJS.ErrnoException, []);
    if (addresses.length === 0)
      return callback(Object.assign(new Error(`${hostname} has no address`), { code: "ENOTFOUND" }), []);
    if (options.all) return callback(null, addresses);
    return callback(null, addresses[0]!.address, addresses[0]!.family);
  });
}

/** The coded refusal for `url`, naming why. */
export function refused(url: string, why: string): NzfError {
  return new NzfError("IMAGE_REFUSED", `Image ${url} was refused: ${why}`);
}
