import type { AuthGrant, EngineResponse } from './request.js';
import { isStrongroomError, type StrongroomError } from '../../lib/errors.js';

/** Response builders, so that engines never spell status numbers. */

export function ok(data: unknown, warnings?: string[]): EngineResponse {
  const body: { data: unknown; warnings?: string[] } = { data };
  if (warnings && warnings.length > 0) body.warnings = warnings;
  return { status: 200, body };
}

/** A write that only has warnings to report answers 200 with `data: null`, like Vault. */
export function okOrNoContent(warnings: string[]): EngineResponse {
  return warnings.length > 0 ? ok(null, warnings) : noContent();
}

export function granted(auth: AuthGrant, warnings?: string[]): EngineResponse {
  const body: { auth: AuthGrant; warnings?: string[] } = { auth };
  if (warnings && warnings.length > 0) body.warnings = warnings;
  return { status: 200, body };
}

export function noContent(): EngineResponse {
  return { status: 204 };
}

/** A background job was started. */
export function accepted(data?: unknown, warnings?: string[]): EngineResponse {
  const body: { data?: unknown; warnings?: string[] } = {};
  if (data !== undefined) body.data = data;
  if (warnings && warnings.length > 0) body.warnings = warnings;
  return { status: 202, body };
}

/** 404 with the plain error envelope (a missing object, an empty list). */
export function notFound(): EngineResponse {
  return { status: 404, body: { errors: [] } };
}

/** 404 that still carries data (a KV read of a deleted version) or warnings (an unmatched KV path). */
export function notFoundWithData(data: unknown, warnings?: string[]): EngineResponse {
  return { ...ok(data, warnings), status: 404 };
}

/** 404 with no body at all (a KV PATCH of a missing key). */
export function notFoundEmpty(): EngineResponse {
  return { status: 404 };
}

export function listResponse(keys: string[]): EngineResponse {
  return keys.length === 0 ? notFound() : ok({ keys });
}

const INTERNAL_STATUS = 500;

export function errorResponse(error: StrongroomError): EngineResponse {
  return { status: error.status, body: { errors: error.publicMessage ? [error.publicMessage] : [] } };
}

/** Anything that is not a typed error is a server fault; its text is not shown, since it may hold secrets. */
export function responseForError(error: unknown): EngineResponse {
  if (isStrongroomError(error)) return errorResponse(error);
  return { status: INTERNAL_STATUS, body: { errors: ['internal error'] } };
}
