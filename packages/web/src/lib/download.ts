import { ApiError, apiResponse, type ApiOptions } from './api-client.ts';

/*
 * Apart from api-client.ts so that only the screens with an export load it (e2e/bench-budget.test.ts
 * holds every first screen to 150 kB).
 */

export type Download = { blob: Blob; fileName: string };

/**
 * A file the server streams (an export): read as it arrives, telling `onProgress` how many bytes
 * have come, and named as the server's Content-Disposition says.
 */
export async function apiDownload(
  path: string,
  options: ApiOptions & { onProgress?: (bytes: number) => void },
): Promise<Download> {
  const response = await apiResponse(path, options);
  const disposition = response.headers.get('content-disposition') ?? '';
  const fileName = /filename="([^"]+)"/.exec(disposition)?.[1] ?? 'export';
  const type = response.headers.get('content-type') ?? 'application/octet-stream';
  if (!response.body) return { blob: await response.blob(), fileName };
  const parts: BlobPart[] = [];
  let received = 0;
  const reader = response.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parts.push(value);
      received += value.byteLength;
      options.onProgress?.(received);
    }
  } catch {
    throw new ApiError(0, 'The download was cut off. Try again.', 'NETWORK');
  }
  return { blob: new Blob(parts, { type }), fileName };
}
