import type { Role } from '@lot/domain/roles';

/** The signed-in user behind a request: its row as it stands now (a change ends the cached one: decision 025). */
export type Caller = {
  id: number;
  username: string;
  fullName: string;
  role: Role;
  parentId: number | null;
  tokenVersion: number;
  /** The address the request came from (`request.ip`, decision 026): what the audit trail records. */
  address?: string;
  /**
   * The IANA time zone the caller's browser is in (the `Time-Zone` header, when it names one): the
   * server writes a time into a message on its wall clock (decision 090). Unset: UTC.
   */
  timeZone?: string;
};

/** What a new session records of the request that opened it. */
export type SessionOrigin = { address: string; userAgent: string | undefined; enrolRequired?: boolean };
