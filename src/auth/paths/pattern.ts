/**
 * Path templates of the auth method. `:name` is a name segment under Vault's generic rule (a word character,
 * or word characters around any mix of word characters, '-' and '.'); `:name+` takes the rest of the path, slashes
 * included (a role tag in the deny list path). A path whose name breaks the rule matches no route (404).
 */
const NAME = String.raw`\w(?:[\w.-]*\w)?`;

export function pathPattern(template: string): RegExp {
  const source = template
    .split('/')
    .map((segment) => {
      const param = /^:(\w+)(\+?)$/.exec(segment);
      if (!param) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      return param[2] === '+' ? `(?<${param[1]}>.+)` : `(?<${param[1]}>${NAME})`;
    })
    .join('/');
  return new RegExp(`^${source}$`);
}
