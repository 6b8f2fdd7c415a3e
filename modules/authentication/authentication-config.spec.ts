/**
 * --authentication-config and --anonymous-auth: what kube-apiserver v1.32 accepts, what it refuses and in
 * which words, and which anonymous access results.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  anonymousAccess,
  parseAuthenticationConfiguration,
  type AuthenticationConfiguration,
} from './authentication-config.js';

const allOn = () => true;
const v1beta1 = 'apiVersion: apiserver.config.k8s.io/v1beta1\nkind: AuthenticationConfiguration\n';

describe('parseAuthenticationConfiguration', () => {
  const accepted: { name: string; text: string; want: AuthenticationConfiguration }[] = [
    { name: 'no sections', text: v1beta1, want: {} },
    {
      name: 'anonymous with conditions (v1beta1)',
      text: `${v1beta1}anonymous:\n  enabled: true\n  conditions:\n  - path: /livez\n  - path: /readyz\n`,
      want: { anonymous: { enabled: true, conditions: [{ path: '/livez' }, { path: '/readyz' }] } },
    },
    {
      name: 'v1alpha1, anonymous off',
      text: 'apiVersion: apiserver.config.k8s.io/v1alpha1\nkind: AuthenticationConfiguration\nanonymous:\n  enabled: false\n',
      want: { anonymous: { enabled: false, conditions: [] } },
    },
    {
      name: 'JSON, enabled without conditions',
      text: '{"apiVersion":"apiserver.config.k8s.io/v1beta1","kind":"AuthenticationConfiguration","anonymous":{"enabled":true}}',
      want: { anonymous: { enabled: true, conditions: [] } },
    },
    {
      name: 'anonymous: null is no section; an empty jwt list is allowed',
      text: `${v1beta1}anonymous: null\njwt: []\n`,
      want: {},
    },
    {
      // kube does not refuse a path given twice
      name: 'the same path twice',
      text: `${v1beta1}anonymous:\n  enabled: true\n  conditions:\n  - path: /livez\n  - path: /livez\n`,
      want: { anonymous: { enabled: true, conditions: [{ path: '/livez' }, { path: '/livez' }] } },
    },
  ];
  for (const c of accepted) {
    it(`accepts: ${c.name}`, () => {
      assert.deepEqual(parseAuthenticationConfiguration(c.text, 'f.yaml', allOn), c.want);
    });
  }

  const load = 'failed to load authentication configuration from file "f.yaml": ';
  const invalid = 'invalid authentication configuration: ';
  const refused: { name: string; text: string; error: string; gates?: (n: string) => boolean }[] = [
    { name: 'an empty file', text: '\n', error: `${load}empty config data` },
    {
      name: 'no kind',
      text: 'apiVersion: apiserver.config.k8s.io/v1beta1\n',
      error: `${load}Object 'Kind' is missing`,
    },
    {
      name: 'no apiVersion',
      text: 'kind: AuthenticationConfiguration\n',
      error: `${load}Object 'apiVersion' is missing`,
    },
    {
      name: 'a version kube v1.32 does not register',
      text: 'apiVersion: apiserver.config.k8s.io/v1\nkind: AuthenticationConfiguration\n',
      error: `${load}no kind "AuthenticationConfiguration" is registered for version "apiserver.config.k8s.io/v1"`,
    },
    {
      name: 'another kind',
      text: 'apiVersion: apiserver.config.k8s.io/v1beta1\nkind: AuthorizationConfiguration\n',
      error: `${load}no kind "AuthorizationConfiguration" is registered for version "apiserver.config.k8s.io/v1beta1"`,
    },
    {
      name: 'unknown fields, at every level',
      text: `${v1beta1}metadata: {}\nanonymous:\n  enabled: true\n  extra: 1\n  conditions:\n  - path: /livez\n    verb: get\n`,
      error: `${load}strict decoding error: unknown field "metadata", unknown field "anonymous.extra", unknown field "anonymous.conditions[0].verb"`,
    },
    {
      name: 'a field given twice',
      text: `${v1beta1}anonymous:\n  enabled: true\n  enabled: false\n`,
      error: `${load}Map keys must be unique`,
    },
    {
      name: 'enabled not a boolean',
      text: `${v1beta1}anonymous:\n  enabled: "yes"\n`,
      error: `${load}json: cannot unmarshal string into Go struct field AnonymousAuthConfig.anonymous.enabled of type bool`,
    },
    {
      name: 'a path not a string',
      text: `${v1beta1}anonymous:\n  enabled: true\n  conditions:\n  - path: 3\n`,
      error: `${load}json: cannot unmarshal number into Go struct field AnonymousAuthCondition.anonymous.conditions.path of type string`,
    },
    {
      name: 'conditions without enabled',
      text: `${v1beta1}anonymous:\n  conditions:\n  - path: /livez\n`,
      error: `${invalid}anonymous.conditions: Invalid value: []apiserver.AnonymousAuthCondition{apiserver.AnonymousAuthCondition{Path:"/livez"}}: enabled should be set to true when conditions are defined`,
    },
    {
      name: 'anonymous with its feature gate off',
      text: `${v1beta1}anonymous:\n  enabled: true\n`,
      gates: (n) => n !== 'AnonymousAuthConfigurableEndpoints',
      error: `${invalid}anonymous: Forbidden: anonymous is not supported when AnonymousAuthConfigurableEndpoints feature gate is disabled`,
    },
    {
      name: 'a jwt authenticator (not built in pgkube) and a bad anonymous section: both reported',
      text: `${v1beta1}jwt:\n- issuer: {url: "https://issuer"}\nanonymous:\n  enabled: false\n  conditions:\n  - path: /x\n`,
      error: `${invalid}[jwt: Forbidden: JWT authenticators are not supported by pgkube; remove the jwt section, anonymous.conditions: Invalid value: []apiserver.AnonymousAuthCondition{apiserver.AnonymousAuthCondition{Path:"/x"}}: enabled should be set to true when conditions are defined]`,
    },
    {
      name: 'the file at all with StructuredAuthenticationConfiguration off',
      text: v1beta1,
      gates: (n) => n !== 'StructuredAuthenticationConfiguration',
      error:
        'set --feature-gates=StructuredAuthenticationConfiguration=true to use authentication-config file',
    },
  ];
  for (const c of refused) {
    it(`refuses: ${c.name}`, () => {
      assert.throws(
        () => parseAuthenticationConfiguration(c.text, 'f.yaml', c.gates ?? allOn),
        (e: Error) => {
          assert.ok(e.message.startsWith('--authentication-config: '), e.message);
          assert.ok(e.message.includes(c.error), `${e.message}\n  should contain\n${c.error}`);
          return true;
        },
      );
    });
  }
});

describe('anonymousAccess', () => {
  const section = (enabled: boolean, ...paths: string[]): AuthenticationConfiguration => ({
    anonymous: { enabled, conditions: paths.map((path) => ({ path })) },
  });
  const table: {
    name: string;
    flag?: boolean;
    config?: AuthenticationConfiguration;
    want: ReturnType<typeof anonymousAccess>;
  }[] = [
    { name: 'nothing given: on everywhere (kube default)', want: { enabled: true } },
    { name: '--anonymous-auth=false', flag: false, want: { enabled: false } },
    { name: 'a file without anonymous: the flag decides', flag: false, config: {}, want: { enabled: false } },
    {
      name: 'the file: on, on its paths',
      config: section(true, '/livez'),
      want: { enabled: true, paths: ['/livez'] },
    },
    { name: 'the file: off', config: section(false), want: { enabled: false, paths: [] } },
  ];
  for (const c of table) {
    it(c.name, () => assert.deepEqual(anonymousAccess(c.flag, c.config), c.want));
  }

  it('--anonymous-auth (even =true) with an anonymous section: refused, naming both flags', () => {
    for (const flag of [true, false]) {
      assert.throws(
        () => anonymousAccess(flag, section(true)),
        /--anonymous-auth and --authentication-config: anonymous: Forbidden: --anonymous-auth flag cannot be set when anonymous field is configured in authentication configuration file/,
      );
    }
  });
});
