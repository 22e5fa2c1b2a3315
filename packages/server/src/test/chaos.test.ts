import { describe, expect, it } from 'vitest';
import { Chaos, chaosSeed, chooseOperation, describeOperation, lostToKill, Rng, type Lost } from './chaos.ts';

/**
 * The chaos suites' choices replay: under one seed, each actor's operations come out the same,
 * whatever the timing did to the operations before them.
 */

const STORM = { players: 5, maxCents: 3_000, entries: [1, 5] as [number, number], agent: true };

/**
 * What a storm of `players` chooses under one seed, as the suites trace it: each player's first
 * `ops` operations. `spoil` uses up an operation's generator unevenly first (a draw asked again
 * more often in one run than in another), which must not change the next operation.
 */
function storm(seed: number, ops: number, spoil = false): string {
  const chaos = new Chaos('storm', seed);
  for (let op = 0; op < ops; op++)
    for (let me = 0; me < STORM.players; me++) {
      const rng = chaos.next(`player-${me}`);
      chaos.chose(`player-${me}`, describeOperation(chooseOperation(rng, me, STORM)));
      if (spoil) for (let i = 0; i < (me + op) % 7; i++) rng.next();
    }
  return chaos.trace();
}

describe('chaos harness', () => {
  it('one seed gives the same operations twice, in any timing; another seed gives others', () => {
    const first = storm(20_261_129, 12);
    const again = storm(20_261_129, 12, true);
    console.log(`CHAOS_SEED=20261129, the same operations twice:\n${first}\n${again}`);
    expect(again).toBe(first);
    expect(first.split('\n')).toHaveLength(STORM.players);
    expect(first).toContain('transfer');
    expect(first).toContain('game');
    expect(storm(20_261_130, 12)).not.toBe(first);
    // A run that got further prints the same operations first.
    expect(storm(20_261_129, 20).split('\n')[0]).toContain(first.split('\n')[0] as string);
  });

  it("each choice in an operation comes from a named fork: the same however much of the operation's generator was used", () => {
    const a = new Rng(7, 'player-1#3');
    const b = new Rng(7, 'player-1#3');
    b.next();
    b.int(1, 100);
    expect(b.fork('draw 2 try 4').int(0, 1_000_000)).toBe(a.fork('draw 2 try 4').int(0, 1_000_000));
    expect(new Rng(7, 'player-1#3').next()).toBe(new Rng(7, 'player-1#3').next());
    expect(new Rng(7, 'player-1#3').next()).not.toBe(new Rng(7, 'player-1#4').next());
    const ints = Array.from({ length: 2_000 }, () => a.int(1, 6));
    expect(new Set(ints)).toEqual(new Set([1, 2, 3, 4, 5, 6]));
  });

  it('takes CHAOS_SEED when set, a fresh seed otherwise, and refuses a seed that is not a whole number', () => {
    expect(chaosSeed({ CHAOS_SEED: '42' })).toBe(42);
    expect(chaosSeed({ CHAOS_SEED: ' 4294967295 ' })).toBe(4_294_967_295);
    const fresh = chaosSeed({});
    expect(Number.isInteger(fresh) && fresh >= 0 && fresh <= 4_294_967_295).toBe(true);
    for (const bad of ['-1', '1.5', 'abc', '4294967296'])
      expect(() => chaosSeed({ CHAOS_SEED: bad })).toThrow(
        `CHAOS_SEED must be a whole number from 0 to 4294967295, not "${bad}"`,
      );
  });

  it('tells a call in flight at a kill from one that nothing explains', () => {
    const kill = { index: 0, at: 1_000, gone: 1_050, up: 3_000 };
    const call = (sentAt: number, failedAt: number): Lost => ({
      method: 'POST',
      path: '/api/balance/transfer',
      base: 'http://127.0.0.1:1',
      sentAt,
      failedAt,
      cause: 'UND_ERR_SOCKET',
    });
    expect(lostToKill(call(990, 1_010), [kill], 'gone')).toBe(true);
    expect(lostToKill(call(1_040, 1_060), [kill], 'gone')).toBe(true);
    // Sent after the process was gone: the balancer sends it elsewhere, so nothing explains it.
    expect(lostToKill(call(1_100, 1_120), [kill], 'gone')).toBe(false);
    // …but with one process, refused until its successor listens.
    expect(lostToKill(call(1_100, 1_120), [kill], 'up')).toBe(true);
    // Failed before the signal.
    expect(lostToKill(call(900, 950), [kill], 'up')).toBe(false);
  });
});
