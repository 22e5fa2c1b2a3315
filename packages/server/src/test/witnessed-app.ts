import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { firstRoundAfter, roundTimeMs } from '@lot/domain/beacon';
import type { GameLogInfo } from '@lot/domain/schemas/log';
import { openWitnessFiles, trustLog, type WitnessFiles } from '../witness/witness-files.ts';
import { witnessHandler } from '../witness/witness-server.ts';
import { createMoneyTestApp, expectStatus } from './money-fixtures.ts';
import type { TestApp } from './test-app.ts';

type Handle = (request: IncomingMessage, response: ServerResponse) => void;

export type WitnessedApp = {
  t: TestApp;
  /** The witness's key, trusted logs and state (its data directory is `dir`). */
  files: WitnessFiles;
  dir: string;
  /** Where the witness takes submissions (as DRAW_WITNESSES names it). */
  url: string;
  /** GET /api/log: the log's origin, key, checkpoint and witnesses. */
  logInfo: () => Promise<GameLogInfo>;
  /** Just past a beacon round, so R is at least a whole period away: room for a cosignature. */
  justAfterARound: () => void;
  close: () => Promise<void>;
};

/**
 * The repository's witness (server/src/witness) in this process on 127.0.0.1, trusting the log of a
 * stopped-clock money app that asks it at each freeze (decision 080). The witness dates its
 * cosignatures by the app's clock plus `skewMs()`; `serve` may answer a request otherwise than the
 * witness would (down, slow, refusing) before handing it on.
 */
export async function witnessedApp(
  name: string,
  options: { skewMs?: () => number; serve?: (handle: Handle) => Handle } = {},
): Promise<WitnessedApp> {
  const dir = mkdtempSync(join(tmpdir(), 'lot-witness-'));
  const files = openWitnessFiles(dir, name);
  // The witness is up before the app it witnesses exists: until then, the machine's clock.
  const made: { app?: TestApp } = {};
  const clock = () => (made.app?.now() ?? Date.now()) + (options.skewMs?.() ?? 0);
  const handle = witnessHandler({ files, clock });
  const server = createServer(options.serve?.(handle) ?? handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const app = await createMoneyTestApp({
    stoppedClock: true,
    witnesses: { list: [{ vkey: files.cosigner.vkey, url, name: files.cosigner.name }], quorum: 1 },
  });
  made.app = app;
  const logInfo = async () => {
    const response = await app.request(null, { method: 'GET', url: '/api/log' });
    expectStatus(response, 200);
    return response.json<GameLogInfo>();
  };
  trustLog(files, (await logInfo()).vkey);
  return {
    t: app,
    files,
    dir,
    url,
    logInfo,
    justAfterARound: () => {
      const chain = app.beacon?.chain;
      if (!chain) throw new Error('a witnessed freeze needs the test beacon');
      app.advanceClock(roundTimeMs(chain, firstRoundAfter(chain, app.now())) - app.now() + 10);
    },
    close: async () => {
      await app.close();
      server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
