/**
 * The API host: a build setting (VITE_API_BASE, docs/product/runtime-and-security.md#api-host)
 * and by default the app's own origin, which serves the API too.
 */
export const API_BASE: string = (import.meta.env.VITE_API_BASE as string | undefined) ?? '';
