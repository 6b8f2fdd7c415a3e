import { Module, type DynamicModule } from '@nestjs/common';
import type { ApiEnablement } from './api-enablement.js';
import { DeprecatedApis } from './deprecation.js';
import type { FeatureGates } from './feature-gates.js';

/** Nest injection token for the FeatureGates parsed from --feature-gates. */
export const FEATURE_GATES = Symbol('FeatureGates');
/** Nest injection token for the ApiEnablement resolved from --runtime-config. */
export const API_ENABLEMENT = Symbol('ApiEnablement');

/** Feature gates, API enablement and the record of deprecated APIs served, for every module. */
@Module({})
export class VersioningModule {
  static forRoot(options: { featureGates: FeatureGates; apiEnablement: ApiEnablement }): DynamicModule {
    return {
      module: VersioningModule,
      global: true,
      providers: [
        { provide: FEATURE_GATES, useValue: options.featureGates },
        { provide: API_ENABLEMENT, useValue: options.apiEnablement },
        { provide: DeprecatedApis, useValue: new DeprecatedApis() },
      ],
      exports: [FEATURE_GATES, API_ENABLEMENT, DeprecatedApis],
    };
  }
}
