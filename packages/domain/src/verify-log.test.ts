import { describe, expect, it } from 'vitest';
import { roundTimeMs } from './beacon.ts';
import { buildProof, WORKED_EXAMPLE, WORKED_EXAMPLE_2 } from './draw-example.ts';
import {
  exampleLogVkey,
  exampleWitnessVkey,
  withLogEvidence,
  type EvidenceOptions,
} from './game-log-evidence-example.ts';
import type { GameProof } from './schemas/games.ts';
import { base64Decode, base64Encode } from './tlog/encoding.ts';
import {
  IN_LOG,
  NO_COSIGNATURE,
  NOT_WITNESSED,
  verifyGameLog,
  WITNESSED,
  WITNESSING_FAILED,
  type LogPins,
} from './verify-log.ts';
import { verifyProof } from './verify.ts';

/**
 * The game-log checks of a proof (docs/lot-draw-2.md#checking-the-game-log) on a real tree with
 * real Ed25519 keys: the log's signature, the freeze leaf the proof implies, its inclusion, and a
 * quorum of witnesses' cosignatures timestamped at least 1 s before round R.
 */

const proof2 = await buildProof(WORKED_EXAMPLE_2);
const R = proof2.beacon!.round!;
/** Round R's publication time, unix seconds. */
const rTime = roundTimeMs(proof2.beacon!, R) / 1000;
const LOG = exampleLogVkey();
const AUDITOR = exampleWitnessVkey('auditor.example');
const REGULATOR = exampleWitnessVkey('regulator.example');

const witnessed = (options: EvidenceOptions = {}) =>
  withLogEvidence(proof2, { witnesses: [{ name: 'auditor.example', timestamp: rTime - 1 }], ...options });
const pins = (witnesses: string[] = [AUDITOR], more: Partial<LogPins> = {}): LogPins => ({
  log: LOG,
  witnesses,
  ...more,
});
const statuses = (proof: GameProof, p: LogPins) => {
  const r = verifyGameLog(proof, p);
  return [r.inLog.status, r.witnessed.status];
};
const clone = (proof: GameProof): GameProof => JSON.parse(JSON.stringify(proof));

