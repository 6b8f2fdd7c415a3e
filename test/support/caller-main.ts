/**
 * The real server entry with the test-only Caller kind (caller-api.ts) built in: startServer({ entry:
 * callerEntry }). Like test-apis-main.ts, it joins the built-in list before main.js parses its flags.
 */
import { builtinDefinitions } from '../../modules/kinds/index.js';
import { callerDefinition } from './caller-api.js';

builtinDefinitions.push(callerDefinition);
await import('../../src/main.js');
