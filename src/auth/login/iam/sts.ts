import type { CallerIdentity, CloudScope } from '../../../ports/cloud.js';
import type { AuthContext } from '../../context/auth-context.js';
import { cloudClientSettings, DEFAULT_CLIENT_CONFIG } from '../../config/client-config.js';
import { callCloud } from '../../context/cloud-call.js';
import type { CloudScopes } from '../../config/cloud-scope.js';
import { parseCallerIdentityResponse } from './caller-identity.js';
import { decodeIamRequest, type IamLoginFields } from './request.js';

/**
 * Authenticates an iam login (as in Vault): the client's signed request is validated (every failure 400,
 * before anything is sent) and forwarded to the configured STS endpoint, or with
 * use_sts_region_from_client to AWS's regional STS endpoint of the client's credential scope, which then overrides
 * sts_endpoint as in Vault. What STS vouches for is the caller's identity: STS refusing the signature is 403,
 * an unreachable or misbehaving STS 502.
 */
export async function authenticateWithSts(
  context: AuthContext,
  scopes: CloudScopes,
  fields: IamLoginFields,
): Promise<CallerIdentity> {
  const stored = await scopes.clientConfig();
  const config = stored ?? DEFAULT_CLIENT_CONFIG;
  const decoded = decodeIamRequest(fields, {
    serverIdHeaderValue: config.iam_server_id_header_value,
    allowedStsHeaders: config.allowed_sts_header_values,
    useStsRegionFromClient: config.use_sts_region_from_client,
  });
  const settings = cloudClientSettings(stored);
  const scope: CloudScope =
    decoded.region === undefined
      ? { settings }
      : { settings: { ...settings, stsEndpoint: '', stsRegion: '' }, region: decoded.region };
  return callCloud('error making upstream request', async () =>
    parseCallerIdentityResponse(await context.cloud.forwardCallerIdentity(scope, decoded.request)),
  );
}
