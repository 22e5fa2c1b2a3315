import { randomBytes } from 'node:crypto';

export type FilePart = { filename: string; contentType: string; data: Buffer };

/**
 * A multipart/form-data body built by hand, as a browser sends the profile form: text fields,
 * then file fields. Returns what app.inject needs (payload and content-type header).
 */
export function multipart(
  fields: Record<string, string>,
  files: Record<string, FilePart> = {},
): { payload: Buffer; headers: { 'content-type': string } } {
  const boundary = `----lot-test-${randomBytes(8).toString('hex')}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  for (const [name, file] of Object.entries(files)) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${file.filename}"\r\n` +
          `Content-Type: ${file.contentType}\r\n\r\n`,
      ),
      file.data,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}
