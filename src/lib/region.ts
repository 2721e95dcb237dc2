/**
 * Region names that callers control (a signed identity document, the credential scope of a client's signed request)
 * end up in endpoint host names, so only the shape AWS uses is accepted (us-east-1, us-gov-west-1, eu-isoe-west-1, eusc-de-east-1):
 * a region can then pick among the provider's own endpoints but never steer a request to another host.
 */
const REGION_NAME = /^(?:[a-z]{2}|eusc)(?:-[a-z]+)+-\d{1,2}$/;

export function isRegionName(value: string): boolean {
  return REGION_NAME.test(value);
}
