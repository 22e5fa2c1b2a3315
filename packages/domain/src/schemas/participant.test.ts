import { describe, expect, it } from 'vitest';
import { MESSAGES } from '../messages.ts';
import { isTimeZone } from './reports.ts';
import { isPlausiblePhone, participantFormSchema } from './sales-history.ts';

const messageOf = (phoneNumber: unknown) => {
  const parsed = participantFormSchema.safeParse({ name: 'Ana', phoneNumber });
  return parsed.success ? null : parsed.error.issues.map((issue) => issue.message);
};

describe('the participant phone', () => {
  it('digits, spaces, + and - with 7 to 15 digits', () => {
    for (const phone of ['5550101', '555-0101', '+1 555 0102', '+44 20 7946 0958', '123456789012345']) {
      expect(isPlausiblePhone(phone), phone).toBe(true);
      expect(messageOf(phone), phone).toBeNull();
    }
  });

  it('anything else says so clearly; a missing one is required', () => {
    for (const phone of ['555-010', '1234567890123456', '(555) 0101', '555.0101', '555 0101 x2', '+-+-']) {
      expect(messageOf(phone), phone).toEqual([MESSAGES.participantPhoneInvalid]);
    }
    expect(MESSAGES.participantPhoneInvalid).toBe(
      'Phone Number must have 7 to 15 digits (digits, spaces, + and - only)',
    );
    expect(messageOf('')).toEqual([MESSAGES.participantPhoneRequired]);
    expect(messageOf('   ')).toEqual([MESSAGES.participantPhoneRequired]);
    expect(messageOf(undefined)).toEqual([MESSAGES.participantPhoneRequired]);
  });
});

describe('the day close time zone', () => {
  it('names the runtime knows', () => {
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('America/New_York')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
    expect(isTimeZone("UTC'; --")).toBe(false);
  });
});
