export * from './labels.js';
export * from './fields.js';
export {
  isQualifiedName,
  isValidLabelValue,
  isDNS1123Subdomain,
  regexError,
  maxLenError,
} from './validation.js';
export { goQuote } from './quote.js';
