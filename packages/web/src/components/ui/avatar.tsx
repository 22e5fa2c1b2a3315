import { useEffect, useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { apiBlob } from '../../lib/api-client.ts';

/**
 * The user's logo, or the first letter of the full name ('U' without one) when there is no logo
 * or it fails to load. The logo needs the session token, so it is fetched and shown as a blob.
 */
export const logoQueryKey = (userId: number) => ['logo', userId] as const;

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
  // Invalidating ['logo', userId] (after an upload) fetches it again; ?t= defeats any cache.
  const logo = useQuery({
    queryKey: logoQueryKey(userId),
    queryFn: () => apiBlob(`/api/users/${userId}/logo`, { query: { t: Date.now() } }),
    enabled: hasLogo,
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
  const url = useMemo(() => (logo.data ? URL.createObjectURL(logo.data) : null), [logo.data]);
  useEffect(() => () => (url ? URL.revokeObjectURL(url) : undefined), [url]);
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
