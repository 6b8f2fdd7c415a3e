/**
 * The real server entry with the test-only kinds of test-apis.ts added to the built-in ones, for e2e tests of
 * API versioning (startServer({ entry: testApisEntry })). The kinds join before main.js parses its flags, so
 * --runtime-config knows them too.
 */
import { builtinDefinitions } from '../../modules/kinds/index.js';
import { widgetDefinition } from './test-apis.js';

builtinDefinitions.push(widgetDefinition);
await import('../../src/main.js');
