import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Clock } from '../lib/clock.ts';
import { addCheckpoint, type WitnessAnswer } from './add-checkpoint.ts';
import type { WitnessFiles } from './witness-files.ts';

/**
 * The witness's HTTP face (C2SP tlog-witness), on plain node:http and independent of the LOT app:
 *
 * - `POST /add-checkpoint`: the submission API (add-checkpoint.ts);
 * - `GET /<hex SHA-256 of an origin>/checkpoint`: the monitoring API, the latest checkpoint it
 *   cosigned for that log, with the log's signatures and its own.
 *
 * The submission and monitoring prefixes are the server's root.
 */

/** The largest body read: a checkpoint with 64 signatures and 63 proof lines is under 16 KiB. */
export const MAX_BODY_BYTES = 64 * 1024;

export type WitnessServerOptions = {
  files: WitnessFiles;
  clock: Clock;
  /** Told of every refusal (a 422 is evidence the log misbehaved) and of every cosignature. */
  log?: (line: string) => void;
};

class BodyTooLarge extends Error {}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new BodyTooLarge();
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function send(response: ServerResponse, { status, contentType, body }: WitnessAnswer, headers = {}) {
  response.writeHead(status, { 'Content-Type': contentType, 'Cache-Control': 'no-store', ...headers });
  response.end(body);
}

const text = (status: number, body: string): WitnessAnswer => ({
  status,
  contentType: 'text/plain; charset=utf-8',
  body: `${body}\n`,
});

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

async function handleAdd(request: IncomingMessage, response: ServerResponse, options: WitnessServerOptions) {
  let raw: Buffer;
  try {
    raw = await readBody(request);
  } catch (error) {
    if (error instanceof BodyTooLarge) {
      send(response, text(413, `The body is over ${MAX_BODY_BYTES} bytes.`), { Connection: 'close' });
      return;
    }
    throw error;
  }
  let body: string;
  try {
    body = utf8.decode(raw);
  } catch {
    send(response, text(400, 'Malformed add-checkpoint request: the body is not UTF-8.'));
    return;
  }
  const result = addCheckpoint(options.files, body, options.clock());
  if (result.refusal) options.log?.(`${result.status} ${result.refusal.origin ?? '-'}: ${result.refusal.reason}`);
  if (result.cosigned) {
    const { origin, size, timestamp } = result.cosigned;
    options.log?.(`200 ${origin}: cosigned size ${size} at ${timestamp}`);
  }
  send(response, result);
}

function handleMonitor(origin: string, response: ServerResponse, files: WitnessFiles) {
  const found = Object.entries(files.state).find(
    ([name]) => createHash('sha256').update(name, 'utf8').digest('hex') === origin,
  );
  if (!found) {
    send(response, text(404, 'This witness has cosigned no checkpoint of that log.'));
    return;
  }
  send(response, { status: 200, contentType: 'text/plain; charset=utf-8', body: found[1].checkpoint });
}

/** The request listener: routes, methods and failures (a failure answers 500 without details). */
export function witnessHandler(options: WitnessServerOptions) {
  return (request: IncomingMessage, response: ServerResponse) => {
    const path = (request.url ?? '/').split('?')[0]!;
    const monitor = /^\/([0-9a-f]{64})\/checkpoint$/.exec(path);
    const route = async () => {
      if (path === '/add-checkpoint') {
        if (request.method !== 'POST') return send(response, text(405, 'Use POST.'), { Allow: 'POST' });
        return handleAdd(request, response, options);
      }
      if (monitor) {
        if (request.method !== 'GET' && request.method !== 'HEAD') {
          return send(response, text(405, 'Use GET.'), { Allow: 'GET, HEAD' });
        }
        return handleMonitor(monitor[1]!, response, options.files);
      }
      send(response, text(404, 'Not found: this is a C2SP tlog-witness; POST /add-checkpoint.'));
    };
    route().catch((error: unknown) => {
      options.log?.(`500 ${error instanceof Error ? error.message : String(error)}`);
      if (!response.headersSent) send(response, text(500, 'The witness failed; nothing was cosigned.'));
      else response.destroy();
    });
  };
}

/** Starts the witness on host:port (port 0: any free port); resolves with the server and its URL. */
export async function startWitnessServer(
  options: WitnessServerOptions & { host: string; port: number },
): Promise<{ server: Server; url: string }> {
  const server = createServer({ keepAlive: true }, witnessHandler(options));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const { address, port } = server.address() as AddressInfo;
  const host = address.includes(':') ? `[${address}]` : address;
  return { server, url: `http://${host}:${port}` };
}
