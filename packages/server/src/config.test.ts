import { describe, expect, it } from 'vitest';
import { QUICKNET } from '@lot/domain/beacon';
import { ed25519Cosigner, ed25519NoteSigner } from './lib/note-signer.ts';
import { ConfigError, DEFAULT_BEACON_URLS, loadConfig } from './config.ts';

const SECRET = 'x'.repeat(32);
const KEY = 'k'.repeat(32);
const SEED_KEY = 's'.repeat(32);
const LOG_KEY = 'l'.repeat(32);
/** What PostgreSQL needs besides its URL. */
const POSTGRES = { DATABASE_URL: 'postgres://localhost/lot', JWT_SECRET: SECRET, TOTP_KEY: KEY, SEED_KEY, LOG_KEY };

/** The ConfigError thrown for `env`, so a test can read which variables it names. */
function configError(env: NodeJS.ProcessEnv): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

describe('loadConfig', () => {
  it('gives the defaults for an empty environment', () => {
    expect(loadConfig({})).toEqual({
      port: 3000,
      host: '127.0.0.1',
      dataDir: './data',
      databaseDirectUrl: undefined,
      databasePrepared: true,
      databaseUrl: undefined,
      jwtSecret: undefined,
      totpKey: undefined,
      seedKey: undefined,
      logKey: undefined,
      // The game log is named after the public host; without PUBLIC_URL, localhost.
      logOrigin: 'localhost/games',
      adminUsername: 'admin',
      adminPassword: undefined,
      logLevel: 'info',
      metricsAllow: ['127.0.0.1', '::1'],
      trustProxy: false,
      publicUrl: undefined,
      // Stops at once: nothing to drain without a balancer.
      stopDrainMs: 0,
      // Hourly signed audit checkpoints beside the data (decision 045).
      checkpoints: { dir: 'data/checkpoints', minutes: 60 },
      // No witness: freezes are not witnessed (decision 080).
      witnesses: { list: [], quorum: 0 },
      // The embedded database plays LOT-DRAW-1 while drand's quicknet cannot be reached.
      beacon: { mode: 'auto', urls: DEFAULT_BEACON_URLS, chainHash: QUICKNET.chainHash, freezeMarginMs: 2000 },
    });
    expect(DEFAULT_BEACON_URLS).toEqual(['https://api.drand.sh', 'https://api2.drand.sh', 'https://api3.drand.sh']);
  });

  it('reads every variable', () => {
    expect(
      loadConfig({
        PORT: '8080',
        HOST: '0.0.0.0',
        DATA_DIR: '/var/lib/lot',
        DATABASE_URL: 'postgresql://lot@db:5432/lot',
        DATABASE_DIRECT_URL: 'postgresql://lot@db-direct:5432/lot',
        DATABASE_PREPARED: 'off',
        JWT_SECRET: SECRET,
        TOTP_KEY: KEY,
        SEED_KEY: SEED_KEY,
        LOG_KEY: LOG_KEY,
        ADMIN_USERNAME: 'root_admin',
        ADMIN_PASSWORD: 'secret-password',
        LOG_LEVEL: 'warn',
        METRICS_ALLOW: '10.0.0.0/8, 192.168.1.5,fd00::/8',
        TRUST_PROXY: '10.0.0.1,10.1.0.0/16',
        PUBLIC_URL: 'https://Lot.Example.com/',
        DRAW_BEACON: 'auto',
        DRAW_BEACON_URL: ' http://127.0.0.1:8081/ , https://relay.example.org/drand//',
        DRAW_BEACON_CHAIN: 'ab'.repeat(32),
        DRAW_FREEZE_MARGIN_MS: '3500',
        AUDIT_CHECKPOINT_DIR: '/srv/witness',
        AUDIT_CHECKPOINT_MINUTES: '0',
        STOP_DRAIN_MS: '3000',
      }),
    ).toEqual({
      port: 8080,
      host: '0.0.0.0',
      dataDir: '/var/lib/lot',
      databaseDirectUrl: 'postgresql://lot@db-direct:5432/lot',
      databasePrepared: false,
      databaseUrl: 'postgresql://lot@db:5432/lot',
      jwtSecret: SECRET,
      totpKey: KEY,
      seedKey: SEED_KEY,
      logKey: LOG_KEY,
      logOrigin: 'lot.example.com/games',
      adminUsername: 'root_admin',
      adminPassword: 'secret-password',
      logLevel: 'warn',
      metricsAllow: ['10.0.0.0/8', '192.168.1.5', 'fd00::/8'],
      trustProxy: ['10.0.0.1', '10.1.0.0/16'],
      publicUrl: 'https://lot.example.com',
      stopDrainMs: 3000,
      checkpoints: { dir: '/srv/witness', minutes: 0 },
      witnesses: { list: [], quorum: 0 },
      beacon: {
        mode: 'auto',
        urls: ['http://127.0.0.1:8081', 'https://relay.example.org/drand'],
        chainHash: 'ab'.repeat(32),
        freezeMarginMs: 3500,
      },
    });
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ PORT: '0' }).port).toBe(0);
    expect(loadConfig({ PORT: '65535' }).port).toBe(65535);
    expect(
      loadConfig({ DATABASE_URL: 'postgres://localhost/lot', JWT_SECRET: SECRET, TOTP_KEY: KEY, SEED_KEY, LOG_KEY })
        .databaseUrl,
    ).toBe('postgres://localhost/lot');
  });

  it('treats empty strings as unset', () => {
    const empty = {
      PORT: '',
      HOST: '',
      DATA_DIR: '',
      DATABASE_URL: '',
      JWT_SECRET: '',
      TOTP_KEY: '',
      SEED_KEY: '',
      LOG_KEY: '',
      LOG_ORIGIN: '',
      ADMIN_USERNAME: '',
      ADMIN_PASSWORD: '',
      LOG_LEVEL: '',
      METRICS_ALLOW: '',
      TRUST_PROXY: '',
      PUBLIC_URL: '',
      DRAW_BEACON: '',
      DRAW_BEACON_URL: '',
      DRAW_BEACON_CHAIN: '',
      DRAW_FREEZE_MARGIN_MS: '',
    };
    expect(loadConfig(empty)).toEqual(loadConfig({}));
    // An empty JWT_SECRET with a database URL is missing, not "too short".
    expect(configError({ DATABASE_URL: 'postgres://localhost/lot', JWT_SECRET: '' }).message).toMatch(
      /JWT_SECRET: is required/,
    );
  });

  it.each(['abc', '70000', '-1', '3000.5', ' ', '0x10', '1e3', '80 80'])('refuses PORT=%j', (port) => {
    const error = configError({ PORT: port });
    expect(error.message).toContain('PORT');
  });

  it('reads PUBLIC_URL as an origin without its trailing slash, and refuses anything else in one line naming it', () => {
    expect(loadConfig({ PUBLIC_URL: 'http://192.168.1.20:3000' }).publicUrl).toBe('http://192.168.1.20:3000');
    expect(loadConfig({ PUBLIC_URL: ' https://lot.example.com:443/ ' }).publicUrl).toBe('https://lot.example.com');
    expect(loadConfig({ PUBLIC_URL: 'http://[fd00::1]:8080' }).publicUrl).toBe('http://[fd00::1]:8080');
    for (const url of [
      'lot.example.com',
      'ftp://lot.example.com',
      'http:lot.example.com',
      'https://lot.example.com/lot',
      'https://lot.example.com/?a=1',
      'https://lot.example.com/?',
      'https://lot.example.com/#top',
      'https://user:pw@lot.example.com',
      'https://',
      ' ',
    ]) {
      const lines = configError({ PUBLIC_URL: url }).message.split('\n').slice(1);
      expect(lines, url).toEqual([
        '  PUBLIC_URL: must be an http:// or https:// address without a path, query or fragment, e.g. https://lot.example.com',
      ]);
    }
  });

  it('refuses a DATABASE_URL that is not postgres://', () => {
    for (const url of ['mysql://localhost/lot', 'localhost:5432', 'postgres://', 'file:./data']) {
      expect(configError({ DATABASE_URL: url, JWT_SECRET: SECRET }).message, url).toMatch(/DATABASE_URL: must be/);
    }
  });

  it('requires JWT_SECRET with DATABASE_URL, since every API process must share it', () => {
    const error = configError({ DATABASE_URL: 'postgres://localhost/lot' });
    expect(error.message).toContain('JWT_SECRET');
    expect(error.message).not.toContain('DATABASE_URL:');
  });

  it('requires TOTP_KEY with DATABASE_URL: every API process must read the two-factor secrets', () => {
    const error = configError({ DATABASE_URL: 'postgres://localhost/lot', JWT_SECRET: SECRET });
    expect(error.message).toMatch(/TOTP_KEY: is required when DATABASE_URL is set/);
    expect(error.message).not.toContain('JWT_SECRET');
  });

  it('refuses a TOTP_KEY shorter than 32 characters', () => {
    expect(configError({ TOTP_KEY: 'k'.repeat(31) }).message).toMatch(/TOTP_KEY: must be at least 32/);
    expect(loadConfig({ TOTP_KEY: KEY }).totpKey).toBe(KEY);
  });

  it("requires SEED_KEY with DATABASE_URL: every API process must open the games' seeds", () => {
    const error = configError({ DATABASE_URL: 'postgres://localhost/lot', JWT_SECRET: SECRET, TOTP_KEY: KEY });
    expect(error.message).toMatch(/SEED_KEY: is required when DATABASE_URL is set/);
    expect(error.message).not.toContain('TOTP_KEY');
    expect(error.message).not.toContain('JWT_SECRET');
  });

  it('requires LOG_KEY with DATABASE_URL: every API process signs the same game log', () => {
    const error = configError({
      DATABASE_URL: 'postgres://localhost/lot',
      JWT_SECRET: SECRET,
      TOTP_KEY: KEY,
      SEED_KEY,
    });
    expect(error.message).toMatch(/LOG_KEY: is required when DATABASE_URL is set/);
    expect(error.message).not.toContain('SEED_KEY');
    expect(configError({ LOG_KEY: 'l'.repeat(31) }).message).toMatch(/LOG_KEY: must be at least 32/);
  });

  it('names the game log LOG_ORIGIN, else after PUBLIC_URL, and refuses an origin a note cannot carry', () => {
    expect(loadConfig({ LOG_ORIGIN: ' lot.example.org/games-2 ' }).logOrigin).toBe('lot.example.org/games-2');
    expect(loadConfig({ PUBLIC_URL: 'http://10.0.0.5:8080' }).logOrigin).toBe('10.0.0.5:8080/games');
    for (const bad of ['two words', 'a+b', 'line\nbreak'])
      expect(configError({ LOG_ORIGIN: bad }).message).toMatch(/LOG_ORIGIN: must be a name without spaces or "\+"/);
  });

  it('reads DRAW_WITNESSES as cosignature/v1 vkeys with their URLs, the quorum all of them unless set', () => {
    const witness = ed25519Cosigner('auditor.example/witness', new Uint8Array(32).fill(7));
    const other = ed25519Cosigner('agent.example/witness', new Uint8Array(32).fill(9));
    const both = `${witness.vkey}@https://witness.auditor.example/ , ${other.vkey}@http://10.0.0.9:7380`;
    expect(loadConfig({ DRAW_WITNESSES: both }).witnesses).toEqual({
      list: [
        { vkey: witness.vkey, url: 'https://witness.auditor.example', name: 'auditor.example/witness' },
        { vkey: other.vkey, url: 'http://10.0.0.9:7380', name: 'agent.example/witness' },
      ],
      quorum: 2,
    });
    expect(loadConfig({ DRAW_WITNESSES: both, DRAW_WITNESS_QUORUM: '1' }).witnesses.quorum).toBe(1);
    expect(configError({ DRAW_WITNESSES: both, DRAW_WITNESS_QUORUM: '3' }).message).toMatch(
      /DRAW_WITNESS_QUORUM: must be at most the number of DRAW_WITNESSES \(2\)/,
    );
    // A log's Ed25519 key (type 0x01) is not a witness's; a vkey without a URL is not a witness.
    const logKey = ed25519NoteSigner('lot.example/games', new Uint8Array(32).fill(1)).vkey;
    expect(configError({ DRAW_WITNESSES: `${logKey}@https://w.example` }).message).toMatch(/not a cosignature\/v1/);
    expect(configError({ DRAW_WITNESSES: witness.vkey }).message).toMatch(/<witness vkey>@<http\(s\) URL prefix>/);
    expect(configError({ DRAW_WITNESSES: `${witness.vkey}@https://a,${witness.vkey}@https://b` }).message).toMatch(
      /named twice/,
    );
  });

  it('refuses a SEED_KEY shorter than 32 characters', () => {
    expect(configError({ SEED_KEY: 's'.repeat(31) }).message).toMatch(/SEED_KEY: must be at least 32/);
    expect(loadConfig({ SEED_KEY }).seedKey).toBe(SEED_KEY);
  });

  it('refuses a JWT_SECRET shorter than 32 characters', () => {
    expect(configError({ JWT_SECRET: 'x'.repeat(31) }).message).toMatch(/JWT_SECRET: must be at least 32/);
    expect(loadConfig({ JWT_SECRET: SECRET }).jwtSecret).toBe(SECRET);
  });

  it('refuses a METRICS_ALLOW or TRUST_PROXY that is not addresses', () => {
    for (const value of ['localhost', '10.0.0.0/33', '10.0.0.1/', '::1/129', '10.0.0.1,', '300.1.1.1']) {
      expect(configError({ METRICS_ALLOW: value }).message, value).toMatch(/METRICS_ALLOW: must be/);
      expect(configError({ TRUST_PROXY: value }).message, value).toMatch(/TRUST_PROXY: must be/);
    }
    for (const value of ['0', 'yes', '100', '-1']) {
      expect(configError({ TRUST_PROXY: value }).message, value).toMatch(/TRUST_PROXY: must be/);
    }
  });

  it('DRAW_BEACON defaults to required on PostgreSQL and auto on the embedded database; each mode is taken', () => {
    expect(loadConfig(POSTGRES).beacon.mode).toBe('required');
    expect(loadConfig({}).beacon.mode).toBe('auto');
    for (const mode of ['required', 'auto', 'off'] as const) {
      expect(loadConfig({ DRAW_BEACON: mode }).beacon.mode).toBe(mode);
      expect(loadConfig({ ...POSTGRES, DRAW_BEACON: mode }).beacon.mode).toBe(mode);
    }
    // Empty means unset: the database's default.
    expect(loadConfig({ ...POSTGRES, DRAW_BEACON: '' }).beacon.mode).toBe('required');
  });

  it('refuses a DRAW_BEACON other than required, auto or off', () => {
    for (const mode of ['on', 'REQUIRED', 'Auto', 'none', 'true', ' off', 'required,auto']) {
      expect(configError({ DRAW_BEACON: mode }).message, mode).toMatch(/DRAW_BEACON: must be required, auto or off/);
    }
  });

  it('refuses an AUDIT_CHECKPOINT_MINUTES that is not a number of minutes', () => {
    for (const minutes of ['hourly', '-5', '1.5', '60m']) {
      expect(configError({ AUDIT_CHECKPOINT_MINUTES: minutes }).message, minutes).toMatch(
        /AUDIT_CHECKPOINT_MINUTES: must be a number of minutes \(0 turns the scheduled checkpoints off\)/,
      );
    }
  });

  it('refuses a STOP_DRAIN_MS that is not a number of milliseconds up to a minute', () => {
    for (const ms of ['3s', '-1', '1.5', '60001', '999999']) {
      expect(configError({ STOP_DRAIN_MS: ms }).message, ms).toMatch(
        /STOP_DRAIN_MS: must be a number of milliseconds from 0 to 60000/,
      );
    }
  });

  it('refuses a DRAW_BEACON_URL that is not a list of http(s) URLs', () => {
    for (const url of [
      'api.drand.sh',
      'ftp://api.drand.sh',
      'http://',
      'https:///info',
      'https://a b.org',
      'https://api.drand.sh,,https://api2.drand.sh',
      'https://api.drand.sh,',
      ',',
      'javascript:alert(1)',
    ]) {
      expect(configError({ DRAW_BEACON_URL: url }).message, url).toMatch(
        /DRAW_BEACON_URL: must be a comma-separated list of http:\/\/ or https:\/\/ URLs/,
      );
    }
  });

  it('refuses a DRAW_BEACON_CHAIN that is not a chain hash; quicknet by default', () => {
    expect(loadConfig(POSTGRES).beacon.chainHash).toBe(QUICKNET.chainHash);
    expect(QUICKNET.chainHash).toBe('52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971');
    for (const hash of [
      'ab'.repeat(31),
      'ab'.repeat(33),
      'AB'.repeat(32),
      'zz'.repeat(32),
      `0x${'ab'.repeat(31)}`,
      'quicknet',
    ]) {
      expect(configError({ DRAW_BEACON_CHAIN: hash }).message, hash).toMatch(
        /DRAW_BEACON_CHAIN: must be a chain hash: 64 lowercase hex characters/,
      );
    }
  });

  it('refuses a DRAW_FREEZE_MARGIN_MS under 1 s or over a minute; 2 s by default (decision 076)', () => {
    expect(loadConfig({}).beacon.freezeMarginMs).toBe(2000);
    expect(loadConfig({ DRAW_FREEZE_MARGIN_MS: '1000' }).beacon.freezeMarginMs).toBe(1000);
    expect(loadConfig({ DRAW_FREEZE_MARGIN_MS: '60000' }).beacon.freezeMarginMs).toBe(60_000);
    for (const ms of ['999', '0', '60001', '-1', '2.5', '2s', ' ', '1e3']) {
      expect(configError({ DRAW_FREEZE_MARGIN_MS: ms }).message, ms).toMatch(
        /DRAW_FREEZE_MARGIN_MS: must be a number of milliseconds from 1000 to 60000/,
      );
    }
  });

  it('refuses an unknown LOG_LEVEL', () => {
    for (const level of ['verbose', 'INFO']) {
      expect(configError({ LOG_LEVEL: level }).message, level).toContain('LOG_LEVEL');
    }
  });

  it('checks the admin account variables with the user form rules', () => {
    expect(configError({ ADMIN_USERNAME: 'a b' }).message).toContain('ADMIN_USERNAME');
    expect(configError({ ADMIN_PASSWORD: '12345' }).message).toContain('ADMIN_PASSWORD');
  });

  it('names every bad variable at once', () => {
    const message = configError({
      PORT: 'abc',
      LOG_LEVEL: 'loud',
      JWT_SECRET: 'short',
      DRAW_BEACON: 'on',
      DRAW_BEACON_URL: 'x',
      DRAW_BEACON_CHAIN: 'y',
    }).message;
    for (const name of ['PORT', 'LOG_LEVEL', 'JWT_SECRET', 'DRAW_BEACON:', 'DRAW_BEACON_URL:', 'DRAW_BEACON_CHAIN:'])
      expect(message).toContain(name);
  });
});
