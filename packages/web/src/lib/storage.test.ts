import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { ROLES } from '@lot/domain/roles';
import { sessionUserSchema } from '@lot/domain/schemas/auth';
import { readStoredUser, storage, STORAGE_KEYS } from './storage.ts';

const user = {
  id: 7,
  username: 'shop1',
  fullName: 'Shop One',
  shopName: 'Corner',
  hasLogo: true,
  role: 'user',
  parentId: 3,
} as const;

afterEach(() => localStorage.clear());

describe('the stored session', () => {
  it('comes back as saved', () => {
    storage.save('token-1', user);
    expect(storage.getToken()).toBe('token-1');
    expect(storage.getUser()).toEqual(user);
  });

  it('is none when nothing is stored, and corrupt when what is stored cannot be used', () => {
    expect(storage.getUser()).toBeNull();
    for (const raw of [
      '{not json',
      'null',
      '42',
      JSON.stringify({ ...user, role: 'owner' }),
      JSON.stringify({ ...user, id: '7' }),
    ]) {
      localStorage.setItem(STORAGE_KEYS.user, raw);
      expect(storage.getUser()).toBe('corrupt');
    }
  });

  it('accepts a user stored before hasLogo existed, as having no logo', () => {
    const { hasLogo: _, ...older } = user;
    localStorage.setItem(STORAGE_KEYS.user, JSON.stringify(older));
    expect(storage.getUser()).toEqual({ ...user, hasLogo: false });
  });

  it('clear removes the session and nothing else', () => {
    storage.save('token-1', user);
    localStorage.setItem(STORAGE_KEYS.gameTheme, 'green');
    storage.clear();
    expect([storage.getToken(), storage.getUser(), localStorage.getItem(STORAGE_KEYS.gameTheme)]).toEqual([
      null,
      null,
      'green',
    ]);
  });
});

describe('readStoredUser', () => {
  it('accepts exactly what sessionUserSchema accepts (hasLogo optional)', () => {
    const schema = sessionUserSchema.extend({ hasLogo: sessionUserSchema.shape.hasLogo.optional() });
    const field = <T>(valid: fc.Arbitrary<T>) =>
      fc.oneof({ weight: 4, arbitrary: valid }, { weight: 1, arbitrary: fc.anything() });
    const nearlyUsers = fc.record(
      {
        id: field(fc.oneof(fc.integer(), fc.double())),
        username: field(fc.string()),
        fullName: field(fc.string()),
        shopName: field(fc.option(fc.string(), { nil: null })),
        hasLogo: field(fc.boolean()),
        role: field(fc.constantFrom(...ROLES, 'owner')),
        parentId: field(fc.option(fc.oneof(fc.integer(), fc.double()), { nil: null })),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(fc.oneof(nearlyUsers, fc.anything()), (value) => {
        const parsed = schema.safeParse(value);
        expect(readStoredUser(value) !== null).toBe(parsed.success);
        if (parsed.success)
          expect(readStoredUser(value)).toEqual({ ...parsed.data, hasLogo: parsed.data.hasLogo ?? false });
      }),
      { numRuns: 3000 },
    );
  });
});

describe("the bell's seen-until time", () => {
  it('comes back for the account that saved it, and for no other', () => {
    expect(storage.getSeenUntil(7)).toBeNull();
    storage.saveSeenUntil(7, '2026-11-24T06:13:00.000Z');
    expect(storage.getSeenUntil(7)).toBe('2026-11-24T06:13:00.000Z');
    // Another account signed in on this device starts with everything unread.
    expect(storage.getSeenUntil(8)).toBeNull();
    expect(storage.getSeenUntil(77)).toBeNull();
  });

  it('is none when what is stored is not an account and a time', () => {
    for (const raw of ['', '7', '7:', '7:yesterday', 'x:2026-11-24T06:13:00.000Z', ':2026-11-24T06:13:00.000Z']) {
      localStorage.setItem(STORAGE_KEYS.notificationsSeenUntil, raw);
      expect(storage.getSeenUntil(7), raw).toBeNull();
    }
  });
});
