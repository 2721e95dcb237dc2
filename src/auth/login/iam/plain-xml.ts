/**
 * A strict reader of plain XML, the subset STS writes its answers in: an optional XML declaration, then one element
 * whose elements hold either other elements or text, with attributes (read and dropped). Anything outside that subset
 * (a comment, CDATA, a processing instruction, a DTD, an entity or character reference, mixed content) makes the
 * document unreadable rather than being interpreted, and so does anything that is not well-formed. Namespace prefixes
 * are dropped from element names, as the general parser used elsewhere is told to.
 *
 * Why not that general parser: every iam login reads one such answer, and parsing and validating its 500 bytes with
 * fast-xml-parser took a third of the login's CPU; this reader does both in one pass at a small fraction of that.
 */

export interface PlainElement {
  name: string;
  /** The text of an element without children, trimmed; '' for one with children. */
  text: string;
  children: PlainElement[];
}

const MAX_DEPTH = 16;
const NAME = /[A-Za-z_][A-Za-z0-9._-]*(?::[A-Za-z_][A-Za-z0-9._-]*)?/y;
const SPACE = /[ \t\r\n]*/y;
const ATTRIBUTE = /([A-Za-z_][A-Za-z0-9._:-]*)[ \t\r\n]*=[ \t\r\n]*(?:"([^"<&]*)"|'([^'<&]*)')/y;
const DECLARATION = /^<\?xml[ \t\r\n][^<>?]*\?>/;
const WHITESPACE_ONLY = /^[ \t\r\n]*$/;

class Malformed extends Error {}

/** The document's root element, or undefined when the text is not plain XML as described above. */
export function readPlainXml(text: string): PlainElement | undefined {
  try {
    const reader = new Reader(text);
    return reader.document();
  } catch (error) {
    if (error instanceof Malformed) return undefined;
    throw error;
  }
}

class Reader {
  private at = 0;

  constructor(private readonly text: string) {}

  document(): PlainElement {
    const declaration = DECLARATION.exec(this.text);
    if (declaration) this.at = declaration[0].length;
    this.space();
    const root = this.element(0);
    this.space();
    if (this.at !== this.text.length) throw new Malformed();
    return root;
  }

  private element(depth: number): PlainElement {
    if (depth >= MAX_DEPTH || this.text[this.at] !== '<') throw new Malformed();
    this.at++;
    const qualified = this.match(NAME);
    const name = qualified.slice(qualified.indexOf(':') + 1);
    this.attributes();
    if (this.text.startsWith('/>', this.at)) {
      this.at += 2;
      return { name, text: '', children: [] };
    }
    this.expect('>');
    const children: PlainElement[] = [];
    let text = '';
    for (;;) {
      const next = this.text.indexOf('<', this.at);
      if (next < 0) throw new Malformed();
      const segment = this.text.slice(this.at, next);
      if (segment.includes('&') || segment.includes(']]>')) throw new Malformed();
      text += segment;
      this.at = next;
      if (this.text.startsWith('</', next)) break;
      const marker = this.text[next + 1];
      if (marker === '!' || marker === '?') throw new Malformed();
      children.push(this.element(depth + 1));
    }
    this.at += 2;
    if (this.match(NAME) !== qualified) throw new Malformed();
    this.space();
    this.expect('>');
    if (children.length === 0) return { name, text: text.trim(), children };
    if (!WHITESPACE_ONLY.test(text)) throw new Malformed();
    return { name, text: '', children };
  }

  /** Attributes are checked (well-formed, each name once) and dropped. */
  private attributes(): void {
    const seen = new Set<string>();
    for (;;) {
      const before = this.at;
      this.space();
      ATTRIBUTE.lastIndex = this.at;
      const attribute = ATTRIBUTE.exec(this.text);
      if (!attribute) return;
      const name = attribute[1] as string;
      if (this.at === before || seen.has(name)) throw new Malformed();
      seen.add(name);
      this.at = ATTRIBUTE.lastIndex;
    }
  }

  private match(pattern: RegExp): string {
    pattern.lastIndex = this.at;
    const found = pattern.exec(this.text);
    if (!found) throw new Malformed();
    this.at = pattern.lastIndex;
    return found[0];
  }

  private space(): void {
    SPACE.lastIndex = this.at;
    SPACE.exec(this.text);
    this.at = SPACE.lastIndex;
  }

  private expect(character: string): void {
    if (this.text[this.at] !== character) throw new Malformed();
    this.at++;
  }
}
