/** EC2 DescribeInstances for one instance id. */
import type { InstanceDescription } from '../../../ports/cloud.js';
import { unlessNotFound, type QueryApiClient, type QueryTarget } from './query-api.js';
import { entries, text, type XmlNode } from './xml.js';

/** A malformed id cannot name an existing instance, so it is "not found" rather than a provider fault. */
const notFoundCodes = ['InvalidInstanceID.NotFound', 'InvalidInstanceID.Malformed'];

function tagsOf(instance: XmlNode): Record<string, string> {
  const pairs = entries(instance, 'tagSet').flatMap((tag) => {
    const key = text(tag, 'key');
    return key === undefined ? [] : [[key, text(tag, 'value') ?? ''] as const];
  });
  // fromEntries defines own properties, so tag keys such as "__proto__" stay plain data.
  return Object.fromEntries(pairs);
}

/** Absent attributes are left out rather than set to undefined (decision 22: absent means unmet). */
function describe(reservation: XmlNode, instance: XmlNode): InstanceDescription {
  const vpcId = text(instance, 'vpcId');
  const subnetId = text(instance, 'subnetId');
  const iamInstanceProfileArn = text(instance, 'iamInstanceProfile', 'arn');
  return {
    instanceId: text(instance, 'instanceId') ?? '',
    state: text(instance, 'instanceState', 'name') ?? '',
    accountId: text(reservation, 'ownerId') ?? '',
    imageId: text(instance, 'imageId') ?? '',
    ...(vpcId && { vpcId }),
    ...(subnetId && { subnetId }),
    ...(iamInstanceProfileArn && { iamInstanceProfileArn }),
    tags: tagsOf(instance),
  };
}

export async function describeInstance(
  api: QueryApiClient,
  target: QueryTarget,
  instanceId: string,
): Promise<InstanceDescription | undefined> {
  const root = await unlessNotFound(notFoundCodes, () =>
    api.call(target, 'DescribeInstances', { 'InstanceId.1': instanceId }),
  );
  if (root === undefined) return undefined;
  for (const reservation of entries(root, 'reservationSet')) {
    for (const instance of entries(reservation, 'instancesSet')) {
      if (text(instance, 'instanceId') === instanceId) return describe(reservation, instance);
    }
  }
  return undefined;
}
