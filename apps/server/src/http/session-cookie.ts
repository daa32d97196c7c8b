import type { AreaName } from '@atrium/shared/areas';
import { Limits } from '@atrium/shared';
import { fileLibraryAddresses } from '@atrium/shared/contract/files';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * The file manager's session cookie (issue 31; README "Security"): pages that cannot send the
 * token header (ModStart's jQuery and WebUploader) are known by this cookie on the file-manager
 * routes alone. Atrium's sign-in sets it and every token rotation renews it, so an open page
 * always sends the live token; sign-out clears it. HttpOnly (no script reads it), SameSite=Strict
 * (no other site's page sends it), Secure on https, and scoped to the area's file-manager path.
 */
export const fileManagerCookies = {
  admin: { name: 'atrium-admin-files', path: scopeOf(fileLibraryAddresses.admin) },
  member: { name: 'atrium-files', path: scopeOf(fileLibraryAddresses.member) },
} as const satisfies Record<AreaName, { name: string; path: string }>;

/** `/admin/data/file_manager/:category` → `/admin/data/file_manager`. */
function scopeOf(address: string): string {
  return address.slice(0, address.lastIndexOf('/'));
}

/** Puts the area's live token in its file-manager cookie. */
export function setFileManagerCookie(
  req: FastifyRequest,
  reply: FastifyReply,
  area: AreaName,
  token: string,
): void {
  const { name, path } = fileManagerCookies[area];
  reply.setCookie(name, token, {
    path,
    httpOnly: true,
    sameSite: 'strict',
    secure: req.protocol === 'https',
    maxAge: Math.floor(Limits.sessionMaxAgeMs / 1000),
  });
}

export function clearFileManagerCookie(reply: FastifyReply, area: AreaName): void {
  const { name, path } = fileManagerCookies[area];
  reply.clearCookie(name, { path, httpOnly: true, sameSite: 'strict' });
}

function originOf(address: string): string | undefined {
  try {
    return new URL(address).origin;
  } catch {
    return undefined;
  }
}

/** The site's origin: PUBLIC_URL's, else the request's own scheme and host. */
export function siteOriginOf(publicUrl: string | undefined, req: FastifyRequest): string {
  const configured = publicUrl ? originOf(publicUrl) : undefined;
  const own = `${req.protocol}://${req.host}`;
  return configured ?? originOf(own) ?? own;
}

/**
 * Whether the browser proves the request comes from the site's own pages: Fetch Metadata says
 * `same-origin`, or (browsers without it) the `Origin`, else the `Referer`, is the site's origin.
 * A request proving nothing (no header at all) is refused: a cookie alone never signs one in.
 */
export function sameOriginProof(req: FastifyRequest, siteOrigin: string): boolean {
  const fetchSite = req.headers['sec-fetch-site'];
  if (fetchSite !== undefined) return fetchSite === 'same-origin';
  const origin = req.headers.origin;
  if (origin !== undefined) return origin === siteOrigin;
  const referer = req.headers.referer;
  return referer !== undefined && originOf(referer) === siteOrigin;
}

/** The area's token from its file-manager cookie, when the request proves its origin. */
export function fileManagerCookieToken(
  req: FastifyRequest,
  area: AreaName,
  siteOrigin: string,
): string | undefined {
  const token = req.cookies[fileManagerCookies[area].name];
  if (!token || token.length > 256) return undefined;
  return sameOriginProof(req, siteOrigin) ? token : undefined;
}
