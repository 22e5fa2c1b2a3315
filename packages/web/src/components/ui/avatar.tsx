import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { apiBlob } from '../../lib/api-client.ts';

/**
 * The user's logo, or the first letter of the full name ('U' without one) when there is no logo
 * or it fails to load. The logo needs the session token, so it is fetched, then shown as a data URL.
 */
/** A data URL needs no revoking, unlike a blob URL (which React's double effects would revoke in use). */
function toDataUrl(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('could not read the logo'));
    reader.readAsDataURL(blob);
  });
}

export const logoQueryKey = (userId: number) => ['logo', userId] as const;

/** The user's logo as a data URL (null without one, while it loads or when it failed), shared with every Avatar. */
export function useLogo(userId: number, hasLogo: boolean): string | null {
  // Invalidating ['logo', userId] (after an upload) fetches it again; ?t= defeats any cache.
  const logo = useQuery({
    queryKey: logoQueryKey(userId),
    queryFn: async () => toDataUrl(await apiBlob(`/api/users/${userId}/logo`, { query: { t: Date.now() } })),
    enabled: hasLogo,
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
  return hasLogo ? (logo.data ?? null) : null;
}

export function Avatar({
  userId,
  fullName,
  hasLogo,
  size = 'md',
}: {
  userId: number;
  fullName?: string | null;
  hasLogo: boolean;
  size?: 'sm' | 'md' | 'lg' | 'xl';
}) {
  const url = useLogo(userId, hasLogo);
  const [failedUrl, setFailedUrl] = useState<string | null>(null);
  const failed = url !== null && failedUrl === url;

  const dimension = {
    sm: 'h-8 w-8 text-sm',
    md: 'h-10 w-10 text-base',
    lg: 'h-16 w-16 text-2xl',
    xl: 'h-24 w-24 text-4xl',
  }[size];
  const initial = (fullName?.trim()[0] ?? 'U').toUpperCase();
  if (hasLogo && url && !failed) {
    return (
      <img
        src={url}
        alt={`${fullName ?? 'User'} logo`}
        onError={() => setFailedUrl(url)}
        className={`${dimension} shrink-0 rounded-full bg-white object-cover ring-2 ring-white`}
      />
    );
  }
  return (
    <span
      aria-hidden="true"
      data-testid="avatar-initial"
      className={`${dimension} inline-flex shrink-0 items-center justify-center rounded-full bg-indigo-100 font-semibold text-indigo-700`}
    >
      {initial}
    </span>
  );
}
