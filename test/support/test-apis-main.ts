/**
 * The real server entry with the test-only kinds of test-apis.ts built in, for e2e tests of API versioning
 * (startServer({ entry: testApisEntry })). They stand in for built-in kinds with a lifecycle, so they join the
 * built-in list before main.js parses its flags: --runtime-config is checked against that list (as kube checks
 * it against its built-in groups), and KindsModule registers the list through Registry.register at start.
 */
import { builtinDefinitions } from '../../modules/kinds/index.js';
import { widgetDefinition } from './test-apis.js';

builtinDefinitions.push(widgetDefinition);
await import('../../src/main.js');
