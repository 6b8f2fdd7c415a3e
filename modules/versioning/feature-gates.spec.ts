import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FeatureGates, parseFeatureGates } from './feature-gates.js';
import { kubeFeatures, type FeatureSpec } from './features.js';
import { FlagError } from './flag-error.js';

/** The error parseFeatureGates throws for `values`, or a failure when it does not throw. */
function errorOf(values: string[], known?: Record<string, FeatureSpec>): FlagError {
  try {
    parseFeatureGates(values, known);
  } catch (e) {
    assert.ok(e instanceof FlagError, String(e));
    return e;
  }
  assert.fail(`${values.join(' ')} was accepted`);
}

const testFeatures: Record<string, FeatureSpec> = {
  Alpha1: { stage: 'ALPHA', default: false, description: '' },
  Alpha2: { stage: 'ALPHA', default: false, description: '' },
  Beta1: { stage: 'BETA', default: true, description: '' },
  BetaOff: { stage: 'BETA', default: false, description: '' },
  BetaLocked: { stage: 'BETA', default: true, lockToDefault: true, description: '' },
  Stable: { stage: 'GA', default: true, description: '' },
  Old: { stage: 'DEPRECATED', default: false, description: '' },
  Child: { stage: 'BETA', default: true, requires: ['Beta1'], description: '' },
};

describe('feature gates of kube v1.32', () => {
  it('have the stage and default kube gives them', () => {
    const expected: Record<string, [string, boolean]> = {
      AllowUnsafeMalformedObjectDeletion: ['ALPHA', false],
      APIResponseCompression: ['BETA', true],
      APISelfSubjectReview: ['GA', true],
      AnonymousAuthConfigurableEndpoints: ['BETA', true],
      AuthorizeNodeWithSelectors: ['BETA', true],
      AuthorizeWithSelectors: ['BETA', true],
      CBORServingAndStorage: ['ALPHA', false],
      ConsistentListFromCache: ['BETA', true],
      ContainerCheckpoint: ['BETA', true],
      KMSv1: ['DEPRECATED', false],
      RemoteRequestHeaderUID: ['ALPHA', false],
      StorageVersionHash: ['BETA', true],
      StructuredAuthenticationConfiguration: ['BETA', true],
      StructuredAuthorizationConfiguration: ['GA', true],
      WatchList: ['BETA', true],
    };
    const gates = FeatureGates.defaults();
    assert.deepEqual(
      gates.list().map((g) => [g.name, g.stage, g.default]),
      Object.entries(expected)
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([name, [stage, value]]) => [name, stage, value]),
    );
    for (const [name, [, value]] of Object.entries(expected)) {
      assert.equal(gates.enabled(name as keyof typeof kubeFeatures), value, name);
    }
  });

  it('follow the spec: alpha off, beta on, GA on and locked', () => {
    for (const [name, spec] of Object.entries(kubeFeatures) as [string, FeatureSpec][]) {
      if (spec.stage === 'ALPHA') assert.equal(spec.default, false, name);
      if (spec.stage === 'BETA') assert.equal(spec.default, true, name);
      if (spec.stage === 'GA') assert.deepEqual([spec.default, spec.lockToDefault], [true, true], name);
    }
  });

  it('answer a gate nobody registered with an error, not a guess', () => {
    assert.throws(() => FeatureGates.defaults().enabled('NoSuchGate' as never), /not registered/);
  });
});

