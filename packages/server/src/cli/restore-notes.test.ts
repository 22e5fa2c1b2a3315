import { describe, expect, it } from 'vitest';
import { nextSteps } from '../db/backup.ts';
import { restoreKeysNote } from './backup-client.ts';

/**
 * What `npm run backup` and `npm run restore` say about the keys (decision 042), for each kind of
 * database: on PostgreSQL JWT_SECRET is required like the other two (config.ts), so nothing there may
 * say that a missing one only signs everyone out (issue 43).
 */
const keys = { jwtSecret: undefined, totpKey: undefined, seedKey: undefined };

describe('the notes on the keys a restore needs', () => {
  it('on PostgreSQL: all four variables are required, none is made anew', () => {
    const postgres = { databaseUrl: 'postgres://lot@db/lot', dataDir: '/var/lib/lot' };
    const note = restoreKeysNote({
      ...postgres,
      jwtSecret: 'j'.repeat(32),
      totpKey: 't'.repeat(32),
      seedKey: 's'.repeat(32),
      logKey: 'l'.repeat(32),
    });
    const step = nextSteps(postgres)[1] ?? '';
    for (const text of [note, step]) {
      expect(text).not.toMatch(/without (the )?jwt[- ]secret/i);
      expect(text).not.toContain('makes a new one');
    }
    expect(note).toContain('the server starts only with all four set');
    expect(note).toContain('LOG_KEY (as set here)');
    expect(step).toContain('The server refuses to start without all four');
  });

  it('on the embedded database: a missing jwt-secret is made anew and everyone signs in again', () => {
    const pglite = { databaseUrl: undefined, dataDir: '/srv/lot/data' };
    expect(restoreKeysNote({ ...pglite, ...keys })).toContain(
      'without the JWT secret it makes a new one and everyone signs in again',
    );
    expect(nextSteps(pglite)[1]).toContain('without jwt-secret it makes a new one and everyone signs in again');
  });
});
