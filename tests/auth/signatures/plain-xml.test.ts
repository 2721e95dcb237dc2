import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { XMLValidator } from 'fast-xml-parser';
import { readPlainXml, type PlainElement } from '../../../src/auth/login/iam/plain-xml.js';

const names = fc.constantFrom(
  'GetCallerIdentityResponse',
  'GetCallerIdentityResult',
  'Arn',
  'UserId',
  'Account',
  'ResponseMetadata',
  'RequestId',
);
const texts = fc.stringMatching(/^[A-Za-z0-9:/_.=,@+-]{0,30}$/);
const spaces = fc.constantFrom('', ' ', '\n  ', '\t', '\r\n');

/** A tree and one of its spellings: any whitespace between markup, attributes, prefixes, self-closing empty elements. */
const documents: fc.Arbitrary<{ tree: PlainElement; xml: string }> = fc.letrec<{
  node: { tree: PlainElement; xml: string };
}>((tie) => ({
  node: fc
    .record({
      name: names,
      prefix: fc.constantFrom('', 'sts:'),
      attributes: fc.array(
        fc.tuple(fc.constantFrom('xmlns', 'xmlns:sts', 'id', 'x'), fc.stringMatching(/^[a-z0-9:/.-]{0,20}$/)),
        { maxLength: 2 },
      ),
      quote: fc.constantFrom('"', "'"),
      before: spaces,
      after: spaces,
      content: fc.oneof({ depthSize: 'small' }, texts, fc.array(tie('node'), { minLength: 1, maxLength: 3 })),
    })
    .map(({ name, prefix, attributes, quote, before, after, content }) => {
      const unique = attributes.filter(([key], index) => attributes.findIndex(([other]) => other === key) === index);
      const open = `${prefix}${name}${unique.map(([key, value]) => ` ${key}=${quote}${value}${quote}`).join('')}${after}`;
      if (typeof content === 'string') {
        const xml =
          content === '' && before === '' ? `<${open}/>` : `<${open}>${before}${content}${before}</${prefix}${name}>`;
        return { tree: { name, text: content, children: [] }, xml };
      }
      const inner = content.map((child) => `${before}${child.xml}`).join('') + before;
      return {
        tree: { name, text: '', children: content.map((child) => child.tree) },
        xml: `<${open}>${inner}</${prefix}${name}>`,
      };
    }),
})).node;

describe('readPlainXml', () => {
  it('reads every spelling of a tree back as that tree, with or without an XML declaration', () => {
    fc.assert(
      fc.property(documents, fc.boolean(), ({ tree, xml }, declared) => {
        const text = declared ? `<?xml version="1.0" encoding="UTF-8"?>\n${xml}\n` : xml;
        expect(readPlainXml(text)).toEqual(tree);
      }),
      { numRuns: 500 },
    );
  });

  it('accepts nothing that is not well-formed XML', () => {
    const markup = fc.constantFrom(
      '<a>',
      '</a>',
      '<b x="1">',
      '</b>',
      '<a/>',
      'text',
      ' ',
      '&amp;',
      '<!-- c -->',
      '<![CDATA[x]]>',
      '<?pi?>',
      '"',
      "'",
      '=',
      '<',
      '>',
      '/',
    );
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.array(markup, { maxLength: 12 }).map((parts) => parts.join('')),
        ),
        (text) => {
          if (readPlainXml(text) !== undefined) expect(XMLValidator.validate(text)).toBe(true);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it.each([
    ['a comment', '<a><!-- x --><b>1</b></a>'],
    ['CDATA', '<a><![CDATA[x]]></a>'],
    ['a processing instruction', '<a><?x y?></a>'],
    ['a DTD', '<!DOCTYPE a [<!ENTITY e "x">]><a>&e;</a>'],
    ['an entity', '<a>x &amp; y</a>'],
    ['a character reference', '<a>&#65;</a>'],
    ['an entity in an attribute', '<a b="&amp;">x</a>'],
    ['mixed content', '<a>text<b>1</b></a>'],
    ['a mismatched end tag', '<a><b>1</c></a>'],
    ['an unclosed element', '<a><b>1</b>'],
    ['two roots', '<a>1</a><b>2</b>'],
    ['text after the root', '<a>1</a>tail'],
    ['a declaration after whitespace', ' <?xml version="1.0"?><a>1</a>'],
    ['attributes without a space between them', '<a x="1"y="2">1</a>'],
    ['a repeated attribute', '<a x="1" x="2">1</a>'],
    ['an unquoted attribute', '<a x=1>1</a>'],
    ['a "<" in an attribute', '<a x="<">1</a>'],
    ['"]]>" in text', '<a>x]]>y</a>'],
    ['a name starting with a digit', '<1a>x</1a>'],
    ['deep nesting', `${'<a>'.repeat(17)}x${'</a>'.repeat(17)}`],
    ['nothing', ''],
  ])('refuses %s', (_name, text) => {
    expect(readPlainXml(text)).toBeUndefined();
  });

  it('drops namespace prefixes from element names, keeps text as text (leading zeros included), trims it', () => {
    expect(readPlainXml('<sts:R xmlns:sts="u"><sts:Account>\n  012345678901 </sts:Account></sts:R>')).toEqual({
      name: 'R',
      text: '',
      children: [{ name: 'Account', text: '012345678901', children: [] }],
    });
  });
});
