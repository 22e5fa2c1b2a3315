import { queryOptions, useQuery } from '@tanstack/react-query';
import { isUnreachableHost, publicLink } from '@lot/domain/public-url';
import type { PublicUrl } from '@lot/domain/schemas/public-url';
import { api } from './api-client.ts';

/**
 * The base of every public link — QR codes, printed and shared links (docs/product/runtime-and-security.md#public-url):
 * the server's PUBLIC_URL, or the address the app's request reached it on. Asked once per page load.
 */
export const publicUrlQuery = () =>
  queryOptions({
    queryKey: ['public-url'],
    queryFn: () => api<PublicUrl>('/api/public-url', { anonymous: true }),
    staleTime: Infinity,
    gcTime: Infinity,
  });

export type PublicBase = {
  /** The base (no trailing slash), or null while it is being asked for. */
  base: string | null;
  /** True when PUBLIC_URL is unset and the base's host is one a customer's phone cannot reach. */
  unreachable: boolean;
};

/**
 * The public base for building links with `publicLink` (or `proofLink`). Should the server not answer, the page's
 * own address stands in (what a link would have used before PUBLIC_URL existed).
 */
export function usePublicBase(): PublicBase {
  const query = useQuery(publicUrlQuery());
  const answer: PublicUrl | undefined = query.isError
    ? { publicUrl: window.location.origin, configured: false }
    : query.data;
  if (!answer) return { base: null, unreachable: false };
  return {
    base: answer.publicUrl,
    unreachable: !answer.configured && isUnreachableHost(new URL(answer.publicUrl).hostname),
  };
}

/** A game's public proof page, the link its slips, receipts and display print. */
export const proofLink = (base: string, code: string): string => publicLink(base, `/verify/${code}`);
