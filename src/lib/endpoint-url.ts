/**
 * An endpoint override of the cloud provider (`config/client`'s `endpoint`, `iam_endpoint`, `sts_endpoint`): http://
 * is allowed (local emulators, proxies); credentials, a query or a fragment are not, since the provider signs and
 * sends to the URL as it is, and messages about it reach login callers.
 */
export const ENDPOINT_RULE = 'must be an http:// or https:// URL without credentials, a query or a fragment';

/** The URL when the value keeps ENDPOINT_RULE, else undefined. */
export function endpointUrl(value: string): URL | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  const plain =
    url.search === '' && url.hash === '' && url.username === '' && url.password === '' && url.hostname !== '';
  return (url.protocol === 'http:' || url.protocol === 'https:') && plain ? url : undefined;
}
