import { describe, expect, it } from 'vitest';
import { InvalidRequest } from '../../../src/lib/errors.js';
import { iamEntityFromCallerIdentity, matchesArnPattern } from '../../../src/auth/login/common/iam-entity.js';
import { parsePrincipalArn } from '../../../src/lib/arn.js';

describe('principal ARNs', () => {
  it.each([
    [
      'arn:aws:iam::123456789012:user/UserPath/MyUserName',
      'user',
      'UserPath',
      'MyUserName',
      '',
      'arn:aws:iam::123456789012:user/MyUserName',
    ],
    [
      'arn:aws:sts::123456789012:assumed-role/RoleName/RoleSessionName',
      'assumed-role',
      '',
      'RoleName',
      'RoleSessionName',
      'arn:aws:iam::123456789012:role/RoleName',
    ],
    [
      'arn:aws:iam::123456789012:role/path/to/RoleName',
      'role',
      'path/to',
      'RoleName',
      '',
      'arn:aws:iam::123456789012:role/RoleName',
    ],
    [
      'arn:aws:iam::123456789012:instance-profile/profilePath/InstanceProfileName',
      'instance-profile',
      'profilePath',
      'InstanceProfileName',
      '',
      'arn:aws:iam::123456789012:instance-profile/InstanceProfileName',
    ],
    [
      'arn:aws-us-gov:iam::123456789012:user/plain',
      'user',
      '',
      'plain',
      '',
      'arn:aws-us-gov:iam::123456789012:user/plain',
    ],
    [
      'arn:aws-cn:sts:cn-north-1:123456789012:assumed-role/R/i-0123/extra',
      'assumed-role',
      '',
      'R',
      'i-0123',
      'arn:aws-cn:iam::123456789012:role/R',
    ],
  ])('%s', (arn, type, path, friendlyName, sessionName, canonicalArn) => {
    expect(parsePrincipalArn(arn)).toMatchObject({
      type,
      path,
      friendlyName,
      sessionName,
      canonicalArn,
      accountId: '123456789012',
    });
  });

  it.each([
    ['', /contains 1 colon-separated parts, expected 6/],
    ['arn:aws:iam::123456789012:role', /contains fewer than 2 slash-separated parts/],
    ['arn:aws:iam', /contains 3 colon-separated parts/],
    ['arn:aws:iam::1234556789012:/', /unrecognized principal type: ""/],
    ['arn:aws:sts::1234556789012:assumed-role/role', /contains fewer than 3 slash-separated parts/],
    ['arn:aws:iam::123456789012:root', /fewer than 2 slash-separated parts/],
    ['arn:aws:sts::123456789012:federated-user/bob', /unrecognized principal type: "federated-user"/],
    ['arn:aws:s3::123456789012:user/x', /unrecognized service: s3, not one of iam or sts/],
    ['nra:aws:iam::123456789012:user/x', /does not begin with "arn:"/],
    ['arn:evil.example:iam::123456789012:user/x', /unrecognized partition/],
    ['arn:aws:iam:::user/x', /unrecognized account/],
    ['arn:aws:iam::123456789012:user/path/', /empty principal name/],
  ])('refuses %j', (arn, message) => {
    let error: unknown;
    try {
      parsePrincipalArn(arn);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(InvalidRequest);
    expect((error as Error).message).toMatch(/^error parsing arn ".*": /);
    expect((error as Error).message).toMatch(message);
  });
});

describe('iam entity', () => {
  it('derives an assumed role: unique id before the colon, display name role/session, full ARN kept', () => {
    const arn = 'arn:aws:sts::123456789012:assumed-role/RoleName/i-0123456789abcdef0';
    const entity = iamEntityFromCallerIdentity({
      arn,
      userId: 'AROADBQP57FF2AEXAMPLE:i-0123456789abcdef0',
      accountId: '123456789012',
    });
    expect(entity).toMatchObject({
      arn,
      canonicalArn: 'arn:aws:iam::123456789012:role/RoleName',
      uniqueId: 'AROADBQP57FF2AEXAMPLE',
      friendlyName: 'RoleName',
      sessionName: 'i-0123456789abcdef0',
      displayName: 'RoleName/i-0123456789abcdef0',
    });
  });

  it('derives a user with a path', () => {
    const entity = iamEntityFromCallerIdentity({
      arn: 'arn:aws:iam::123456789012:user/team/valid-role',
      userId: 'ASOMETHINGSOMETHINGSOMETHING',
      accountId: '123456789012',
    });
    expect(entity).toMatchObject({
      uniqueId: 'ASOMETHINGSOMETHINGSOMETHING',
      displayName: 'valid-role',
      path: 'team',
      canonicalArn: 'arn:aws:iam::123456789012:user/valid-role',
    });
  });

  it('refuses an identity whose ARN is not a supported principal', () => {
    expect(() =>
      iamEntityFromCallerIdentity({
        arn: 'arn:aws:iam::123456789012:root',
        userId: '123456789012',
        accountId: '123456789012',
      }),
    ).toThrow(InvalidRequest);
  });
});

describe('bound ARN patterns', () => {
  const role = 'arn:aws:iam::123456789012:role/path/web';
  it.each([
    ['arn:aws:iam::123456789012:role/*', true],
    ['arn:aws:iam::123456789012:role/path/*', true],
    ['arn:aws:iam::123456789012:*', true],
    ['arn:aws:iam::123456789012:role/web*', false],
    ['arn:aws:iam::123456789012:role/path/web', true],
    ['arn:aws:iam::123456789012:role/path/we', false],
    ['arn:aws:iam::999999999999:role/*', false],
    ['*', false],
    ['*path/web*', true],
    ['*nowhere*', false],
    ['arn:aws:iam::*:role/path/web', false],
    ['*:role/path/web', false],
  ])('%s matches: %s', (pattern, expected) => {
    expect(matchesArnPattern(pattern, role)).toBe(expected);
  });

  it('a lone * matches only itself', () => {
    expect(matchesArnPattern('*', '*')).toBe(true);
  });
});
