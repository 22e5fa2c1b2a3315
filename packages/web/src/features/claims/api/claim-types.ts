// Provisional: replaced by @lot/domain/schemas/claims once claims-api commits it.
export type ClaimStatus = 'unpaid' | 'paid' | 'expired';
export type PrizeClaim = {
  winnerId: number;
  gameId: number;
  gameCode: string;
  gameNumber: number;
  shopName: string;
  position: number;
  prizeName: string;
  number: number;
  amount: string;
  status: ClaimStatus;
  createdAt: string;
  expiresAt: string;
  paidAt: string | null;
  paidAtShop: string | null;
  claimerName: string | null;
  claimerIdNumber: string | null;
  mayPay: boolean;
  refusal: string | null;
};
export type ClaimLookup = {
  game: { id: number; code: string; number: number; shopName: string; settledAt: string; protocol: string };
  winner: { name: string; phoneNumber: string };
  prizes: PrizeClaim[];
};
export type PayoutReceipt = {
  claim: PrizeClaim;
  game: { code: string; number: number; shopName: string; settledAt: string };
  winner: { name: string; phoneNumber: string };
  printCount: number;
};
export type ClaimPayInput = { claimerName: string; claimerIdNumber?: string };
export type ClaimsPage = {
  items: PrizeClaim[];
  total: number;
  page: number;
  pageSize: number;
  totals: { count: number; amount: string };
};
export type BusinessSettings = { claimPeriodDays: number; claimsAnyShopOfAgent: boolean };
export type ClaimExtendInput = { days: number; reason: string };
import { z } from 'zod';
export const claimPayInputSchema = z.strictObject({
  claimerName: z.string().trim().min(1, 'Enter the claimer’s name').max(100),
  claimerIdNumber: z.string().trim().max(50).optional(),
});
