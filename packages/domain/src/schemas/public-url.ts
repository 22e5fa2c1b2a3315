import { z } from 'zod';

/** GET /api/public-url (docs/product/runtime-and-security.md#public-url): the base of every public link. */
export const publicUrlSchema = z.object({
  /** PUBLIC_URL, or the address the request came in on (as TRUST_PROXY lets the proxy say it): no trailing slash. */
  publicUrl: z.string(),
  /** Whether PUBLIC_URL is set; without it the slips page warns of an address phones cannot reach. */
  configured: z.boolean(),
});
export type PublicUrl = z.infer<typeof publicUrlSchema>;
