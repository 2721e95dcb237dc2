// readTime reads the Times of certificates and signingTime attributes; a time that names no instant is refused, never
// rolled over into another one.
import { X509Certificate } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { readTime } from '../../../src/auth/pkcs7/asn1-time.js';
import { BerError } from '../../../src/auth/pkcs7/ber.js';
import { parseTrustedCertificate } from '../../../src/auth/pkcs7/parsed-certificate.js';
import { allAwsCertificates, sampleCertificate } from '../../support/aws-fixtures.js';
import { failure } from '../../support/failure.js';

const utc = (text: string) => Buffer.concat([Buffer.from([0x17, text.length]), Buffer.from(text, 'latin1')]);
const generalized = (text: string) => Buffer.concat([Buffer.from([0x18, text.length]), Buffer.from(text, 'latin1')]);
const read = (encoding: Buffer) => readTime(encoding, 'test time').toISOString();

describe('readTime', () => {
  it('reads UTCTime, with years 50 to 99 in the 1900s and 00 to 49 in the 2000s', () => {
    expect(read(utc('491231235959Z'))).toBe('2049-12-31T23:59:59.000Z');
    expect(read(utc('500101000000Z'))).toBe('1950-01-01T00:00:00.000Z');
    expect(read(utc('000229120000Z'))).toBe('2000-02-29T12:00:00.000Z');
  });

  it('reads GeneralizedTime with and without a fraction of a second, and years below 100 as written', () => {
    expect(read(generalized('20510203040506Z'))).toBe('2051-02-03T04:05:06.000Z');
    expect(read(generalized('20510203040506.5Z'))).toBe('2051-02-03T04:05:06.500Z');
    expect(read(generalized('20510203040506.1239Z'))).toBe('2051-02-03T04:05:06.123Z');
    expect(read(generalized('20510203040506.05Z'))).toBe('2051-02-03T04:05:06.050Z');
    // Digits past the millisecond are dropped, never summed: twenty nines would round the sum up to the next one.
    expect(read(generalized('20510203040506.12399999999999999999999Z'))).toBe('2051-02-03T04:05:06.123Z');
    expect(read(generalized('00500101000000Z'))).toBe('0050-01-01T00:00:00.000Z');
    expect(read(generalized('99991231235959Z'))).toBe('9999-12-31T23:59:59.000Z');
  });

  it.each([
    ['month 00', utc('260001000000Z')],
    ['month 13', utc('261301000000Z')],
    ['day 00', utc('260100000000Z')],
    ['day 32', utc('260132000000Z')],
    ['31 April', utc('260431000000Z')],
    ['29 February of a common year', generalized('21000229000000Z')],
    ['hour 24', utc('260101240000Z')],
    ['minute 60', utc('260101006000Z')],
    ['second 60', utc('260101000060Z')],
  ])('refuses %s rather than rolling it over', (_name, encoding) => {
    const error = failure(() => readTime(encoding, 'test time'));
    expect(error).toBeInstanceOf(BerError);
    expect(error.message).toBe('invalid test time');
  });

  it('accepts the last day of each month and 29 February of a leap year', () => {
    const last = ['0131', '0228', '0331', '0430', '0531', '0630', '0731', '0831', '0930', '1031', '1130', '1231'];
    for (const monthDay of last)
      expect(read(utc(`26${monthDay}235959Z`))).toBe(`2026-${monthDay.slice(0, 2)}-${monthDay.slice(2)}T23:59:59.000Z`);
    expect(read(generalized('20240229000000Z'))).toBe('2024-02-29T00:00:00.000Z');
  });

  it.each([
    ['another tag', Buffer.from('0c0d3236303130313030303030305a', 'hex')],
    ['UTCTime without seconds', utc('2601010000Z')],
    ['UTCTime with a fraction', utc('260101000000.5Z')],
    ['an offset instead of Z', utc('260101000000+0100')],
    ['no Z', generalized('20260101000000')],
    ['a fraction without digits', generalized('20260101000000.Z')],
    ['a comma as the decimal sign', generalized('20260101000000,5Z')],
    ['a letter among the digits', utc('2601010000a0Z')],
    ['a letter in the fraction', generalized('20260101000000.5aZ')],
    ['a sign in the year', generalized('-0260101000000Z')],
    ['a colon in the year (the octet after 9)', generalized('2:260101000000Z')],
    ['UTCTime of the right length without its Z', utc('2601010000001')],
    ['UTCTime with eleven digits and Z', utc('26010100000Z')],
    ['a fraction without Z', generalized('20260101000000.55')],
    [
      'a GeneralizedTime under another tag',
      Buffer.concat([Buffer.from([0x0c, 15]), Buffer.from('20260101000000Z', 'latin1')]),
    ],
  ])('refuses %s', (_name, encoding) => {
    expect(failure(() => readTime(encoding, 'test time'))).toBeInstanceOf(BerError);
  });
});

describe('certificate validity', () => {
  it('reads as node:crypto reads it, for every AWS certificate and sample certificate', () => {
    const certificates = [
      ...allAwsCertificates(),
      sampleCertificate('iid-verify-us-west-2-2018', 'cert-rsa-signature-ec2.amazonaws.com.pem', 'identity'),
      sampleCertificate('pkcs7-go-us-east-1-2016', 'cert-dsa-generic.pem'),
    ];
    for (const certificate of certificates) {
      const x509 = new X509Certificate(certificate.pem);
      const parsed = parseTrustedCertificate(certificate);
      expect(parsed?.notBefore, certificate.name).toEqual(new Date(x509.validFrom));
      expect(parsed?.notAfter, certificate.name).toEqual(new Date(x509.validTo));
    }
  });
});
