// Vault's token API (auth/token/...): create, lookups, renewals and revocations, by token, by accessor or of oneself.
import { z } from 'zod';
import { formatDuration } from '../../lib/duration.js';
import { InvalidRequest, PermissionDenied, UnsupportedOperation } from '../../lib/errors.js';
import { ignoredFieldsWarning } from '../../core/framework/field-help.js';
import { bool, duration, int, str, stringList, stringMap } from '../../core/framework/fields.js';
import type { Clock } from '../../ports/clock.js';
import type { PolicyStore } from '../policies/policy-store.js';
import type { ApiMethod } from '../http/request.js';
import { fields, withPutAsPost, type Route, type RouteContext, type RouteHandler } from '../dispatch/route.js';
import { planToken } from '../tokens/token-create.js';
import { redactTokenInPath } from '../tokens/token-path.js';
import { authView, lookupView, type TokenRecord } from '../tokens/token-record.js';
import { ROLE_NAME_SOURCE, type TokenRoleStore } from '../tokens/token-role.js';
import type { TokenStore } from '../tokens/token-store.js';
import type { AuthMethod } from '../../adapters/aws/auth-method.js';
import { engineResult, envelope, noContent, ok, type ApiResult } from '../http/wire.js';

/** The fields of auth/token/create; built with each set of routes, where they are used. */
const createFields = () =>
  z.object({
    policies: stringList().optional(),
    meta: stringMap().optional(),
    no_parent: bool().optional(),
    no_default_policy: bool().optional(),
    renewable: bool().optional(),
    ttl: duration().optional(),
    // Vault's older name for `ttl`, which hvac's create_token still sends.
    lease: duration().optional(),
    // A token of the caller's choosing; refused rather than silently replaced by a random one.
    id: z.unknown().optional(),
    explicit_max_ttl: duration().optional(),
    period: duration().optional(),
    display_name: str({ maxLength: 256 }).optional(),
    num_uses: int({ min: 0 }).optional(),
    entity_alias: str({ maxLength: 512 }).optional(),
    type: str({ maxLength: 64 }).optional(),
  });
const tokenSchema = z.object({ token: str() });
const accessorSchema = z.object({ accessor: str() });
const incrementSchema = z.object({ increment: duration().optional() });
const renewSchema = tokenSchema.extend(incrementSchema.shape);
// The older forms with the token in the path take it in the body too, which then wins, as in Vault.
const inPathSchema = z.object({ token: str().optional() });
const inPathRenewSchema = inPathSchema.extend(incrementSchema.shape);
const IN_PATH_WARNING =
  'the token was sent in the request path, where logs and proxies can record it: send it in the request body ("token") instead';

/**
 * A route of the older forms (auth/token/lookup/<token>, ...): the methods it does not take are refused here, with the
 * token replaced in the message, rather than by the dispatcher, which quotes the path as it came.
 */
function tokenInPath(pattern: RegExp, methods: Partial<Record<ApiMethod, RouteHandler>>): Route {
  const refuse: RouteHandler = async ({ request }) => {
    throw new UnsupportedOperation(
      `${request.method} is not supported on ${JSON.stringify(redactTokenInPath(request.path))}`,
    );
  };
  const taken = withPutAsPost({ pattern, methods }).methods;
  const every: readonly ApiMethod[] = ['GET', 'HEAD', 'LIST', 'SCAN', 'DELETE', 'PATCH', 'POST', 'PUT'];
  return { pattern, methods: Object.fromEntries(every.map((method) => [method, taken[method] ?? refuse])) };
}

/** The token an older form names: the body's, else the one in the path, which earns a warning. */
function namedToken<T extends z.ZodObject>(
  schema: T,
  context: RouteContext,
): { input: z.infer<T>; token: string; warnings: string[] } {
  const input = fields(schema, context.request.body);
  const given = (input as { token?: string }).token;
  return given === undefined
    ? { input, token: context.params.token!, warnings: [IN_PATH_WARNING] }
    : { input, token: given, warnings: [] };
}

