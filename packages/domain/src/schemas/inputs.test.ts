import { describe, expect, it } from 'vitest';
import { MESSAGES } from '../messages.ts';
import { amountSchema } from './balance.ts';
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
});