describe('--feature-gates', () => {
  it('switches gates on and off; an empty flag keeps the defaults', () => {
    const { gates, warnings } = parseFeatureGates([
      'CBORServingAndStorage=true, APIResponseCompression=false,',
    ]);
    assert.equal(gates.enabled('CBORServingAndStorage'), true);
    assert.equal(gates.enabled('APIResponseCompression'), false);
    assert.equal(gates.enabled('WatchList'), true);
    assert.deepEqual(warnings, []);
    assert.equal(parseFeatureGates(['']).gates.enabled('CBORServingAndStorage'), false);
  });

  it("reads Go's boolean spellings", () => {
    for (const [text, value] of [
      ['1', true],
      ['t', true],
      ['TRUE', true],
      ['True', true],
      ['0', false],
      ['F', false],
      ['False', false],
    ] as const) {
      assert.equal(parseFeatureGates([`WatchList=${text}`]).gates.enabled('WatchList'), value, text);
    }
  });

  it('merges repeated flags, the later value winning', () => {
    const { gates } = parseFeatureGates(['WatchList=false,CBORServingAndStorage=true', 'WatchList=true']);
    assert.equal(gates.enabled('WatchList'), true);
    assert.equal(gates.enabled('CBORServingAndStorage'), true);
  });

  it('refuses an unknown gate, naming it', () => {
    const e = errorOf(['WatchList=true,NoSuchGate=true']);
    assert.equal(
      e.message,
      'invalid argument "WatchList=true,NoSuchGate=true" for "--feature-gates" flag: unrecognized feature gate: NoSuchGate',
    );
  });

  it('refuses a gate without a value or with a value that is not a boolean', () => {
    assert.match(errorOf(['WatchList']).message, /missing bool value for WatchList$/);
    assert.match(
      errorOf(['WatchList=yes']).message,
      /invalid value of WatchList=yes, err: strconv\.ParseBool: parsing "yes": invalid syntax$/,
    );
  });

  it('refuses a GA gate away from its default, and warns when it is set at all', () => {
    assert.match(
      errorOf(['StructuredAuthorizationConfiguration=false']).message,
      /cannot set feature gate StructuredAuthorizationConfiguration to false, feature is locked to true$/,
    );
    // GA without an explicit lock is locked all the same: the gate no longer does anything
    assert.match(errorOf(['Stable=false'], testFeatures).message, /feature is locked to true$/);
    const { warnings } = parseFeatureGates(['APISelfSubjectReview=true']);
    assert.deepEqual(warnings, [
      'Setting GA feature gate APISelfSubjectReview=true. It will be removed in a future release.',
    ]);
  });

  it('refuses a locked gate away from its default', () => {
    assert.match(
      errorOf(['BetaLocked=false'], testFeatures).message,
      /cannot set feature gate BetaLocked to false, feature is locked to true$/,
    );
    assert.equal(
      parseFeatureGates<string>(['BetaLocked=true'], testFeatures).gates.enabled('BetaLocked'),
      true,
    );
  });

  it('warns when a deprecated gate is set, and applies it', () => {
    const { gates, warnings } = parseFeatureGates(['KMSv1=true']);
    assert.equal(gates.enabled('KMSv1'), true);
    assert.deepEqual(warnings, [
      'Setting deprecated feature gate KMSv1=true. It will be removed in a future release.',
    ]);
  });

  it('AllAlpha and AllBeta reach every unnamed gate of their stage, not locked ones', () => {
    const { gates } = parseFeatureGates<string>(['Alpha2=false,AllAlpha=true,AllBeta=false'], testFeatures);
    assert.equal(gates.enabled('Alpha1'), true);
    assert.equal(gates.enabled('Alpha2'), false, 'named on its own');
    assert.equal(gates.enabled('Beta1'), false);
    assert.equal(gates.enabled('BetaLocked'), true, 'locked');
    assert.equal(gates.enabled('Stable'), true);
    // AllBeta=false turned Beta1 off, and Child (beta too) with it, so nothing requires what is off
    assert.equal(gates.enabled('Child'), false);
  });

  it('refuses a gate on while a gate it requires is off (kube: conflicting options)', () => {
    assert.equal(
      errorOf(['AuthorizeWithSelectors=false']).message,
      '--feature-gates: AuthorizeNodeWithSelectors feature requires AuthorizeWithSelectors feature to be enabled',
    );
    const { gates } = parseFeatureGates(['AuthorizeWithSelectors=false,AuthorizeNodeWithSelectors=false']);
    assert.equal(gates.enabled('AuthorizeWithSelectors'), false);
    assert.match(errorOf(['Beta1=false'], testFeatures).message, /Child feature requires Beta1/);
  });

  it('lists every gate with its state', () => {
    const { gates } = parseFeatureGates<string>(['Alpha1=true'], testFeatures);
    assert.deepEqual(gates.list()[0], {
      name: 'Alpha1',
      stage: 'ALPHA',
      default: false,
      enabled: true,
      locked: false,
    });
    assert.equal(gates.list().find((g) => g.name === 'Stable')?.locked, true);
  });
});
