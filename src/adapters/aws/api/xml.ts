/**
 * Reading AWS Query API XML. Tag values stay strings (`parseTagValue: false`) so that account ids keep their leading
 * zeros; list containers (`item` in EC2, `member` in IAM/STS) always parse as arrays, even with one element.
 */
import { XMLParser } from 'fast-xml-parser';
import { CloudUnavailable } from '../../../lib/errors.js';

const parser = new XMLParser({
  ignoreAttributes: true,
  removeNSPrefix: true,
  parseTagValue: false,
  isArray: (name) => name === 'item' || name === 'member',
});

export type XmlNode = unknown;

/** Parses a document; undefined when it is not XML. AWS never sends a DTD, so one is refused rather than expanded. */
export function parseXml(body: string): XmlNode {
  if (/<!DOCTYPE/i.test(body)) return undefined;
  try {
    const parsed: unknown = parser.parse(body, true);
    return typeof parsed === 'object' && parsed !== null ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** Follows a path of element names through own properties only. */
export function child(node: XmlNode, ...names: string[]): XmlNode {
  let current: unknown = node;
  for (const name of names) {
    if (typeof current !== 'object' || current === null || !Object.hasOwn(current, name)) return undefined;
    current = (current as Record<string, unknown>)[name];
  }
  return current;
}

/** The text of an element; empty elements count as absent. */
export function text(node: XmlNode, ...names: string[]): string | undefined {
  const value = child(node, ...names);
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The entries of a list container (`<reservationSet><item>…`, `<Roles><member>…`). */
export function entries(node: XmlNode, ...names: string[]): XmlNode[] {
  const container = child(node, ...names);
  const list = child(container, 'item') ?? child(container, 'member');
  return Array.isArray(list) ? list : [];
}

/** The text of an element the answer must have; `context` names the call in the error. */
export function requiredText(node: XmlNode, context: string, ...names: string[]): string {
  const value = text(node, ...names);
  if (value === undefined) throw new CloudUnavailable(`${context}: answer lacks ${names.join('.')}`);
  return value;
}
