import type { AuthGrant, EngineResponse, SuccessBody } from './request.js';

/**
 * Narrowing of handle() results without casts. `EngineResponse` keeps `status: number` (users build responses of
 * their own engines with it); these guards give the precise shapes back.
 */

/** The statuses of a success; see SuccessResponse. */
export type SuccessStatus = 200 | 202 | 204;

/** 200 with a body, 202 for a started background job, 204 without a body. */
export interface SuccessResponse extends EngineResponse {
  status: SuccessStatus;
  body?: SuccessBody;
}

/** A 200 login or renewal: the grant to mint a token from (or to keep using). */
export interface GrantResponse extends SuccessResponse {
  status: 200;
  body: SuccessBody & { auth: AuthGrant };
}

/** Whether the response is a success (2xx), narrowing it to a SuccessResponse. */
export function isOk(response: EngineResponse): response is SuccessResponse {
  return response.status >= 200 && response.status < 300;
}

/** Whether the response is a 200 carrying a grant (a login or renewal), so that `response.body.auth` is typed. */
export function isGrant(response: EngineResponse): response is GrantResponse {
  return response.status === 200 && response.body?.auth !== undefined;
}

/** The error messages of a response; empty for a success (and for the error statuses that carry none). */
export function errorsOf(response: EngineResponse): string[] {
  return response.body?.errors ?? [];
}
