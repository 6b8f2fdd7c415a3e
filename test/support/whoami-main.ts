/**
 * The real server entry with the test-only WhoAmI kind built in (startServer({ entry: whoAmIEntry })), for
 * tests that must see which user a credential authenticates as.
 */
import { builtinDefinitions } from '../../modules/kinds/index.js';
import { whoAmIDefinition } from './whoami-api.js';

builtinDefinitions.push(whoAmIDefinition);
await import('../../src/main.js');