describe('a witnessed freeze', () => {
  it('passes both checks when the witness cosigned 1 s before R, and says who witnessed it', async () => {
    const report = verifyGameLog(witnessed(), pins());
    expect(report.inLog).toMatchObject({ name: IN_LOG, status: 'pass' });
    expect(report.inLog.detail).toContain('leaf 5 of lot.example/games');
    expect(report.witnessed).toMatchObject({ name: WITNESSED, status: 'pass' });
    expect(report.witnesses).toEqual([{ name: 'auditor.example', timestamp: rTime - 1 }]);
    expect(report.sentence).toBe(
      `auditor.example saw this freeze in the game log, by its own clock, before round ${R} existed: ` +
        'the entries were fixed before anyone, the operator included, could know the numbers drawn.',
    );
    // verifyProof counts them with the other checks.
    const full = await verifyProof(witnessed(), undefined, pins());
    expect(full.verdict).toBe('verified');
    expect(full.checks.map((c) => c.name)).toEqual(expect.arrayContaining([IN_LOG, WITNESSED]));
  });

  it('fails with another witness key pinned (the same name, another key), or another log key', async () => {
    const impostor = exampleWitnessVkey('auditor.example', 'someone else');
    const report = verifyGameLog(witnessed(), pins([impostor]));
    expect(report.witnessed.status).toBe('fail');
    expect(report.witnessed.detail).toContain('auditor.example did not cosign');
    expect((await verifyProof(witnessed(), undefined, pins([impostor]))).verdict).toBe('failed');

    const otherLog = verifyGameLog(witnessed(), pins([AUDITOR], { log: exampleLogVkey(undefined, 'another log') }));
    expect(otherLog.inLog.status).toBe('fail');
    expect(otherLog.inLog.detail).toContain('not signed by the pinned log key');
    expect(otherLog.witnessed.status).toBe('fail');
  });

  it('fails with a cosignature timestamped less than 1 s before R', () => {
    const late = witnessed({ witnesses: [{ name: 'auditor.example', timestamp: rTime }] });
    const report = verifyGameLog(late, pins());
    expect(report.inLog.status).toBe('pass');
    expect(report.witnessed.status).toBe('fail');
    expect(report.witnessed.detail).toContain('less than 1 s before round');
    expect(report.sentence).toBe(WITNESSING_FAILED);
  });

  it('fails with a tampered leaf, index, inclusion proof, checkpoint or freeze', () => {
    const tamper = (change: (p: GameProof) => void) => {
      const p = clone(witnessed());
      change(p);
      return statuses(p, pins());
    };
    expect(tamper((p) => (p.log!.freeze.data = p.log!.freeze.data.replace('frozen-at', 'frozen-at ')))).toEqual([
      'fail',
      'fail',
    ]);
    expect(tamper((p) => (p.log!.freeze.index += 1))).toEqual(['fail', 'fail']);
    expect(tamper((p) => (p.log!.freeze.index -= 1))).toEqual(['fail', 'fail']);
    expect(
      tamper((p) => {
        const hash = base64Decode(p.log!.freeze.inclusion[0]!);
        hash[0]! ^= 1;
        p.log!.freeze.inclusion[0] = base64Encode(hash);
      }),
    ).toEqual(['fail', 'fail']);
    expect(tamper((p) => p.log!.freeze.inclusion.pop())).toEqual(['fail', 'fail']);
    expect(tamper((p) => (p.log!.freeze.inclusion[0] = 'not base64'))).toEqual(['fail', 'fail']);
    // Another size in the checkpoint text: the log's signature no longer covers it.
    expect(tamper((p) => (p.log!.freeze.checkpoint = p.log!.freeze.checkpoint.replace('\n9\n', '\n10\n')))).toEqual([
      'fail',
      'fail',
    ]);
    // A backdated freeze: the proof's freeze time is not what the log holds.
    expect(tamper((p) => (p.frozenAt = new Date(Date.parse(p.frozenAt!) - 30_000).toISOString()))).toEqual([
      'fail',
      'fail',
    ]);
    // Another game's entries: its digest is not the one the log holds.
    expect(tamper((p) => (p.entriesDigest = p.entriesDigest.replace(/^./, (c) => (c === '0' ? '1' : '0'))))).toEqual([
      'fail',
      'fail',
    ]);
  });

  it('needs a quorum of the pinned witnesses (all unless given), each in time', () => {
    const two = witnessed({
      witnesses: [
        { name: 'auditor.example', timestamp: rTime - 2 },
        { name: 'regulator.example', timestamp: rTime + 5 },
      ],
    });
    expect(statuses(two, pins([AUDITOR, REGULATOR]))).toEqual(['pass', 'fail']);
    expect(verifyGameLog(two, pins([AUDITOR, REGULATOR])).witnessed.detail).toMatch(
      /^1 of the 2 cosignatures needed .*regulator\.example cosigned at/,
    );
    expect(statuses(two, pins([AUDITOR, REGULATOR], { quorum: 1 }))).toEqual(['pass', 'pass']);
    expect(verifyGameLog(two, pins([REGULATOR]))).toMatchObject({ witnessed: { status: 'fail' } });
  });

  it('a forged cosignature (right key name and ID, wrong bytes) fails', () => {
    const p = witnessed();
    const [body, sigs] = p.log!.freeze.checkpoint.split('\n\n') as [string, string];
    const lines = sigs.trim().split('\n');
    const forged = lines[1]!.replace(/.(=*)$/, (c, pad: string) => (c.startsWith('A') ? 'B' : 'A') + pad);
    p.log!.freeze.checkpoint = `${body}\n\n${lines[0]}\n${forged}\n`;
    expect(verifyGameLog(p, pins()).witnessed.status).toBe('fail');
  });
});

describe('an unwitnessed freeze, and what does not apply', () => {
  it('is labelled "not witnessed" whatever is pinned, when no witness cosigned', async () => {
    const plain = withLogEvidence(proof2);
    const report = verifyGameLog(plain, { log: LOG, witnesses: [] });
    expect(report.inLog.status).toBe('pass');
    expect(report.witnessed).toEqual({ name: WITNESSED, status: 'na', detail: NO_COSIGNATURE });
    expect(report.sentence).toBe(NOT_WITNESSED);
    expect((await verifyProof(plain, undefined, { log: LOG, witnesses: [] })).verdict).toBe('verified');
    // Pinning a witness who did not cosign fails: the verifier asked for a witnessed freeze.
    expect(statuses(plain, pins())).toEqual(['pass', 'fail']);
  });

  it('without a pinned log key neither check runs, and the verdict is unchanged', async () => {
    const report = verifyGameLog(witnessed());
    expect(report.inLog.status).toBe('na');
    expect(report.witnessed.detail).toContain('cosigned by auditor.example');
    expect((await verifyProof(witnessed())).verdict).toBe('verified');
  });

  it('a frozen game without log evidence fails when a log key is pinned; an open game is not applicable', async () => {
    expect(statuses(proof2, pins())).toEqual(['fail', 'na']);
    const open = await buildProof(WORKED_EXAMPLE_2, { status: 'open' });
    expect(statuses(open, pins())).toEqual(['na', 'na']);
  });

  it('a LOT-DRAW-1 game is checked in the log; no round R, so nothing to witness', async () => {
    const v1 = withLogEvidence(await buildProof(WORKED_EXAMPLE));
    expect(statuses(v1, pins())).toEqual(['pass', 'na']);
  });
});
