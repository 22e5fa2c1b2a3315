/**
 * The API host. The spec's client has it hard-coded; here it is a build setting (VITE_API_BASE)
 * and by default the app's own origin, which serves the API too.
 */
export const API_BASE: string = (import.meta.env.VITE_API_BASE as string | undefined) ?? '';