export interface TokenServices {
  tokens: TokenStore;
  roles: TokenRoleStore;
  /** The auth method mounted where a token was issued (its record's path); none once that mount is gone. */
  authAt: (issuedAt: string) => Promise<AuthMethod | undefined>;
  clock: Clock;
  policies: PolicyStore;
}

export function tokenRoutes({ tokens, roles, authAt, clock, policies }: TokenServices): Route[] {
  const now = () => clock.now().getTime();
  const caller = (context: RouteContext): TokenRecord => {
    if (!context.caller) throw new PermissionDenied();
    return context.caller;
  };

  const createSchema = createFields();
  const createKnown = new Set(Object.keys(createSchema.shape));
  const create =
    (orphan: boolean) =>
    async (context: RouteContext): Promise<ApiResult> => {
      const parent = caller(context);
      const input = fields(createSchema, context.request.body);
      if (input.id !== undefined)
        throw new InvalidRequest('invalid value for field "id": the server makes every token itself; leave "id" out');
      const name = context.params.role;
      const role = name === undefined ? undefined : await roles.get(name);
      if (name !== undefined && !role) throw new InvalidRequest(`unknown role ${name}`);
      const sudo = (await policies.aclFor(parent.policies)).allows('sudo', context.request.path);
      const plan = planToken(input, { parent, orphan, sudo, role, ttlFor: (wanted) => tokens.ttlFor(wanted) });
      const { token, record } = await tokens.mint(plan.fields, plan.ttl, { creator: parent, child: plan.child });
      const warnings = [...ignoredFieldsWarning(context.request.body, createKnown), ...plan.warnings];
      // The store ends a child with its parent.
      if (record.creationTtl < plan.ttl) {
        warnings.push(
          `TTL of ${formatDuration(plan.ttl)} runs past the parent token's expiry: capped at ${formatDuration(record.creationTtl)}, when the parent expires`,
        );
      }
      return { status: 200, body: envelope(context.requestId, { warnings, auth: authView(record, token, now()) }) };
    };

  /** Renews through AuthMethod.renew() for a token minted from a login, by the token's own rules otherwise. */
  const renew = async (
    record: TokenRecord,
    token: string,
    increment: number,
    requestId: string,
    notes: string[] = [],
  ): Promise<ApiResult> => {
    // Before asking the auth method: a token that cannot be renewed costs no cloud call.
    if (!record.renewable) throw new InvalidRequest('lease is not renewable');
    let changes: Partial<TokenRecord> = {};
    let wanted = { increment, ttl: record.ttl, period: record.period, maxTtl: 0 };
    if (record.role !== undefined) {
      // As in Vault, a role's token renews by the role's period and maximum as they are now.
      const role = await roles.get(record.role);
      if (!role)
        throw new InvalidRequest(`original token role ${JSON.stringify(record.role)} could not be found, not renewing`);
      changes = { period: role.token_period, explicitMaxTtl: role.token_explicit_max_ttl };
      wanted = { ...wanted, period: role.token_period };
    }
    if (record.grant) {
      const auth = await authAt(record.path);
      if (!auth) throw new InvalidRequest('the auth method that issued this token is no longer mounted');
      const response = await auth.renew(record.grant);
      if (response.status !== 200) return engineResult(requestId, response);
      // The renewed grant carries the role's current TTLs; without one the issued grant's apply.
      const renewed =
        response.body && 'auth' in response.body && response.body.auth ? response.body.auth : record.grant;
      wanted = { increment, ttl: renewed.ttl, period: renewed.period, maxTtl: renewed.max_ttl };
      changes = { grant: renewed, period: renewed.period };
    }
    const { record: extended, warnings } = await tokens.renew({ ...record, ...changes }, wanted, changes);
    return {
      status: 200,
      body: envelope(requestId, { warnings: [...notes, ...warnings], auth: authView(extended, token, now()) }),
    };
  };

  const target = async (token: string): Promise<TokenRecord> => {
    const record = await tokens.find(token);
    if (!record) throw new PermissionDenied('bad token');
    return record;
  };
  const lookup = async (context: RouteContext): Promise<ApiResult> => {
    const { token, warnings } = namedToken(inPathSchema, context);
    return ok(context.requestId, lookupView(await target(token), token, now()), warnings);
  };
  const revoke = async (token: string): Promise<void> => {
    const record = await tokens.find(token);
    // Revoking a token that is gone already is done, as in Vault.
    if (record) await tokens.revoke(record);
  };
  const byAccessor = async (accessor: string): Promise<TokenRecord> => {
    const record = await tokens.findByAccessor(accessor);
    if (!record) throw new InvalidRequest('invalid accessor');
    return record;
  };

  const routes: Route[] = [
    { pattern: /^auth\/token\/create$/, methods: { POST: create(false) } },
    { pattern: /^auth\/token\/create-orphan$/, methods: { POST: create(true) } },
    { pattern: new RegExp(`^auth/token/create/(?<role>${ROLE_NAME_SOURCE})$`), methods: { POST: create(false) } },
    {
      pattern: /^auth\/token\/lookup-self$/,
      methods: {
        GET: async (context) => ok(context.requestId, lookupView(caller(context), context.request.token ?? '', now())),
        POST: async (context) => ok(context.requestId, lookupView(caller(context), context.request.token ?? '', now())),
      },
    },
    {
      pattern: /^auth\/token\/lookup$/,
      methods: {
        POST: async ({ request, requestId }) => {
          const { token } = fields(tokenSchema, request.body);
          return ok(requestId, lookupView(await target(token), token, now()));
        },
      },
    },
    tokenInPath(/^auth\/token\/lookup\/(?<token>.+)/, { GET: lookup, POST: lookup }),
    {
      pattern: /^auth\/token\/lookup-accessor$/,
      methods: {
        POST: async ({ request, requestId }) =>
          ok(requestId, lookupView(await byAccessor(fields(accessorSchema, request.body).accessor), '', now())),
      },
    },
    {
      pattern: /^auth\/token\/renew-self$/,
      methods: {
        POST: async (context) =>
          renew(
            caller(context),
            context.request.token ?? '',
            fields(incrementSchema, context.request.body).increment ?? 0,
            context.requestId,
          ),
      },
    },
    {
      pattern: /^auth\/token\/renew$/,
      methods: {
        POST: async ({ request, requestId }) => {
          const { token, increment } = fields(renewSchema, request.body);
          return renew(await target(token), token, increment ?? 0, requestId);
        },
      },
    },
    tokenInPath(/^auth\/token\/renew\/(?<token>.+)/, {
      POST: async (context) => {
        const { input, token, warnings } = namedToken(inPathRenewSchema, context);
        return renew(await target(token), token, input.increment ?? 0, context.requestId, warnings);
      },
    }),
    {
      pattern: /^auth\/token\/revoke-self$/,
      methods: {
        POST: async (context) => {
          await tokens.revoke(caller(context));
          return noContent;
        },
      },
    },
    {
      pattern: /^auth\/token\/revoke$/,
      methods: {
        POST: async ({ request }) => {
          await revoke(fields(tokenSchema, request.body).token);
          return noContent;
        },
      },
    },
    tokenInPath(/^auth\/token\/revoke\/(?<token>.+)/, {
      POST: async (context) => {
        await revoke(namedToken(inPathSchema, context).token);
        return noContent;
      },
    }),
    {
      pattern: /^auth\/token\/revoke-accessor$/,
      methods: {
        POST: async ({ request }) => {
          await tokens.revoke(await byAccessor(fields(accessorSchema, request.body).accessor));
          return noContent;
        },
      },
    },
  ];
  return routes.map(withPutAsPost);
}
