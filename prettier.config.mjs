// The house format: the width the code was written to, single quotes, trailing commas.
export default { printWidth: 120, singleQuote: true, trailingComma: 'all' };
