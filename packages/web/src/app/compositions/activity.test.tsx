import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { newAccountsHint, topUpsChange } from './activity.tsx';

afterEach(cleanup);

const text = (hint: ReturnType<typeof newAccountsHint>) => render(<p>{hint}</p>).container.textContent;

describe("the dashboards' changes (docs/product/screens.md#admin-dashboard)", () => {
  it('say how many accounts are new in the last 30 days and the 30 before, and say so when none are', () => {
    expect(text(newAccountsHint({ current: 3, previous: 1 }))).toBe('+3 in the last 30 days · +1 the 30 before');
    expect(text(newAccountsHint({ current: 0, previous: 2 }))).toBe(
      'No one new in the last 30 days · +2 the 30 before',
    );
    expect(text(newAccountsHint({ current: 1200, previous: 0 }))).toBe(
      '+1,200 in the last 30 days · none the 30 before',
    );
    expect(newAccountsHint(undefined)).toBeUndefined();
  });

  it('compare the top-ups with the 30 days before in percent, and never invent one from nothing', () => {
    expect(topUpsChange({ current: '500.00', previous: '400.00' })).toBe('+25% vs the 30 days before ($400.00).');
    expect(topUpsChange({ current: '100.00', previous: '400.00' })).toBe('−75% vs the 30 days before ($400.00).');
    expect(topUpsChange({ current: '400.00', previous: '400.00' })).toBe('±0% vs the 30 days before ($400.00).');
    expect(topUpsChange({ current: '0.01', previous: '3.00' })).toBe('−100% vs the 30 days before ($3.00).');
    expect(topUpsChange({ current: '250.00', previous: '0.00' })).toBe('None the 30 days before: no change to show.');
    expect(topUpsChange({ current: '0.00', previous: '0.00' })).toBe('None the 30 days before either.');
  });
});
