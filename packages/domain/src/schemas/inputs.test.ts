import { describe, expect, it } from 'vitest';
import { MESSAGES } from '../messages.ts';
import { amountSchema } from './balance.ts';
import { claimPayFormSchema, claimPayInputSchema, ENTRY_CODE_INVALID } from './claims.ts';
import { betSchema } from './sales-history.ts';
import { passwordSchema } from './users.ts';

const messageOf = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.success ? null : result.error?.issues[0]?.message;

describe('inputs say what is wrong with them', () => {
  it('a password of spaces only is refused, spaces inside a password are kept', () => {
    expect(messageOf(passwordSchema.safeParse('      '))).toBe(MESSAGES.passwordBlank);
    expect(messageOf(passwordSchema.safeParse('   '))).toBe(MESSAGES.passwordMin);
    expect(passwordSchema.safeParse(' pass word ').success).toBe(true);
  });

  it.each([['0.001'], [0.001], ['2.555'], [' 12.3456 ']])('an amount of %j is told about its decimals', (amount) => {
    expect(messageOf(amountSchema.safeParse(amount))).toBe(MESSAGES.amountDecimals);
    expect(messageOf(betSchema.safeParse(amount))).toBe(MESSAGES.betDecimals);
  });

  it.each([['0'], ['-1'], ['abc'], ['1e-7'], [1e-7], ['.5']])('an amount of %j is not an amount', (amount) => {
    expect(messageOf(amountSchema.safeParse(amount))).toBe(MESSAGES.amountInvalid);
  });

  it('a payout names its slip’s entry code as the slip prints it; the Pay prizes form requires it (decision 086)', () => {
    const payout = claimPayInputSchema.parse({ entryCode: 'BAA0-DA14 bbb7 8ED0', claimerName: 'Ana' });
    expect(payout.entryCode).toBe('baa0da14bbb78ed0');
    expect(claimPayInputSchema.safeParse({ claimerName: 'Ana' }).success).toBe(true);
    expect(messageOf(claimPayInputSchema.safeParse({ entryCode: 'baa0da14', claimerName: 'Ana' }))).toBe(
      ENTRY_CODE_INVALID,
    );
    expect(messageOf(claimPayFormSchema.safeParse({ entryCode: '  ', claimerName: 'Ana' }))).toBe(
      MESSAGES.entryCodeRequired,
    );
  });
});
